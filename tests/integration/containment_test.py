#!/usr/bin/env python3
"""No single table takes the server down, and restarts are fair (issue 12, items 3 and 9):

- a full disk (a small tmpfs holding the data directory) makes a move fail with a clear error and
  leaves the table as it was; once there is room again the table plays on, and after a restart
  the record has exactly the acknowledged moves;
- a stored table that cannot be replayed (a move corrupted in the database) is skipped at
  start-up instead of keeping the server from starting: the other tables play on, /healthz
  stays "ok", /healthz/detail names the bad table, its rows stay in the store and its number is
  not reused;
- a clock is not charged for the time the server was down.

The disk-full test mounts a tmpfs, which needs root (CI runs as root); without it the script
exits 77 (ctest: skipped) after running the other tests.
Usage: containment_test.py PLATEAU_BINARY"""
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

from plateau_harness import Server, record_moves, run_tests

BINARY = sys.argv[1]
SKIPPED = []


def board_clients(server):
    alice = server.text("alice", "pw-alice-1", register=True)
    bob = server.text("bob", "pw-bob-12", register=True)
    return alice, bob


def move(client, board, token, ply, player):
    client.send(f"move {board} {token}#{ply}")
    client.expect(rf"^bohnduell {board}: {ply}\. \S+ {player} {token}$")


def test_disk_full():
    mount_point = tempfile.mkdtemp(prefix="plateau-full-")
    # 3 MiB: room for the database, its WAL and the log; a filler file takes the rest.
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount_point],
                       capture_output=True, text=True)
    if r.returncode != 0:
        os.rmdir(mount_point)
        SKIPPED.append("test_disk_full: cannot mount a tmpfs (" + r.stderr.strip() + ")")
        print("skipped: " + SKIPPED[-1], flush=True)
        return
    # The server's data directory is on the tmpfs; its log is not (it must survive the full disk).
    server = Server(BINARY)
    os.symlink(mount_point, os.path.join(server.data_dir, "data"))
    filler = os.path.join(mount_point, "filler")
    try:
        server.start()
        alice, bob = board_clients(server)
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        move(alice, 101, "S4", 1, "alice")
        move(bob, 101, "S4", 2, "bob")

        # Fill the disk to the last byte.
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        for chunk in (65536, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * chunk)
            except OSError:
                pass
        os.close(fd)
        alice.send("move 101 S3#3")
        alice.expect(r"^error: the move could not be saved \(the server's disk is full\); "
                     r"it was not played$")
        bob.expect(r"^error: bohnduell 101: the move could not be saved "
                   r"\(the server's disk is full\); it was not played$")
        # A chat line cannot be saved either, and says so.
        bob.send("/table 101")
        bob.expect(r"^You are at bohnduell 101\.")
        bob.send("/say hello")
        bob.expect(r"^error: the command could not be saved \(the server's disk is full\); "
                   r"nothing changed$")
        # A new board cannot be saved: it is not opened (and is not listed).
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^error: table bohnduell 102 could not be saved "
                     r"\(the server's disk is full\); it was not opened$")
        alice.send("show 102")
        alice.expect(r"^error: .*102")
        assert '"board":102' not in server.http_get("/api/tables")[1]
        # The table is as it was: still ply 2, alice to move; the server still answers.
        alice.send("show 101")
        alice.expect(r"^It is alice's turn\.$")
        assert server.http_get("/healthz") == (200, "ok\n")
        status, record = server.http_get("/records/bohnduell/101")
        assert record_moves(record) == ["A:S4", "B:S4"], record

        # Room again: the same move is played, and the game goes on.
        os.remove(filler)
        move(alice, 101, "S3", 3, "alice")
        move(bob, 101, "S3", 4, "bob")
        bob.send("/say back")
        alice.expect(r"^\[bohnduell 101\] bob: back$")
        acknowledged = ["A:S4", "B:S4", "A:S3", "B:S3"]
        server.kill()
        server.start()
        status, record = server.http_get("/records/bohnduell/101")
        assert status == 200, (status, record)
        assert record_moves(record) == acknowledged, (record, acknowledged)
        assert server.stop() == 0
        log = server.read_log()
        assert "store write failed: database or disk is full" in log, log[-3000:]
    finally:
        if server.proc and server.alive():
            server.kill()
        subprocess.run(["umount", "-l", mount_point])
        os.rmdir(mount_point)


