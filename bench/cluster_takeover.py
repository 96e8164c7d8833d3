#!/usr/bin/env python3
"""Takeover time of a dead node's tables (issue 16, item 6; docs/PERFORMANCE.md "Cluster
failover"): a throw-away PostgreSQL cluster (tests/integration/pg_cluster.py, with fsync on),
two `plateau serve` nodes on it; node a opens TABLES boards (PLIES moves played on each), is killed
with SIGKILL, and the time until node b owns and serves all of them is measured:
  detect   kill -> b's takeover starts (a unseen for 2 s, its lock free: at most one more
           heartbeat round of 0.5 s);
  claim    b's claim (one UPDATE, epoch + 1) and load of the tables' rows, and their rebuild
           (moves replayed through the rules), from b's log line;
  total    kill -> every table's row says owner b (polled every 50 ms).
Usage: bench/cluster_takeover.py PLATEAU_BINARY [TABLES [PLIES]]"""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))
os.environ.setdefault("PLATEAU_PG_FSYNC", "on")
from pg_cluster import PgCluster, cluster_secret_file  # noqa: E402
from plateau_harness import TOKENS, Server, free_port  # noqa: E402

BINARY = sys.argv[1]
TABLES = int(sys.argv[2]) if len(sys.argv) > 2 else 100
PLIES = int(sys.argv[3]) if len(sys.argv) > 3 else 10


def node(pg, name):
    return Server(BINARY, extra=["--store", pg.url, "--node-id", name, "--node-address",
                                 f"127.0.0.1:{free_port()}", "--node-port", str(free_port()),
                                 "--cluster-secret-file", cluster_secret_file(),
                                 "--place-tables", "here",  # every table on a, the one killed
                                 "--rate", "100000", "--max-tables-per-user",
                                 str(TABLES + 10)])


def play(client, board, ply):
    """One legal move at `ply` (TOKENS in order)."""
    for tok in TOKENS:
        client.send(f"move {board} {tok}#{ply}")
        i, _ = client.expect_any([r"^error: illegal move .*$", rf"^bohnduell {board}: {ply}\. "])
        if i == 1:
            return
    raise SystemExit(f"no legal move on {board} at ply {ply}")


def main():
    with PgCluster() as pg:
        a = node(pg, "a").start()
        alice = a.text("alice", "pw-alice", register=True)
        bob = a.text("bob", "pw-bobby", register=True)
        b = node(pg, "b").start()
        try:
            for i in range(TABLES):
                alice.send("bohnduell challenge -supply=8 alice bob")
                alice.expect(rf"^New BohnDuell Board {101 + i}$")
                for ply in range(1, PLIES + 1):
                    play(alice if ply % 2 else bob, 101 + i, ply)
            killed = time.time()
            a.kill()
            while True:
                n = int(pg.sql(pg.url, "SELECT count(*) FROM tables WHERE owner = 'b'")[0][0])
                if n == TABLES:
                    break
                if time.time() - killed > 30:
                    raise SystemExit(f"only {n} of {TABLES} tables taken over after 30 s")
                time.sleep(0.05)
            total = time.time() - killed
            m = None
            while not m and time.time() - killed < 35:
                m = re.search(rf"took over {TABLES} tables of node a \(unseen for (\d+) ms\) "
                              r"in (\d+) ms", b.read_log())
                time.sleep(0.05)
            assert m, b.read_log()[-2000:]
            alice = b.text("alice", "pw-alice")
            bob = b.text("bob", "pw-bobby")
            play(alice if PLIES % 2 == 0 else bob, 100 + TABLES, PLIES + 1)
            print(f"tables={TABLES} plies={PLIES} unseen_at_takeover_ms={m.group(1)} claim_load_rebuild_ms="
                  f"{m.group(2)} kill_to_owned_s={total:.2f} (then a move played on node b)")
            assert b.stop() == 0
        finally:
            b.stop()


if __name__ == "__main__":
    main()
