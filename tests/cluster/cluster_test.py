#!/usr/bin/env python3
"""Several `plateau serve` nodes on one PostgreSQL database (issue 16, items 2, 4 and 5;
docs/CLUSTER.md), on a cluster of the test's own (tests/integration/pg_cluster.py):
  kill      three nodes; SIGKILL the owner of three tables mid-game: another node takes them
            over (owner and epoch + 1 in the database), every acknowledged move is stored at
            its ply, no ply or event seq is skipped or doubled, a spectator that resyncs on the
            new owner has heard every stored event once, the players resume there (a move
            re-sent with its #n is acknowledged once), the games go on (a CPU seat answers, a
            clock is given back the downtime) and every game replays legally (`plateau store
            copy` replays each one);
  freeze    SIGSTOP the owner: it is taken over; after SIGCONT it registers again, its next
            write of the table (its recheck) is refused (fenced) and it drops the table,
            telling its players to connect again; what they say there then goes to the new
            owner over the node link;
  pgrestart `pg_ctl stop -m immediate`, then start: moves made meanwhile are refused, nothing
            acknowledged is lost, the nodes reconnect by themselves and nobody takes over;
            guest names never repeat across nodes; a node stopped with SIGTERM is taken over
            at once;
  options   the node options are refused with a clear message on SQLite or when malformed.
Usage: cluster_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when the
PostgreSQL server binaries are missing and this is not root."""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import (  # noqa: E402,F401 (wait_for: for the tests that import it from here)
    TOKENS, Server, free_port, freeze, record_moves, wait_for)

BINARY = sys.argv[1]
FENCED = r"^error: bohnduell {board} is served by another node now: connect again and resync$"


SECRET_DIR = tempfile.TemporaryDirectory(prefix="plateau-cluster-secret-")


def secret_file(content=b"0123456789abcdef0123456789abcdef-test", mode=0o600, name="secret"):
    """A cluster secret file (the node link's, --cluster-secret-file)."""
    path = os.path.join(SECRET_DIR.name, name)
    with open(path, "wb") as f:
        f.write(content)
    os.chmod(path, mode)
    return path


def node(pg, name, extra=(), node_port=None):
    port = free_port()
    return Server(BINARY, extra=["--store", pg.url, "--node-id", name, "--node-address",
                                 f"127.0.0.1:{port}", "--node-port", str(node_port or free_port()),
                                 "--cluster-secret-file", secret_file(),
                                 "--rate", "1000", "--max-tables-per-user", "200"] + list(extra))


def owners(pg):
    """table number -> (owner, epoch)"""
    rows = pg.sql(pg.url, "SELECT number, owner, epoch FROM tables ORDER BY number")
    return {int(n): (o, int(e)) for n, o, e in rows}


def move(client, board, player, ply, acked):
    """Plays one legal move of `player` at `ply` (TOKENS in order); records it in `acked`
    (board -> [(ply, move)]) once the server acknowledged it."""
    for tok in TOKENS:
        client.send(f"move {board} {tok}#{ply}")
        i, m = client.expect_any([r"^error: (.*)$",
                                  rf"^bohnduell {board}: {ply}\. \S+ {player} (\S+)$"])
        if i == 0:
            assert "illegal move" in m.group(1), m.group(1)
            continue
        acked.setdefault(board, []).append((ply, tok))
        return tok
    raise AssertionError(f"no legal move for {player} on {board} at ply {ply}")


def cpu_answer(client, board, ply, acked):
    m = client.expect(rf"^bohnduell {board}: {ply}\. \S+ cpu:1 (\S+) \(Auto\)$", timeout=30)
    acked.setdefault(board, []).append((ply, m.group(1)))


def table_events(events, board, seen):
    """Appends the seqs of `events` that are table events of bohnduell `board` to `seen`."""
    for e in events:
        if e.get("type") != "resync" and e.get("board") == board and "seq" in e:
            seen.append(e["seq"])


