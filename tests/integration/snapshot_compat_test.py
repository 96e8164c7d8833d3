#!/usr/bin/env python3
"""The versioned table snapshot (issue 13, item 4): a store written by the server before the
snapshot had a version (tests/data/server/v1_store, made by make_v1_store.py with main at
63ee6fd) opens with today's binary, and every table replays identically: the same pages, /info
lines and record as the old server showed. A table changed afterwards is written in the current
version and still opens after a restart.
Usage: snapshot_compat_test.py PLATEAU_BINARY DATA_DIR"""
import json
import os
import re
import shutil
import sqlite3
import sys

from plateau_harness import Server, answer, run_tests

BINARY, DATA = sys.argv[1], sys.argv[2]
FIXTURE = os.path.join(DATA, "server", "v1_store")
# What make_v1_store.py asked, in its order.
SHOW = ["bohnduell show 101", "phutball show 101", "biloba show 101", "bohnduell show 102",
        "phutball show 102", "bohnduell show 101#2", "/table bohnduell 101", "/info",
        "/table phutball 101", "/info", "/table biloba 101", "/info", "/table bohnduell 102",
        "/info", "/table phutball 102"]
# Opening a copy days after it was written: the clocked table says so in its chat (and on its
# page), as any restart after a downtime does; the old server, restarted at once, did not.
DOWNTIME = re.compile(
    r"\n\*{72}\nserver writes:\nServer was down for \d+ s; clocks were stopped\.\n")


def snapshot_versions(db):
    with sqlite3.connect(db) as c:
        return {f"{g} {n}": json.loads(d).get("v", 1)
                for g, n, d in c.execute("SELECT game, number, data FROM tables")}


def test_old_store_replays_identically():
    server = Server(BINARY, extra=["--rate", "1000"])
    os.makedirs(os.path.join(server.data_dir, "data"))
    db = os.path.join(server.data_dir, "data", "plateau.db")
    shutil.copy(os.path.join(FIXTURE, "plateau.db"), db)
    assert set(snapshot_versions(db).values()) == {1}
    server.start()
    try:
        alice = server.text("alice", "pw-alice-1")
        shown = "".join(f">>> {line}\n" + answer(alice, line) for line in SHOW)
        with open(os.path.join(FIXTURE, "shown.txt")) as f:
            expected = f.read()
        assert DOWNTIME.search(shown), shown[:2000]
        shown = DOWNTIME.sub("\n", shown).replace("\n\n>>>", "\n>>>")
        # Issue 14 (snapshot v3): the Biloba game started before the no-progress rule keeps the
        # original's endless rules, and /info lists the new option.
        expected_info = "biloba 101 (playing): players=2, no_legal_move=pass, turn_cap=0;"
        assert expected_info.replace(";", ", no_progress=0;") in shown, shown
        shown = shown.replace(expected_info.replace(";", ", no_progress=0;"), expected_info)
        if shown != expected:
            import difflib
            raise AssertionError("".join(difflib.unified_diff(
                expected.splitlines(True), shown.splitlines(True), "old server", "today")))
        status, record = server.http_get("/records/bohnduell/101")
        with open(os.path.join(FIXTURE, "bohnduell_101.txt")) as f:
            assert (status, record) == (200, f.read()), record
        # The pending draw offer, the undo request and the queued move still work.
        bob = server.text("bob", "pw-bobby-1")
        bob.send("phutball accept 101")
        bob.expect(r"^phutball 101: Game was a tie\. \(1/2-1/2, agreement\)$")
        alice.send("bohnduell move 101 S3#3")
        alice.expect(r"^bohnduell 101: 3\. A alice S3$")
        alice.expect(r"^bohnduell 101: 4\. B bob S3 \(Auto\)$")
        assert server.stop() == 0
        versions = snapshot_versions(db)
        assert versions["phutball 101"] == 3 and versions["bohnduell 101"] == 3, versions
        server.start()
        alice = server.text("alice", "pw-alice-1")
        out = answer(alice, "bohnduell show 101")
        assert "  1 S4                 2 S4\n  3 S3                 4 S3 (Auto)\n" in out, out
        assert answer(alice, "/table phutball 101") == \
            "You are at phutball 101. Game was a tie.\n"
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


if __name__ == "__main__":
    run_tests([test_old_store_replays_identically])
