#!/usr/bin/env python3
"""`plateau serve --store postgresql://...` on a real PostgreSQL cluster of its own (issue 16,
item 1): a game survives SIGKILL and restart; `plateau store copy` moves the database to SQLite
and back with exact counts; hostile texts (quotes, backslashes, SQL, NUL bytes, long UTF-8)
are stored unchanged or refused cleanly; the database going down under a running server fails
the moves made meanwhile, and play goes on once it is back.
Usage: postgres_store_test.py PLATEAU_BINARY"""
import os
import sqlite3
import subprocess
import sys
import tempfile

from pg_cluster import PgCluster
from plateau_harness import Server, play_to_end, record_moves, run_tests

BINARY = sys.argv[1]
TABLES = ["accounts", "ratings", "counters", "tables", "moves", "chat", "table_events",
          "resume_tokens", "mail_outbox", "vacations", "mail_seen", "nodes"]
# The names `store copy` reports, table by table.
REPORTED = dict(zip(TABLES, ["accounts", "ratings", "counters", "tables", "moves", "chat",
                             "events", "tokens", "mail", "vacations", "mail_seen", "nodes"]))


def label(player):
    return "A:" if player == "alice" else "B:"


def pg_counts(pg, url):
    return {t: int(pg.sql(url, f"SELECT count(*) FROM {t}")[0][0]) for t in TABLES}


def sqlite_counts(path):
    with sqlite3.connect(path) as db:
        return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def store_copy(source, target):
    return subprocess.run([BINARY, "store", "copy", "--from", source, "--to", target],
                          capture_output=True, text=True, timeout=60)


def reported_rows(out):
    line = next(l for l in out.splitlines() if l.startswith("rows: "))
    fields = dict(f.split("=") for f in line[len("rows: "):].split())
    return {t: int(fields[REPORTED[t]]) for t in TABLES}


def test_game_survives_sigkill(pg):
    server = Server(BINARY, extra=["--store", pg.url, "--rate", "1000"]).start()
    try:
        assert "store: postgresql://plateau:***@127.0.0.1:" in server.read_log()
        assert pg.url.split("@")[0].split(":")[-1] not in server.read_log()  # the password
        alice = server.text("alice", "pw-alice", register=True)
        bob = server.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        alice.send("chat 101 before the crash")
        bob.expect(r"^\[bohnduell 101\] alice: before the crash$")
        played, final = play_to_end({"alice": alice, "bob": bob}, 101, "alice")
        # Every move was acknowledged, so every move is stored: kill without a goodbye.
        server.kill()
        server.start()
        status, record = server.http_get("/records/bohnduell/101")
        assert status == 200, (status, record)
        assert record_moves(record) == [label(p) + t for p, t in played], (record, played)
        assert int(pg.sql(pg.url, "SELECT count(*) FROM moves")[0][0]) == len(played)
        alice = server.text("alice", "pw-alice")
        alice.send("/info 101")
        alice.expect(r"^bohnduell 101 \(over\)")
        assert server.stop() == 0
    finally:
        server.stop()


def test_store_copy_both_ways(pg):
    source = pg_counts(pg, pg.url)
    assert source["moves"] > 0 and source["accounts"] == 2 and source["tables"] == 1, source
    with tempfile.TemporaryDirectory(prefix="plateau-copy-") as tmp:
        db = os.path.join(tmp, "plateau.db")
        run = store_copy(pg.url, "sqlite:" + db)
        assert run.returncode == 0, run.stderr
        assert pg.url.split("@")[0].split(":")[-1] not in run.stdout + run.stderr
        assert reported_rows(run.stdout) == source, (run.stdout, source)
        assert "verified: every row equal; games replayed=1 (tables in set-up=0)" in run.stdout
        assert sqlite_counts(db) == source

        # Into a store that is not empty: refused, nothing written.
        again = store_copy(pg.url, "sqlite:" + db)
        assert again.returncode == 2, again
        assert "is not empty (2 accounts, 1 tables" in again.stderr, again.stderr
        assert sqlite_counts(db) == source

        # And back, into a new PostgreSQL database: the same rows again.
        back_url = pg.new_database("copy_back")
        run = store_copy("sqlite:" + db, back_url)
        assert run.returncode == 0, run.stderr
        assert reported_rows(run.stdout) == source, run.stdout
        assert pg_counts(pg, back_url) == source
        for query in ["SELECT table_id, ply, move, seat, automatic, at_ms FROM moves ORDER BY 1, 2",
                      "SELECT table_id, at_ms, \"user\", text FROM chat ORDER BY seq",
                      "SELECT id, game, number, data, created_ms FROM tables ORDER BY id",
                      "SELECT name, password_hash FROM accounts ORDER BY name"]:
            assert pg.sql(back_url, query) == pg.sql(pg.url, query), query

        # A server on the copy has the game.
        server = Server(BINARY, extra=["--store", back_url]).start()
        try:
            status, record = server.http_get("/records/bohnduell/101")
            assert status == 200, record
            stored = [r[0] for r in pg.sql(pg.url, "SELECT move FROM moves ORDER BY ply")]
            assert [m.split(":")[1] for m in record_moves(record)] == stored, (record, stored)
            assert server.stop() == 0
        finally:
            server.stop()
    bad = store_copy("mysql://x", "sqlite:/tmp/x.db")
    assert bad.returncode == 2 and "neither sqlite:PATH nor postgresql://" in bad.stderr, bad