def check_history(pg, acked):
    """Every acknowledged move is stored at its ply; plies and event seqs run 1, 2, 3, ...
    without a gap or a double (the primary keys forbid doubles)."""
    for board, moves in acked.items():
        stored = pg.sql(pg.url, "SELECT m.ply, m.move FROM moves m JOIN tables t ON t.id = "
                                f"m.table_id WHERE t.number = {board} ORDER BY m.ply")
        stored = [(int(p), mv) for p, mv in stored]
        assert [p for p, _ in stored] == list(range(1, len(stored) + 1)), (board, stored)
        for ply, mv in moves:
            assert (ply, mv) in stored, (board, ply, mv, stored)
        seqs = pg.sql(pg.url, "SELECT e.seq FROM table_events e JOIN tables t ON t.id = "
                              f"e.table_id WHERE t.number = {board} ORDER BY e.seq")
        seqs = [int(s[0]) for s in seqs]
        assert seqs == list(range(1, len(seqs) + 1)), (board, seqs)


def check_replays(pg):
    """`plateau store copy` replays every stored game through the rules (and checks the copy)."""
    with tempfile.TemporaryDirectory(prefix="plateau-cluster-copy-") as tmp:
        run = subprocess.run([BINARY, "store", "copy", "--from", pg.url, "--to",
                              "sqlite:" + os.path.join(tmp, "copy.db")],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        return run.stdout


def test_kill(pg):
    # Each table where its client is (its owner known), not on the least loaded node.
    here = ["--place-tables", "here"]
    a = node(pg, "a", here).start()
    b = node(pg, "b", here).start()
    c = node(pg, "c", here).start()
    nodes = {"a": a, "b": b, "c": c}
    try:
        # Registered on a after b and c started: they learn of them from the database.
        alice = a.text()
        alice.send("register alice pw-alice")
        token = alice.expect(r"^Resume token: (\S+)$").group(1)
        bob = a.text("bob", "pw-bobby", register=True)
        # A second process as node a is refused: a holds its lock.
        again = subprocess.run([BINARY, "serve", "--store", pg.url, "--node-id", "a",
                                "--node-address", "127.0.0.1:1", "--node-port", "2",
                                "--cluster-secret-file", secret_file(),
                                "--text-port", str(free_port()), "--http-port",
                                str(free_port()), "--biloba-port", "0"],
                               capture_output=True, text=True, timeout=30)
        assert again.returncode == 2, again
        assert again.stderr.endswith("plateau: another plateau serve runs as node a on this "
                                     "database (it holds the node's lock)\n"), again.stderr
        acked = {}
        alice.send("bohnduell challenge -supply=8 -clock=fischer:600+5 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        # A spectator on the browser's protocol counts the events of 101 it hears, by seq.
        seen = []
        watcher = a.ws()
        watcher.command("guest")
        table_events(sum(watcher.command("resync bohnduell 101 0"), []), 101, seen)
        for board in (102, 103):
            alice.send("bohnduell challenge -supply=8 alice cpu:1")
            alice.expect(rf"^New BohnDuell Board {board}$")
        # A table on c, which stays c's.
        carol = c.text("carol", "pw-carol", register=True)
        carol.send("bohnduell challenge -supply=8 carol cpu:1")
        carol.expect(r"^New BohnDuell Board 104$")
        move(carol, 104, "carol", 1, acked)
        cpu_answer(carol, 104, 2, acked)
        for ply in (1, 3):
            for board in (102, 103):
                move(alice, board, "alice", ply, acked)
                cpu_answer(alice, board, ply + 1, acked)
        move(alice, 101, "alice", 1, acked)
        move(bob, 101, "bob", 2, acked)
        third = move(alice, 101, "alice", 3, acked)
        assert owners(pg) == {101: ("a", 1), 102: ("a", 1), 103: ("a", 1), 104: ("c", 1)}, \
            owners(pg)
        # Killed right after a move on 102: its CPU seat answers on a, or on the new owner
        # after the takeover.
        move(alice, 102, "alice", 5, acked)
        table_events(watcher.command("ping")[1], 101, seen)
        killed = time.time()
        a.kill()
        heir = wait_for("another node to take a's tables over", lambda: (
            lambda o: o[101][0] if o[101][0] != "a" and all(
                o[t] == (o[101][0], 2) for t in (101, 102, 103)) else None)(owners(pg)), 20)
        new = nodes[heir]
        log = wait_for(f"node {heir}'s takeover line",
                       lambda: re.search(rf"node {heir}: took over 3 tables of node a \(unseen "
                                         r"for (\d+) ms\) in (\d+) ms", new.read_log()), 10)
        print(f"takeover: tables owned by {heir} {time.time() - killed:.2f} s after the kill; "
              f"claim, load and rebuild {log.group(2)} ms", flush=True)
        assert owners(pg)[104] == ("c", 1)
        assert new.http_get("/healthz/detail") == (
            200, '{"node":"%s","skipped_tables":[],"status":"ok"}\n' % heir)
        # The clock of 101 is given back the time nobody could move, and its chat says so.
        down = pg.sql(pg.url, "SELECT c.text FROM chat c JOIN tables t ON t.id = c.table_id "
                              "WHERE t.number = 101")
        assert len(down) == 1 and re.fullmatch(r"Server was down for [2-9] s; clocks were "
                                               r"stopped\.", down[0][0]), down
        assert pg.sql(pg.url, "SELECT id FROM nodes ORDER BY id") == [["b"], ["c"]]
        # The players come back on the new owner: alice resumes her session, bob logs in.
        alice = new.text()
        alice.send("resume " + token)
        alice.expect(r"^Welcome back, alice\.$")
        bob = new.text("bob", "pw-bobby")
        # Nor can anyone take alice's name there.
        mallory = new.text()
        mallory.send("register alice pw-mallory")
        mallory.expect(r"^error: the name alice is taken$")
        # The spectator comes back on the new owner and resyncs from the last seq it heard.
        watcher = new.ws()
        watcher.command("guest")
        table_events(sum(watcher.command(f"resync bohnduell 101 {max(seen)}"), []), 101, seen)
        # The replay of 101 from the start is the stored history, in order.
        alice.send("resync 101 0")
        for ply, mv in acked[101]:
            alice.expect(rf"^bohnduell 101: {ply}\. \S+ \S+ {mv}$")
        # A move re-sent with its #n (its answer lost with the dead node) is acknowledged once.
        alice.send(f"move 101 {third}#3")
        alice.expect(rf"^bohnduell 101: 3\. \S+ alice {third}$")
        move(bob, 101, "bob", 4, acked)
        move(alice, 101, "alice", 5, acked)
        wait_for("the CPU seat's answer on 102", lambda: pg.sql(
            pg.url, "SELECT count(*) FROM moves m JOIN tables t ON t.id = m.table_id "
                    "WHERE t.number = 102 AND m.ply = 6") == [["1"]], 30)
        move(alice, 102, "alice", 7, acked)
        cpu_answer(alice, 102, 8, acked)
        move(alice, 103, "alice", 5, acked)
        cpu_answer(alice, 103, 6, acked)
        move(carol, 104, "carol", 3, acked)
        cpu_answer(carol, 104, 4, acked)
        check_history(pg, acked)
        # Every event of 101 reached the spectator once, as stored (a live event may come before
        # a replayed one: the client orders them by seq, docs/PROTOCOL.md).
        table_events(watcher.command("ping")[1], 101, seen)
        stored = [int(r[0]) for r in pg.sql(pg.url, "SELECT e.seq FROM table_events e JOIN tables "
                                                    "t ON t.id = e.table_id WHERE t.number = 101 "
                                                    "ORDER BY e.seq")]
        assert sorted(seen) == stored and len(set(seen)) == len(seen), (seen, stored)
        status, record = new.http_get("/records/bohnduell/101")
        assert status == 200, (status, record)
        assert len(record_moves(record)) == 5, record
        out = check_replays(pg)
        assert "games replayed=4 " in out, out
        assert b.stop() == 0
        assert c.stop() == 0
    finally:
        for n in nodes.values():
            if n.proc and n.alive():
                n.kill()


def test_freeze(pg):
    a = node(pg, "a").start()
    b = None
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob = a.text("bob", "pw-bobby", register=True)
        b = node(pg, "b").start()
        acked = {}
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        move(alice, 101, "alice", 1, acked)
        move(bob, 101, "bob", 2, acked)
        frozen = time.time()
        freeze(a.proc)
        try:
            wait_for("node b to take table 101 over", lambda: owners(pg)[101] == ("b", 2), 20)
            print(f"takeover of a frozen node: {time.time() - frozen:.2f} s", flush=True)
            assert "of its sessions ended" in b.read_log()
            carol = b.text("alice", "pw-alice")
            move(carol, 101, "alice", 3, acked)
        finally:
            a.proc.send_signal(signal.SIGCONT)
        # Node a wakes up believing it serves 101. Its sessions were ended: once it has
        # registered again, each of its tables writes its row, fenced; 101's write is refused
        # and a drops the table, telling its players, unasked.
        bob.expect(FENCED.format(board=101), timeout=15)
        alice.expect(FENCED.format(board=101), timeout=5)
        assert "table bohnduell 101: table 1 is served by node b at epoch 2 now; dropped from " \
               "this node" in a.read_log(), a.read_log()[-2000:]
        # What its players say there now goes to b, the owner, over the node link.
        bob.send("chat 101 from the past")
        bob.expect(r"^\[bohnduell 101\] bob: from the past$", timeout=5)
        assert pg.sql(pg.url, "SELECT t.owner FROM chat c JOIN tables t ON t.id = c.table_id "
                              "WHERE c.text = 'from the past'") == [["b"]]
        check_history(pg, acked)
        assert owners(pg) == {101: ("b", 2)}
        # Node a lives on (registered again), serving nothing.
        wait_for("node a to register again",
                 lambda: ["a"] in pg.sql(pg.url, "SELECT id FROM nodes"), 10)
        assert a.alive()
        assert a.stop() == 0
        assert b.stop() == 0
    finally:
        if a.alive():
            a.proc.send_signal(signal.SIGCONT)
            a.kill()
        if b:
            b.stop()


def test_pgrestart(pg):
    a = node(pg, "a").start()
    b = None
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob = a.text("bob", "pw-bobby", register=True)
        a.text("carol", "pw-carol", register=True)
        a.text("dave", "pw-dave1", register=True)
        b = node(pg, "b").start()
        # Guest names come from the database: never the same on two nodes.
        guests = []
        for n in (a, b, a, b):
            g = n.text()
            g.send("guest")
            guests.append(g.expect(r"^Hello, (guest\d+) ").group(1))
        assert len(set(guests)) == 4, guests
        carol = b.text("carol", "pw-carol")
        dave = b.text("dave", "pw-dave1")
        acked = {}
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        carol.send("bohnduell challenge -supply=8 carol dave")
        carol.expect(r"^New BohnDuell Board 102$")
        move(alice, 101, "alice", 1, acked)
        move(carol, 102, "carol", 1, acked)
        pg.pause()
        # Not stored, so not acknowledged: the player is told, and nothing changed.
        for tok in TOKENS:
            bob.send(f"move 101 {tok}#2")
            i, m = bob.expect_any([r"^error: illegal move .*$",
                                   r"^error: the move could not be saved \(the database cannot be "
                                   r"reached\); it was not played$"], timeout=30)
            if i == 1:
                break
        else:
            raise AssertionError("no legal move for bob at ply 2")
        alice.expect(r"^error: bohnduell 101: the move could not be saved \(the database cannot "
                     r"be reached\); it was not played$")
        time.sleep(1.0)
        pg.resume()
        wait_for("both nodes to heartbeat again", lambda: pg.sql(
            pg.url, "SELECT count(*) FROM nodes WHERE seen_at > (extract(epoch FROM "
                    "clock_timestamp()) * 1000)::bigint - 1000") == [["2"]], 20)
        move(bob, 101, "bob", 2, acked)
        move(dave, 102, "dave", 2, acked)
        move(alice, 101, "alice", 3, acked)
        move(carol, 102, "carol", 3, acked)
        time.sleep(3.0)  # longer than the grace and dead times: nobody was taken for dead
        assert owners(pg) == {101: ("a", 1), 102: ("b", 1)}, owners(pg)
        check_history(pg, acked)
        assert "took over" not in a.read_log() + b.read_log()
        assert "node a: connected again" in a.read_log()
        # Each node keeps its own sign of life (its downtime after a restart is its own).
        assert pg.sql(pg.url, "SELECT key FROM server_state ORDER BY key") == [
            ["alive_ms:a"], ["alive_ms:b"]]
        # A node stopped with SIGTERM hands its tables over at once (no 2 s wait).
        assert a.stop() == 0
        stopped = time.time()
        wait_for("node b to take 101 over", lambda: owners(pg)[101] == ("b", 2), 5)
        # (A killed node takes 2 s of missing heartbeats at least.)
        assert time.time() - stopped < 1.9, time.time() - stopped
        assert b.stop() == 0
    finally:
        a.stop()
        if b:
            b.stop()


def serve_error(*args):
    run = subprocess.run([BINARY, "serve", "--text-port", str(free_port()), "--http-port",
                          str(free_port()), "--biloba-port", "0"] + list(args),
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 2, run
    return run.stderr.strip()


def test_options():
    with tempfile.TemporaryDirectory(prefix="plateau-cluster-opt-") as tmp:
        node_args = ["--node-id", "a", "--node-address", "127.0.0.1:8023", "--node-port", "8090",
                     "--cluster-secret-file", secret_file()]
        assert serve_error("--data-dir", tmp, *node_args) == (
            "plateau: --node-id: several nodes need a PostgreSQL store (--store "
            "postgresql://...); SQLite serves one machine (try --help)")
        assert serve_error("--store", "sqlite:" + os.path.join(tmp, "x.db"), *node_args) == (
            "plateau: --node-id: several nodes need a PostgreSQL store (--store "
            "postgresql://...); SQLite serves one machine (try --help)")
        assert not os.path.exists(os.path.join(tmp, "x.db"))
        assert serve_error("--node-id", "a") == "plateau: --node-id requires --node-address " \
                                                "(try --help)"
        assert serve_error("--node-port", "8090") == "plateau: --node-port requires --node-id " \
                                                     "(try --help)"
        # The node link's secret: required, at least 32 bytes, readable by its owner only.
        assert serve_error("--node-id", "a", "--node-address", "h:1", "--node-port", "2") == (
            "plateau: --node-id requires --cluster-secret-file (try --help)")
        assert serve_error("--cluster-secret-file", secret_file()) == (
            "plateau: --cluster-secret-file requires --node-id (try --help)")
        pg_args = ["--store", "postgresql://nobody@127.0.0.1:1/none", "--node-id", "a",
                   "--node-address", "h:1", "--node-port", "2", "--cluster-secret-file"]
        short = secret_file(b"x" * 31, name="short")
        assert serve_error(*pg_args, short) == (
            f"plateau: the cluster secret file {short} must hold 32 to 4096 bytes (e.g. head -c "
            "32 /dev/urandom | base64)")
        shared = secret_file(mode=0o640, name="shared")
        assert serve_error(*pg_args, shared) == (
            f"plateau: the cluster secret file {shared} may be read or written by its group or "
            "others (chmod 600 it)")
        missing = os.path.join(tmp, "none")
        assert serve_error(*pg_args, missing) == (
            f"plateau: cannot read the cluster secret file {missing}")
        assert serve_error("--node-id", "a b", "--node-address", "h:1", "--node-port", "2") == (
            "plateau: --node-id: a node id is made of letters, digits, '.', '_' and '-' "
            "(try --help)")
        assert serve_error("--node-id", "a", "--node-address", "h", "--node-port", "2") == (
            "plateau: --node-address: HOST:PORT expected (a host name or address, a port from 1 "
            "to 65535) (try --help)")


def main():
    scenario = sys.argv[2]
    start = time.time()
    print(f"--- {scenario}", flush=True)
    if scenario == "options":
        test_options()
    else:
        with PgCluster() as pg:
            {"kill": test_kill, "freeze": test_freeze, "pgrestart": test_pgrestart}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
