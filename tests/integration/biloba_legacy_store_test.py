#!/usr/bin/env python3
"""A biloba 0.9.3 network game on the server's port 8000 (two `biloba` clients whose seats are
played by Plateau bots, greedy against random so that the game ends soon) is kept in the store as a finished table: listed in /api/tables,
its record downloadable from /records/biloba/N with the same turns as the .record file written
beside the .blb dump, and still there after a restart (issue 8: legacy games are stored like
any other game).
Usage: biloba_legacy_store_test.py PLATEAU_BINARY"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

from plateau_harness import Server, biloba_client, finish, record_moves, run_tests

PLATEAU = sys.argv[1]
BILOBA = os.path.join(os.path.dirname(PLATEAU), "biloba")


def client(port, out, level, *args):
    """A `biloba` client whose seat bot `level` plays; its output goes to the file `out`."""
    return biloba_client(PLATEAU, port, out, level, *args)


def wait_listed(port, name, timeout=30):
    """Waits until the game `name` is open for joining (the creator may still be connecting)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        listing = subprocess.run([BILOBA, "127.0.0.1", "--port", str(port), "--list"],
                                 stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
        if name in listing.stdout.decode(errors="replace"):
            return
        time.sleep(0.1)
    raise AssertionError(f"game {name!r} never listed")


def wait_for_table(server, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, body = server.http_get("/api/tables")
        assert status == 200, (status, body)
        tables = [t for t in json.loads(body) if t["game"] == "biloba"]
        if tables and tables[0]["status"] == "over":
            return tables
        time.sleep(0.1)
    raise AssertionError("no finished biloba table in /api/tables: " + body)


def test_network_game_is_stored():
    server = Server(PLATEAU).start()
    try:
        out_c = tempfile.TemporaryFile()
        out_j = tempfile.TemporaryFile()
        creator = client(server.biloba_port, out_c, "greedy", "--create", "stored game", "--name", "Ann, A.",
                         "--seed", "1")
        wait_listed(server.biloba_port, "stored game")
        joiner = client(server.biloba_port, out_j, "random", "--join", "1", "--name", "Bob", "--seed", "2")
        rc_j, joined = finish(joiner, out_j, 90)
        rc_c, text = finish(creator, out_c, 30)
        assert rc_j == 0 and rc_c == 0, ("creator", rc_c, text, "joiner", rc_j, joined,
                                         server.read_log())
        assert joined.splitlines()[-2:] == text.splitlines()[-2:], (joined, text)
        assert "Ann, A. wins !" in text or "Bob wins !" in text, text

        tables = wait_for_table(server)
        assert len(tables) == 1, tables
        t = tables[0]
        # The lobby's names: a comma would split the record's Seats tag (lobby_names.h).
        assert [s["name"] for s in t["seats"]] == ["Ann A.", "Bob"], t
        assert [s["kind"] for s in t["seats"]] == ["legacy", "legacy"], t
        assert t["ply"] > 10, t

        status, record = server.http_get(f"/records/biloba/{t['board']}")
        assert status == 200, (status, record)
        assert '[Seats "Ann A.,Bob"]' in record, record
        files = glob.glob(os.path.join(server.data_dir, "data", "biloba", "*.record"))
        assert len(files) == 1, files
        with open(files[0]) as f:
            dumped = f.read()
        assert record_moves(record) == record_moves(dumped), (record, dumped)
        assert len(record_moves(record)) > 0
        assert server.stop() == 0

        server.start()
        status, again = server.http_get(f"/records/biloba/{t['board']}")
        assert status == 200, (status, again)
        assert again == record, (again, record)
        assert server.stop() == 0
    finally:
        server.stop()


if __name__ == "__main__":
    run_tests([test_network_game_is_stored])
