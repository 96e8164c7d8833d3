#!/usr/bin/env python3
"""`analyse BOARD[#n] [LEVEL]` on a real `plateau serve` (issue 17 item 7): a spectator on the
text port and a player over WebSocket analyse a Phutball position with a win in one; an earlier
ply; the errors (a ply out of range, a level out of range, a board the caller may not see, a
finished position) and the per-user rate bound.
Usage: analyse_test.py PLATEAU_BINARY"""
import re
import sys

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]

WIN = ("Analysis of phutball 101 at ply 3 (level 3): X to move; best H2-H0; score 1.000 "
       "(expected return for X, exact; bar +1.000); line 4. H2-H0; 0 nodes, ")


def test_analyse():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        bob = server.text("bob", "pw-bobby", register=True)
        alice.send("phutball challenge -handicap=8 alice bob")
        alice.expect(r"^New Phutball Board 101$")
        for who, move in ((alice, "A19"), (bob, "A18"), (alice, "H1")):
            who.send(f"move 101 {move}")
            who.expect(rf"^phutball 101: \d+\. . \w+ {move}$")

        # A spectator (a guest, no seat) on the text port: the forced win, exactly.
        carol = server.text()
        carol.send("guest")
        carol.expect(r"^Hello, guest\d+")
        text = answer(carol, "analyse 101")
        assert re.fullmatch(re.escape(WIN) + r"\d+ ms\.\n", text), text

        # A player over WebSocket: the same answer as the reply to its command, with its fields.
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        ws.command("login bob pw-bobby")
        replies, _ = ws.command("analyse phutball 101")
        assert len(replies) == 1, replies
        a = replies[0]
        assert a["type"] == "analysis" and a["re"] > 0, a
        position = a["line"][0].pop("position")
        assert position, a
        for key in ("ms", "text", "re"):
            a.pop(key)
        assert a == {"type": "analysis", "game": "phutball", "board": 101, "ply": 3,
                     "level": "3", "seat": "X", "best": "H2-H0", "exact": True, "nodes": 0,
                     "score": 1.0, "unit": "expected return", "bar": 1.0,
                     "line_text": "4. H2-H0",
                     "line": [{"ply": 4, "seat": "X", "move": "H2-H0"}]}, a
        # An earlier ply at level 1: Ohs to move.
        replies, _ = ws.command("analyse 101#0 1")
        assert replies[0]["type"] == "analysis" and replies[0]["ply"] == 0, replies
        assert replies[0]["seat"] == "O" and replies[0]["level"] == "1", replies

        # Errors.
        assert answer(carol, "analyse 101#4") == "error: no ply 4 at phutball 101; plies are 0..3\n"
        assert answer(carol, "analyse 101 7") == (
            "error: bad level '7' for phutball: levels are 1 to 5\n")
        assert answer(carol, "analyse 101 x y") == (
            "error: usage: analyse [GAME] BOARD[#n] [LEVEL]\n")
        # An invisible table is not there for those who may not reach it.
        for line in ("/open bohnduell", "/join 1", "/join cpu:1 2", "/option invisible",
                     "/startnosave"):
            alice.send(line)
        alice.send("ping")
        alice.expect(r"^pong$")
        assert answer(carol, "analyse bohnduell 101") == "error: no bohnduell board 101\n"
        mine = answer(alice, "analyse bohnduell 101#0")
        # (The computer's move may come meanwhile: who starts is drawn.)
        assert re.search(r"^Analysis of bohnduell 101 at ply 0 \(level 3\): ", mine, re.M), mine

        # The rate bound: 10 in a row, then one every 3 s. This guest has spent 3: a refusal by
        # the table (a bad ply or level) counts, a refusal before it (no such board) does not.
        for i in range(7):
            assert answer(carol, "analyse phutball 101").startswith("Analysis of"), i
        refused = answer(carol, "analyse phutball 101")
        assert re.fullmatch(r"error: too many analyses: 10 in a row, then one every 3 s; "
                            r"try again in [123] s\n", refused), refused
        # Another user is not held back by it.
        assert answer(alice, "analyse phutball 101").startswith(WIN)

        # A finished position has nothing to analyse.
        bob.send("move 101 H2-H0")
        bob.expect(r"^Game won by bob\.$")
        alice.expect(r"Game won by bob\. \(0-1, rules\)$")
        over = answer(alice, "analyse phutball 101")
        assert re.fullmatch(r"error: the game at phutball 101 is over at ply 4 \(.*\): "
                            r"nothing to analyse\n", over), over
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


if __name__ == "__main__":
    run_tests([test_analyse])
