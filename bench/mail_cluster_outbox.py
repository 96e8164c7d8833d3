#!/usr/bin/python3
"""The shared outbox of several nodes (docs/MAIL.md "Several nodes"; docs/PERFORMANCE.md "Mail on
several nodes"): a throw-away PostgreSQL cluster (tests/integration/pg_cluster.py, fsync on), an
SMTP sink (aiosmtpd, tests/integration/mail_test.py's Sink) and NODES `plateau serve` nodes with
--smtp. MAILS rows are put into mail_outbox in one transaction (each to its own address: no
per-address cap), and the time until the sink holds every one is measured, with the count of
mails the sink got twice (0 expected). With `kill`, node a is killed with SIGKILL once a third
of the mails arrived: the others send the rest (a duplicate is then possible only for a mail a
was sending at the kill: docs/MAIL.md "Not guaranteed").
Usage: bench/mail_cluster_outbox.py PLATEAU_BINARY [MAILS [NODES [kill]]] (Debian's python3)"""
import collections
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))
os.environ.setdefault("PLATEAU_PG_FSYNC", "on")
from aiosmtpd.controller import Controller  # noqa: E402
from mail_test import FROM, Sink  # noqa: E402
from pg_cluster import PgCluster, cluster_secret_file  # noqa: E402
from plateau_harness import Server, free_port  # noqa: E402

BINARY = sys.argv[1]
MAILS = int(sys.argv[2]) if len(sys.argv) > 2 else 500
NODES = int(sys.argv[3]) if len(sys.argv) > 3 else 2
KILL = len(sys.argv) > 4 and sys.argv[4] == "kill"


def main():
    sink = Sink()
    smtp = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp)
    controller.start()
    nodes = []
    try:
        with PgCluster() as pg:
            for name in "abcdefgh"[:NODES]:
                nodes.append(Server(BINARY, extra=[
                    "--store", pg.url, "--node-id", name, "--node-address",
                    f"127.0.0.1:{free_port()}", "--node-port", str(free_port()),
                    "--cluster-secret-file", cluster_secret_file(), "--smtp",
                    f"smtp://127.0.0.1:{smtp}", "--mail-from", FROM]).start())
            start = time.time()
            pg.sql(pg.url, "INSERT INTO mail_outbox(key, recipient, message, created_ms) "
                           "SELECT 'bench.' || g, 'u' || g || '@example.org', 'Subject: bench ' "
                           "|| g || E'\\r\\n\\r\\nhi\\r\\n', g FROM generate_series(1, "
                           f"{MAILS}) g")
            killed = None
            deadline = start + 120
            while time.time() < deadline:
                with sink.cv:
                    got = len(sink.mails)
                if KILL and killed is None and got >= MAILS // 3:
                    nodes[0].kill()
                    killed = time.time()
                if len({m["msg"]["Subject"] for m in list(sink.mails)}) >= MAILS:
                    break
                time.sleep(0.02)
            took = time.time() - start
            time.sleep(1.5)  # anything sent twice arrives meanwhile
            counts = collections.Counter(m["msg"]["Subject"] for m in list(sink.mails))
            twice = sum(1 for c in counts.values() if c > 1)
            per_node = {n: sum(1 for line in s.read_log().splitlines() if "mail: sent bench." in line)
                        for n, s in zip("abcdefgh", nodes)}
            left = pg.sql(pg.url, "SELECT count(*) FROM mail_outbox")[0][0]
            print(f"{MAILS} mails, {NODES} nodes{' (a killed)' if KILL else ''}: all at the sink "
                  f"in {took:.2f} s ({len(counts) / took:.0f} mails/s); distinct {len(counts)}, "
                  f"sent twice {twice}; sent per node {per_node}; left in the outbox {left}",
                  flush=True)
            for n in nodes:
                if n.alive():
                    n.stop()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
