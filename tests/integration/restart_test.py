#!/usr/bin/env python3
"""The server is killed with SIGKILL in the middle of a game (one move in flight, one move
queued, a clock running), restarted on the same data directory, and the game continues to the
end: no acknowledged move is lost, none is duplicated.
Usage: restart_test.py PLATEAU_BINARY"""
import sys
import time

from plateau_harness import Server, play_to_end, record_moves, run_tests

BINARY = sys.argv[1]


def label(player):
    return "A:" if player == "alice" else "B:"


def test_sigkill_mid_game():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        bob = server.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=8 -clock=fischer:600+5 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        alice.send("/say before the crash")
        bob.expect(r"^\[bohnduell 101\] alice: before the crash$")
        clients = {"alice": alice, "bob": bob}
        played = []
        turn = "alice"
        for _ in range(4):
            c = clients[turn]
            ply = len(played) + 1
            for tok in ["S4", "S3", "S2", "S1"]:
                c.send(f"move 101 {tok}#{ply}")
                i, m = c.expect_any([r"^error: (.*)$", rf"^bohnduell 101: {ply}\. \S+ {turn} (\S+)$"])
                if i == 1:
                    played.append((turn, tok))
                    break
            i, m = c.expect_any([r"^It is (\w+)'s turn\.$"])
            turn = m.group(1)
        other = "bob" if turn == "alice" else "alice"
        clients[other].send("queue 101 S4")
        clients[other].expect(r"^Queued S4 at bohnduell 101")
        acknowledged = list(played)
        # One more move, and the kill right behind it: it may or may not have been stored.
        clients[turn].send(f"move 101 S4#{len(played) + 1}")
        server.kill()
        alice.close()
        bob.close()

        server.start()
        status, record = server.http_get("/records/bohnduell/101")
        assert status == 200, (status, record)
        moves = record_moves(record)
        expected = [label(p) + t for p, t in acknowledged]
        assert moves[:len(expected)] == expected, (moves, expected)
        extra = moves[len(expected):]
        # Either nothing more, or the in-flight move followed by the queued reply: never a duplicate.
        assert extra in ([], [label(turn) + "S4", label(other) + "S4"]), extra
        alice = server.text("alice", "pw-alice")
        bob = server.text("bob", "pw-bobby")
        alice.send("/info 101")
        alice.expect(r"^bohnduell 101 \(playing\): .*supply=8.*; clock fischer:600\+5; rated$")
        if extra:
            played = acknowledged + [(turn, "S4"), (other, "S4")]
        else:
            played = acknowledged
            # The queued move is still there: the player to move moves and the reply comes by itself.
            clients = {"alice": alice, "bob": bob}
            clients[turn].send(f"move 101 S4#{len(played) + 1}")
            clients[turn].expect(rf"^bohnduell 101: {len(played) + 2}\. \S+ {other} S4 \(Auto\)$")
            played += [(turn, "S4"), (other, "S4")]
        bob.send("show 101")
        m = bob.expect(r"^It is (\w+)'s turn\.$")
        played, final = play_to_end({"alice": alice, "bob": bob}, 101, m.group(1), played=played)
        status, record = server.http_get("/records/bohnduell/101")
        assert record_moves(record) == [label(p) + t for p, t in played], (record, played)
        assert server.stop() == 0


    finally:
        if server.alive():
            server.kill()

run_tests([test_sigkill_mid_game])
