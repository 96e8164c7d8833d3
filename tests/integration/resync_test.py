#!/usr/bin/env python3
"""Reconnection (issue 13, items 5 and 7): table events carry a per-table seq; a client that lost
its connection resyncs from the last seq it saw and hears every event exactly once; a move re-sent
with its #n after a reconnect is acknowledged once (the same event, the same seq) and stored once,
also after a restart; resync on the text port; the bound on kept events; an invisible table
answers a stranger's resync like a board that does not exist.
Usage: resync_test.py PLATEAU_BINARY"""
import sys

from plateau_harness import Server, answer, record_moves, run_tests, TOKENS

BINARY = sys.argv[1]


def ws_login(server, name, password, register=False):
    ws = server.ws()
    assert ws.recv()["type"] == "welcome"
    replies, _ = ws.command(("register " if register else "login ") + f"{name} {password}")
    assert replies[0]["type"] == "login", replies
    return ws


def ws_move(ws, board, ply):
    """Plays the first legal token at ply `ply`: (token, the move event answered)."""
    for tok in TOKENS:
        replies, _ = ws.command(f"bohnduell move {board} {tok}#{ply}")
        if replies[0]["type"] == "error":
            assert "illegal move" in replies[0]["message"], replies
            continue
        assert replies[0]["type"] == "move" and replies[0]["ply"] == ply, replies
        return tok, replies[0]
    raise AssertionError(f"no legal move at ply {ply}")


def text_move(client, board, ply, name):
    for tok in TOKENS:
        client.send(f"bohnduell move {board} {tok}#{ply}")
        i, m = client.expect_any([r"^error: (.*)$", rf"^bohnduell {board}: {ply}\. \S+ {name} (\S+)$"])
        if i == 1:
            return tok
        assert "illegal move" in m.group(1), m.group(1)
    raise AssertionError(f"no legal move at ply {ply}")