def game_on_new_database(pg, name):
    """A server on the new database `name` where alice challenged bob (board 101): returns the
    database's URL, the server and the two text clients."""
    url = pg.new_database(name)
    server = Server(BINARY, extra=["--store", url, "--rate", "1000"]).start()
    alice = server.text("alice", "pw-alice", register=True)
    bob = server.text("bob", "pw-bobby", register=True)
    alice.send("bohnduell challenge alice bob")
    alice.expect(r"^New BohnDuell Board 101$")
    return url, server, alice, bob


def test_hostile_texts(pg):
    url, server, alice, bob = game_on_new_database(pg, "hostile")
    try:
        texts = [
            "it's \"quoted\" and back\\slashed \\' \\\\",
            "'); DROP TABLE moves; --",
            "$1 $2 %s %n {} \\x00 \\u0000 E'\\n'",
            "é♟日本語🎲" * 55,  # 990 bytes of UTF-8: the longest chat line is 1000 bytes
        ]
        for t in texts:
            alice.send("chat 101 " + t)
            m = bob.expect(r"^\[bohnduell 101\] alice: (.*)$")
            assert m.group(1) == t, (m.group(1), t)
        alice.send("chat 101 " + "é♟日本語🎲" * 56)  # 1008 bytes
        alice.expect(r"^error: chat line too long \(at most 1000 bytes\)$")
        stored = [r[0] for r in pg.sql(url, "SELECT text FROM chat ORDER BY seq")]
        assert stored == texts, stored
        # A NUL byte, raw or escaped in a WebSocket command, never reaches the store.
        alice.send_raw(b"chat 101 nul\x00byte\n")
        alice.expect(r"^error: control character 0 in the line$")
        ws = server.ws()
        ws.command("login bob pw-bobby")
        replies, _ = ws.command("chat 101 nul\u0000byte")
        assert any("control character 0" in str(e) for e in replies), replies
        # Names with quotes, backslashes, long UTF-8 or a NUL byte are refused at the edge; the
        # accounts are as they were.
        stranger = server.text()
        for name in ["o'brien", "a\\b", '"bob"', "é" * 300]:
            stranger.send(f"register {name} password-long")
            stranger.expect(r"^error: bad user name '.*': 2-20 letters, digits, '_' or '-', "
                            r"starting with a letter$")
        stranger.send_raw(b"register a\x00b password-long\n")
        stranger.expect(r"^error: control character 0 in the line$")
        assert pg.sql(url, "SELECT name FROM accounts ORDER BY name") == [["alice"], ["bob"]]
        assert [r[0] for r in pg.sql(url, "SELECT text FROM chat ORDER BY seq")] == texts
        assert server.stop() == 0
        # And they read back unchanged after a restart (the server's own chat history).
        server.start()
        assert [r[0] for r in pg.sql(url, "SELECT text FROM chat ORDER BY seq")] == texts
        assert server.stop() == 0
    finally:
        server.stop()


def test_database_outage(pg):
    """PostgreSQL stops under a running server: a move is refused (nobody is told of a move
    that is not stored), the server goes on, and once the database is back the move is played."""
    url, server, alice, bob = game_on_new_database(pg, "outage")
    try:
        alice.send("move 101 S4#1")
        alice.expect(r"^bohnduell 101: 1\. A alice S4$")
        pg.pause()
        try:
            bob.send("move 101 S4#2")
            # The player hears a fixed reason: the database's address and libpq's message
            # are for the operator's log only (one line there, the password hidden).
            bob.expect(r"^error: the move could not be saved \(the database cannot be "
                       r"reached\); it was not played$")
            log = server.read_log()
            assert "store write failed: cannot connect to PostgreSQL at postgresql://plateau:***@" \
                   "127.0.0.1:" in log, log
            assert "Connection refused Is the server running on that host and accepting TCP/IP " \
                   "connections?; back to the last saved state" in log, log
            assert "alice: S4" not in alice.pending()
        finally:
            pg.resume()
        bob.send("move 101 S4#2")
        bob.expect(r"^bohnduell 101: 2\. B bob S4$")
        assert pg.sql(url, "SELECT ply, move FROM moves ORDER BY ply") == [["1", "S4"], ["2", "S4"]]
        assert server.alive() and server.stop() == 0
    finally:
        server.stop()


def test_bad_store_url_is_refused_at_start():
    for url, why in [("mysql://u@h/d", "neither sqlite:PATH nor postgresql://"),
                     ("sqlite:", "sqlite: needs a file path")]:
        run = subprocess.run([BINARY, "serve", "--store", url], capture_output=True, text=True,
                             timeout=20)
        assert run.returncode == 2 and why in run.stderr, (url, run.returncode, run.stderr)
    # A server that cannot be reached: a clear line, the password hidden, no start.
    run = subprocess.run([BINARY, "serve", "--store", "postgresql://u:hunter2@127.0.0.1:1/d"],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode != 0, run
    assert "cannot connect to PostgreSQL at postgresql://u:***@127.0.0.1:1/d" in run.stderr, \
        run.stderr
    assert "hunter2" not in run.stdout + run.stderr


if __name__ == "__main__":
    with PgCluster() as cluster:
        def on_cluster(test):
            def run():
                test(cluster)
            run.__name__ = test.__name__
            return run
        run_tests([on_cluster(test_game_survives_sigkill), on_cluster(test_store_copy_both_ways),
                   on_cluster(test_hostile_texts), on_cluster(test_database_outage),
                   test_bad_store_url_is_refused_at_start])