def test_bad_table_is_skipped():
    server = Server(BINARY).start()
    try:
        alice, bob = board_clients(server)
        for board in (101, 102):
            alice.send("bohnduell challenge -supply=8 alice bob")
            alice.expect(rf"^New BohnDuell Board {board}$")
            move(alice, board, "S4", 1, "alice")
            move(bob, board, "S4", 2, "bob")
        assert server.stop() == 0

        db = os.path.join(server.data_dir, "data", "plateau.db")
        con = sqlite3.connect(db)
        (bad_id,) = con.execute("SELECT id FROM tables WHERE game='bohnduell' AND number=101").fetchone()
        con.execute("UPDATE moves SET move='Q9' WHERE table_id=? AND ply=2", (bad_id,))
        con.commit()
        rows_before = (con.execute("SELECT * FROM tables WHERE id=?", (bad_id,)).fetchall(),
                       con.execute("SELECT * FROM moves WHERE table_id=? ORDER BY ply",
                                   (bad_id,)).fetchall())
        con.close()

        server.start()
        assert server.http_get("/healthz") == (200, "ok\n")
        status, body = server.http_get("/healthz/detail")
        assert status == 200, (status, body)
        import json
        detail = json.loads(body)
        assert detail["status"] == "degraded", detail
        assert len(detail["skipped_tables"]) == 1, detail
        skipped = detail["skipped_tables"][0]
        assert (skipped["game"], skipped["number"], skipped["id"]) == ("bohnduell", 101, bad_id), skipped
        assert skipped["error"].startswith("cannot restore table bohnduell 101: "), skipped
        assert "Q9" in skipped["error"], skipped
        assert "table bohnduell 101 (id %d) skipped: cannot restore table" % bad_id in server.read_log()

        alice, bob = server.text("alice", "pw-alice-1"), server.text("bob", "pw-bob-12")
        # The other table plays on; the bad one is not there; a new board does not take its number.
        move(alice, 102, "S3", 3, "alice")
        alice.send("show 101")
        alice.expect(r"^error: .*101")
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 103$")
        assert server.stop() == 0

        con = sqlite3.connect(db)
        rows_after = (con.execute("SELECT * FROM tables WHERE id=?", (bad_id,)).fetchall(),
                      con.execute("SELECT * FROM moves WHERE table_id=? ORDER BY ply",
                                  (bad_id,)).fetchall())
        con.close()
        assert rows_after == rows_before, (rows_before, rows_after)
        # A healthy store reports "ok" in the detail too.
        other = Server(BINARY).start()
        try:
            assert json.loads(other.http_get("/healthz/detail")[1]) == {"status": "ok",
                                                                       "skipped_tables": []}
        finally:
            other.stop()
    finally:
        if server.proc and server.alive():
            server.kill()


def test_clock_is_not_charged_for_downtime():
    server = Server(BINARY).start()
    try:
        alice, bob = board_clients(server)
        alice.send("bohnduell challenge -supply=8 -clock=move:5 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        sent = time.time()
        move(alice, 101, "S4", 1, "alice")
        # bob's 5 s run from now; the server dies at once and stays down for 7 s.
        server.kill()
        killed = time.time()
        time.sleep(7)
        restarted = time.time()
        server.start()
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        replies, _ = ws.command("show 101")
        shown = time.time()
        board = [e for e in replies if e["type"] == "board"][-1]
        assert board["status"] == "playing", board
        clocks = {c["user"]: c for c in board["clocks"]}
        assert clocks["bob"]["running"], clocks
        # bob is charged only for the time the server was up during his turn: before the kill,
        # and from the restart to the `show` (on a loaded machine that can be a second or two).
        charged_ms = (killed - sent + shown - restarted) * 1000
        assert 5000 - charged_ms - 200 <= clocks["bob"]["left_ms"] <= 5000, (clocks, charged_ms)
        m = re.search(r"^server writes:\nServer was down for (\d+) s; clocks were stopped\.$",
                      board["page"], re.M)
        assert m, board["page"]
        assert 7 <= int(m.group(1)) <= 9, m.group(0)
        # Nobody lost on time: bob moves.
        bob = server.text("bob", "pw-bob-12")
        move(bob, 101, "S4", 2, "bob")
        assert server.stop() == 0
    finally:
        if server.proc and server.alive():
            server.kill()


if __name__ == "__main__":
    run_tests([test_bad_table_is_skipped, test_clock_is_not_charged_for_downtime, test_disk_full])
    if SKIPPED:
        print("\n".join("SKIPPED " + s for s in SKIPPED), flush=True)
        sys.exit(77)
