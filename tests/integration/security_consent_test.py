#!/usr/bin/env python3
"""Issue 12 item 5 (consent): ratings cannot be farmed. `bohnduell challenge -clock=move:1 victim
mallory` against an absent account used to end in a rated forfeit a second later (1500 -> 1338,
five in a row -> 1208). A game decided before every player has moved (by time, resignation or a
failing computer player) now ends with no result and no rating change, as pbmserv's decline; a
game lost on time after both have moved is still rated.
Usage: security_consent_test.py PLATEAU_BINARY"""
import sys

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]


def test_forfeits_before_every_move_are_not_rated():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        # The victim has a rating: a rated draw with a friend leaves it at 1500 (RD 290).
        victim = server.text("victim", "pw-victim", register=True)
        friend = server.text("friend", "pw-friend", register=True)
        victim.send("bohnduell challenge victim friend")
        victim.expect(r"^New BohnDuell Board 101$")
        victim.send("move 101 S4#1")
        friend.expect(r"^bohnduell 101: 1\. A victim S4$")
        friend.send("move 101 S1#2")
        victim.expect(r"^bohnduell 101: 2\. B friend S1$")
        victim.send("propose 101")
        friend.expect(r"^bohnduell 101: victim has proposed a draw; waiting for friend\.$")
        friend.send("accept 101")
        victim.expect(r"^Game was a tie\.$")
        rated = ("Standings of bohnduell:\n"
                 "  1. friend                1500  RD 290  games 1\n"
                 "  2. victim                1500  RD 290  games 1\n")
        assert answer(victim, "standings bohnduell") == rated
        victim.close()  # then offline
        friend.close()
        mallory = server.text("mallory", "pw-mallory", register=True)
        # The attack, five times: the victim moves first and is not there.
        for board in range(102, 107):
            mallory.send("bohnduell challenge -clock=move:1 victim mallory")
            mallory.expect(rf"^New BohnDuell Board {board}$")
            mallory.expect(rf"^bohnduell {board}: No result: victim ran out of time before every "
                           r"player had moved\.$", timeout=5)
        # With the victim second: mallory moves, the victim never does.
        mallory.send("bohnduell challenge -clock=move:1 mallory victim")
        mallory.expect(r"^New BohnDuell Board 107$")
        mallory.send("move 107 S4#1")
        mallory.expect(r"^bohnduell 107: 1\. A mallory S4$")
        mallory.expect(r"^bohnduell 107: No result: victim ran out of time before every player "
                       r"had moved\.$", timeout=5)
        assert answer(mallory, "standings bohnduell") == rated  # the victim is still at 1500
        tables = answer(mallory, "bohnduell tables")
        assert tables == "bohnduell 101 over ply 2: victim, friend\n" + "".join(
            f"bohnduell {b} declined ply 0: victim, mallory\n" for b in range(102, 107)) + (
            "bohnduell 107 declined ply 1: mallory, victim\n"), tables
        page = answer(mallory, "show 102")
        assert "No result: victim ran out of time before every player had moved." in page, page
        assert ("No result and no rating change: the game ended before every player had moved."
                in page), page
        status, record = server.http_get("/records/bohnduell/102")
        assert status == 200 and '[Result "*"]' in record, record
        assert '[Termination "time"]' in record, record
        mallory.send("move 102 S4")
        mallory.expect(r"^error: bohnduell 102 was declined$")

        # Both have moved, then mallory loses on time: rated, exact new ratings.
        victim = server.text("victim", "pw-victim")
        mallory.send("bohnduell challenge -clock=move:2 mallory victim")
        mallory.expect(r"^New BohnDuell Board 108$")
        mallory.send("move 108 S4#1")
        victim.expect(r"^bohnduell 108: 1\. A mallory S4$")
        victim.send("move 108 S1#2")
        for c in (mallory, victim):
            c.expect(r"^bohnduell 108: Game won by victim\. \(0-1, time\)$", timeout=6)
        after = ("Standings of bohnduell:\n"
                 "  1. victim                1624  RD 254  games 2\n"
                 "  2. friend                1500  RD 290  games 1\n"
                 "  3. mallory               1332  RD 281  games 1\n")
        assert answer(mallory, "standings bohnduell") == after
        # The ratings and the no-result boards survive a restart.
        assert server.stop() == 0
        server.start()
        mallory = server.text("mallory", "pw-mallory")
        assert answer(mallory, "standings bohnduell") == after
        assert answer(mallory, "bohnduell tables").startswith(
            "bohnduell 101 over ply 2: victim, friend\n"
            "bohnduell 102 declined ply 0: victim, mallory\n")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_forfeits_before_every_move_are_not_rated])
