#!/usr/bin/env python3
"""A biloba 0.9.3 network game on the server's legacy port is an ordinary lobby table from its
start (issue 13, item 8; docs/BILOBA_NETWORK.md): listed by `tables` and /api/tables while it is
played, watched live on the text port (each turn as it happens, with its exact move), chat
bridged both ways (a talk-mode line shows at the table, a line said at the table reaches the
biloba clients), nobody but the legacy game moves its seats, and at the end the table's record
has the turns of the .record file. A restart of `plateau serve` mid-game ends the table with no
result and the reason stated; a CPU seat of the legacy server is a CPU seat of the table, and a
player who leaves ends the table with no result.
Usage: biloba_legacy_live_test.py PLATEAU_BINARY"""
import glob
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

from plateau_harness import Server, answer, biloba_client, finish, record_moves, run_tests

PLATEAU = sys.argv[1]
BILOBA = os.path.join(os.path.dirname(PLATEAU), "biloba")
LEFT = "a player left the biloba 0.9.3 game"
RESTARTED = "the server restarted during the biloba 0.9.3 game"


def start_game(server, name, delay_ms):
    """Two clients (greedy "Ann, A." creates, random "Bob" joins) playing game `name`."""
    outs = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    creator = biloba_client(PLATEAU, server.biloba_port, outs[0], "greedy", "--create", name,
                            "--name", "Ann, A.", "--seed", "1", delay_ms=delay_ms)
    deadline = time.time() + 30
    while True:
        listing = subprocess.run([BILOBA, "127.0.0.1", "--port", str(server.biloba_port), "--list"],
                                 stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
        if name in listing.stdout.decode(errors="replace"):
            break
        assert time.time() < deadline, f"game {name!r} never listed"
        time.sleep(0.1)
    joiner = biloba_client(PLATEAU, server.biloba_port, outs[1], "random", "--join", "1",
                           "--name", "Bob", "--seed", "2", delay_ms=delay_ms)
    return [creator, joiner], outs


def biloba_table(server, status, timeout=30):
    """The first biloba table of /api/tables with `status`."""
    deadline = time.time() + timeout
    while True:
        code, body = server.http_get("/api/tables")
        assert code == 200, (code, body)
        tables = [t for t in json.loads(body) if t["game"] == "biloba" and t["status"] == status]
        if tables:
            return tables[0]
        assert time.time() < deadline, f"no {status} biloba table in /api/tables: {body}"
        time.sleep(0.05)


def message(payload):
    return bytes([len(payload)]) + payload


def talk(port, game_id, seat, text):
    """A talk-mode connection (specs/biloba.md §11.5) of `seat` that says `text`."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(message(b"TALK_MODE\0") + message(struct.pack(">i", game_id)) +
              message(struct.pack(">i", seat)))
    assert s.recv(4) == b"\x03OK\0"
    s.sendall(message(text.encode("latin-1") + b"\0"))
    return s


def test_live_table_watched_chat_and_record():
    server = Server(PLATEAU).start()
    procs = []
    try:
        procs, outs = start_game(server, "live game", 60)
        t = biloba_table(server, "playing")
        board = t["board"]
        assert [s["name"] for s in t["seats"]] == ["Ann A.", "Bob"], t
        assert [s["kind"] for s in t["seats"]] == ["legacy", "legacy"], t

        carol = server.text("carol", "password1", register=True)
        listed = answer(carol, "tables")
        assert re.search(rf"^biloba {board} playing ply \d+: Ann A\., Bob", listed, re.M), listed
        # Nobody but the legacy game moves its seats.
        refused = answer(carol, f"biloba move {board} e6-e5")
        assert refused.startswith("error: "), refused

        watched = answer(carol, f"watch {board}")
        assert "Biloba Board" in watched, watched
        # Chat both ways: a talk-mode line of seat 1 shows at the table under Bob's name...
        chat = talk(server.biloba_port, 1, 1, "hello from the wire")
        carol.expect(rf"^\[biloba {board}\] Bob: hello from the wire$", 20)
        chat.close()
        # ... and a line said at the table reaches the biloba clients.
        answer(carol, "say hello from carol")

        seen = []
        while True:
            i, m = carol.expect_any([rf"^biloba {board}: (\d+)\. \S+ .* (\S+)\n",
                                     rf"^biloba {board}: Game (won|was|ended).*$"], 120)
            if i == 1:
                break
            seen.append((int(m.group(1)), m.group(2)))
        # Every turn from the first one heard, in order, none missing.
        assert seen, "no turn was seen live"
        first = seen[0][0] - 1
        assert [p for p, _ in seen] == list(range(first + 1, first + 1 + len(seen))), seen

        rc0, text0 = finish(procs[0], outs[0], 60)
        rc1, text1 = finish(procs[1], outs[1], 60)
        assert rc0 == 0 and rc1 == 0, (text0, text1, server.read_log())
        for text in (text0, text1):
            assert "carol: hello from carol" in text, text
        t = biloba_table(server, "over")
        assert t["board"] == board and t["ply"] == first + len(seen), (t, first, seen)

        status, record = server.http_get(f"/records/biloba/{board}")
        assert status == 200, (status, record)
        files = glob.glob(os.path.join(server.data_dir, "data", "biloba", "*.record"))
        assert len(files) == 1, files
        with open(files[0]) as f:
            dumped = f.read()
        moves = record_moves(record)
        assert moves == record_moves(dumped), (record, dumped)
        played = [tok.split(":", 1)[-1] for tok in moves]  # "O:e6-e5": seat letter, move
        assert [mv for _, mv in seen] == played[first:first + len(seen)], (seen, played)
        assert server.stop() == 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        server.stop()


def test_restart_mid_game_ends_the_table():
    server = Server(PLATEAU).start()
    procs = []
    try:
        procs, outs = start_game(server, "cut game", 400)
        deadline = time.time() + 30
        while True:
            t = biloba_table(server, "playing")
            if t["ply"] >= 2:
                break
            assert time.time() < deadline, t
            time.sleep(0.1)
        assert server.stop() == 0
        for p in procs:
            p.wait(30)
        server.start()
        t = biloba_table(server, "over", 20)
        assert t["ply"] >= 2, t
        carol = server.text("carol", "password1", register=True)
        shown = answer(carol, f"biloba show {t['board']}")
        assert f"Game ended without a result ({RESTARTED})." in shown, shown
        status, record = server.http_get(f"/records/biloba/{t['board']}")
        assert f'[Termination "{RESTARTED}"]' in record, record
        assert server.stop() == 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        server.stop()


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        assert chunk, data
        data += chunk
    return data


def test_cpu_seat_and_a_player_who_leaves():
    """A creator (the original protocol, by hand) declares seat 1 as AI: the table shows it as
    a CPU seat; the creator leaves before any turn: the table ends with no result."""
    server = Server(PLATEAU).start()
    try:
        s = socket.create_connection(("127.0.0.1", server.biloba_port), timeout=10)
        s.sendall(message(b"NEWGAME\0"))
        assert read_exactly(s, 4) == b"\x03OK\0"
        s.sendall(message(b"cpu game\0"))
        assert read_exactly(s, 5) == b"\x04\0\0\0\x01"
        s.sendall(message(bytes([2, 0]) + b"Ann\0" + bytes([2]) + b"CPU\0"))
        assert read_exactly(s, 7) == b"\x06READY\0"
        s.sendall(message(b"READY?\0"))
        read_exactly(s, 10)  # missing 0, last joined 0, then the names
        t = biloba_table(server, "playing")
        assert [(x["kind"], x["name"]) for x in t["seats"]] == [("legacy", "Ann"),
                                                                 ("cpu", "classic")], t
        s.close()
        t = biloba_table(server, "over")
        assert t["ply"] == 0, t
        carol = server.text("carol", "password1", register=True)
        shown = answer(carol, f"biloba show {t['board']}")
        assert f"Game ended without a result ({LEFT})." in shown, shown
        assert server.stop() == 0
    finally:
        server.stop()


if __name__ == "__main__":
    run_tests([test_live_table_watched_chat_and_record, test_restart_mid_game_ends_the_table,
               test_cpu_seat_and_a_player_who_leaves])