def test_websocket_reconnect_resync_and_repeated_move():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = ws_login(server, "alice", "pw-alice-1", register=True)
        bob = server.text("bob", "pw-bobby-1", register=True)
        replies, _ = alice.command("bohnduell challenge -supply=8 alice bob")
        assert [(e["type"], e.get("seq")) for e in replies] == [("challenge", 1)], replies
        bob.expect(r"^New BohnDuell Board 101$")
        tok1, ev = ws_move(alice, 101, 1)
        assert ev["seq"] == 2, ev
        text_move(bob, 101, 2, "bob")  # seq 3
        _, others = alice.command("ping")
        assert [(e["type"], e["seq"]) for e in others] == [("move", 3)], others
        last_seen = 3
        alice.close()  # the connection drops
        bob.send("/table bohnduell 101")
        bob.expect(r"^You are at bohnduell 101\.")
        bob.send("/say are you there?")  # seq 4, missed by alice
        bob.expect(r"^\[bohnduell 101\] bob: are you there\?$")

        # Back, logged in again by password: the missed events, each once, in order; then live.
        alice = ws_login(server, "alice", "pw-alice-1")
        replies, others = alice.command(f"resync bohnduell 101 {last_seen}")
        assert [(e["type"], e["seq"]) for e in others] == [("chat", 4)], others
        assert others[0]["message"] == "are you there?"
        assert replies == [{"type": "resync", "game": "bohnduell", "board": 101, "from": 3,
                            "seq": 4, "count": 1, "re": replies[0]["re"],
                            "text": "Resynced bohnduell 101: 1 events after 3; now at 4."}], replies
        tok3, ev3 = ws_move(alice, 101, 3)
        assert ev3["seq"] == 5, ev3
        # The acknowledgement of ply 4's move is lost with the connection: sent, then dropped.
        text_move(bob, 101, 4, "bob")  # seq 6
        tok5 = None
        for tok in TOKENS:
            replies, _ = alice.command(f"bohnduell move 101 {tok}#5")
            if replies[0]["type"] == "move":
                tok5, original = tok, replies[0]
                break
        assert tok5 and original["seq"] == 7, original
        alice.close()
        alice = ws_login(server, "alice", "pw-alice-1")
        replies, others = alice.command(f"bohnduell move 101 {tok5}#5")
        assert others == [], others
        again = dict(replies[0])
        assert again.pop("re") != original["re"]
        expected = dict(original)
        expected.pop("re")
        assert replies == [dict(expected, re=replies[0]["re"])], (replies, original)
        # A different move for a ply she played stays an error, and so does bob's ply re-sent.
        other = next(t for t in TOKENS if t != tok3)
        for line in (f"bohnduell move 101 {other}#3", f"bohnduell move 101 {tok5}#4"):
            replies, _ = alice.command(line)
            assert replies == [{"type": "error", "re": replies[0]["re"],
                                "message": "it is not your turn: it is bob's turn"}], replies
        status, record = server.http_get("/records/bohnduell/101")
        assert status == 200
        assert len(record_moves(record)) == 5, record
        assert server.stop() == 0

        # After a restart the events and the acknowledgement are still there.
        server.start()
        alice = ws_login(server, "alice", "pw-alice-1")
        replies, _ = alice.command(f"bohnduell move 101 {tok5}#5")
        assert replies[0]["type"] == "move" and replies[0]["seq"] == 7, replies
        replies, others = alice.command("resync bohnduell 101 4")
        assert [(e["type"], e["seq"], e["ply"]) for e in others] == \
            [("move", 5, 3), ("move", 6, 4), ("move", 7, 5)], others
        assert replies[0]["seq"] == 7 and replies[0]["count"] == 3, replies
        status, record2 = server.http_get("/records/bohnduell/101")
        assert record2 == record, (record2, record)
        # The replies that show the table carry its last seq: every event above it comes after.
        replies, others = alice.command("/table bohnduell 101")
        assert [(e["type"], e["last_seq"]) for e in replies] == [("table", 7)] and not others, \
            (replies, others)
        # Back at her seat: the event it numbers goes out first, and the board shown counts it.
        replies, _ = alice.command("/join")
        assert [(e["type"], e.get("seq"), e.get("last_seq")) for e in replies] == \
            [("table", 8, None), ("board", None, 8)], replies
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_text_resync_bounds_and_invisible():
    server = Server(BINARY, extra=["--rate", "1000", "--events-kept", "3"]).start()
    try:
        alice = server.text("alice", "pw-alice-1", register=True)
        bob = server.text("bob", "pw-bobby-1", register=True)
        mallory = server.text("mallory", "pw-mallory-1", register=True)
        alice.send("bohnduell challenge -supply=8 alice bob")  # seq 1
        alice.expect(r"^New BohnDuell Board 101$")
        text_move(alice, 101, 1, "alice")  # seq 2
        alice.send("/table bohnduell 101")
        alice.expect(r"^You are at bohnduell 101\.")
        for i in range(3):  # seq 3, 4, 5
            alice.send(f"/say line {i}")
            alice.expect(rf"^\[bohnduell 101\] alice: line {i}$")
        # bob, seated, heard them live too (every connection of a player does): resync replays.
        bob.expect(r"^\[bohnduell 101\] alice: line 2$")
        out = answer(bob, "resync bohnduell 101 3")
        assert out == ("[bohnduell 101] alice: line 1\n[bohnduell 101] alice: line 2\n"
                       "Resynced bohnduell 101: 2 events after 3; now at 5.\n"), out
        assert answer(bob, "resync bohnduell 101 5") == \
            "Resynced bohnduell 101: 0 events after 5; now at 5.\n"
        assert answer(bob, "resync bohnduell 101 6") == \
            "error: no event 6 at bohnduell 101 yet; the last is 5\n"
        assert answer(bob, "resync bohnduell 101 1") == (
            "error: the events of bohnduell 101 before 3 are no longer kept; /watch 101 for the "
            "whole board, then resync from its seq\n")
        assert answer(bob, "resync bohnduell 101 x") == "error: bad seq 'x': expected a number\n"
        assert answer(bob, "resync 101") == "error: usage: resync [GAME] BOARD SEQ\n"
        # A spectator resyncs, then watches: the next event reaches it live, once.
        out = answer(mallory, "resync bohnduell 101 4")
        # ... and, live, the news that it watches (seq 6, heard by everyone at the table).
        assert out == ("[bohnduell 101] alice: line 2\n"
                       "Resynced bohnduell 101: 1 events after 4; now at 5.\n"
                       "mallory is watching bohnduell 101.\n"), out
        alice.expect(r"^mallory is watching bohnduell 101\.$")
        alice.send("/say live")
        mallory.expect(r"^\[bohnduell 101\] alice: live$")
        assert "live" not in mallory.pending()

        # Invisible: a stranger's resync is answered as for a board that does not exist.
        alice.send("/open bohnduell")
        alice.expect(r"^Table bohnduell 102 is open")
        alice.send("/option invisible")
        alice.expect(r"alice sets invisible")
        stranger = server.text("eve", "pw-eve-123", register=True)
        assert answer(stranger, "resync bohnduell 102 0") == "error: no bohnduell board 102\n"
        assert answer(stranger, "resync bohnduell 103 0") == "error: no bohnduell board 103\n"
        assert answer(stranger, "resync 102 0") == "error: no board 102\n"
        assert answer(stranger, "/watch 102") == "error: no board 102\n"
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


if __name__ == "__main__":
    run_tests([test_websocket_reconnect_resync_and_repeated_move,
               test_text_resync_bounds_and_invisible])
