#!/usr/bin/env python3
"""`resync BOARD 0` on a long game (issue 13, the bug found at the end of session 4): a
600-ply Phutball game, then a resync from 0 on the text port (each move event carries its board
page there: about 630 KB in all) and on the WebSocket (about 180 KB of JSON), with
--max-output-bytes at 128 KiB so that both answers are well over it (at the default 1 MiB the
same happens from about 1,000 Phutball plies, or fewer plies of a game with a larger page). The
honest client, which reads as fast as it can, gets every event once, in seq order, then the
resync answer, and its connection stays open (the replay is paced by the connection's output
queue, docs/PROTOCOL.md).
Usage: resync_long_test.py PLATEAU_BINARY"""
import json
import re
import socket
import sys

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]
PLIES = 600
LIMIT = 128 * 1024  # --max-output-bytes
# The ball (H10) goes back and forth over a man Ohs puts beside it: a game without an end.
CYCLE = ["J10", "H10-K10", "J10", "K10-H10"]


def play_long_game(alice, bob, board):
    for i in range(PLIES):
        c, name = (alice, "alice") if i % 2 == 0 else (bob, "bob")
        move = CYCLE[i % 4]
        c.send(f"phutball move {board} {move}#{i + 1}")
        c.expect(rf"^phutball {board}: {i + 1}\. [OX] {name} {re.escape(move)}$")


def test_resync_from_zero_on_a_long_game():
    server = Server(BINARY, extra=["--rate", "100000", "--max-output-bytes", str(LIMIT)]).start()
    try:
        alice = server.text("alice", "pw-alice-1", register=True)
        bob = server.text("bob", "pw-bobby-1", register=True)
        alice.send("phutball challenge alice bob")  # seq 1
        alice.expect(r"^New Phutball Board 101$")
        play_long_game(alice, bob, 101)  # seq 2 .. 601
        last = PLIES + 1

        # Text: every move with its page, each once, in order; then the answer; still open.
        carol = server.text("carol", "pw-carol-1", register=True)
        out = answer(carol, "resync phutball 101 0")
        plies = [int(p) for p in re.findall(r"^phutball 101: (\d+)\. ", out, re.M)]
        assert plies == list(range(1, PLIES + 1)), plies[:5] + ["..."] + plies[-5:]
        assert out.count("\nSummary of Phutball Board 101\n") >= PLIES, len(out)
        assert len(out) > 2 * LIMIT, len(out)
        assert out.startswith("New Phutball Board 101\n"), out[:200]
        assert out.endswith(f"Resynced phutball 101: {last} events after 0; now at {last}.\n"
                            "carol is watching phutball 101.\n"), out[-300:]
        carol.send("ping")  # still open, and answering
        carol.expect(r"^pong$")
        # Live after the replay: the next move reaches carol once.
        alice.send(f"phutball move 101 {CYCLE[0]}#{PLIES + 1}")
        carol.expect(rf"^phutball 101: {PLIES + 1}\. O alice {CYCLE[0]}$")
        assert f": {PLIES + 1}." not in carol.pending()

        # WebSocket: the same events as JSON, seq 1 .. last+2 (carol's watch, the live move).
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        replies, _ = ws.command("login bob pw-bobby-1")
        assert replies[0]["type"] == "login", replies
        now = last + 2
        replies, others = ws.command("resync phutball 101 0", timeout=60)
        ws_bytes = sum(len(json.dumps(e)) for e in others)
        assert ws_bytes > LIMIT, ws_bytes
        assert [e["seq"] for e in others] == list(range(1, now + 1)), \
            [e.get("seq") for e in others][:5]
        assert [e["ply"] for e in others if e["type"] == "move"] == list(range(1, PLIES + 2))
        assert replies[0]["type"] == "resync" and replies[0]["count"] == now, replies
        replies, _ = ws.command("ping")
        assert replies[0]["text"] == "pong", replies

        resync_flood_is_closed(server, carol)
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def resync_flood_is_closed(server, witness):
    """An attacker asks resync after resync without reading: each replay waits in its session,
    and before the fix only the small `resync` answers counted against --max-output-bytes, so
    60 of them held 36,000 events and the connection stayed open for ever. Now each waiting
    event counts for its place in the queue: the connection is closed as a slow reader, with
    far less sent than asked, and the server goes on."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the kernel holds little
    sock.settimeout(30)
    sock.connect(("127.0.0.1", server.text_port))
    sock.sendall(b"guest\n" + b"resync phutball 101 0\n" * 60)
    asked = 60 * 630_000
    received = 0
    while True:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            raise AssertionError(f"still open after {received} bytes: the held replays grew")
        if not chunk:
            break
        received += len(chunk)
    sock.close()
    assert received < asked // 4, received
    witness.send("ping")  # the server and the other connections go on
    witness.expect(r"^pong$")


if __name__ == "__main__":
    run_tests([test_resync_from_zero_on_a_long_game])
