#!/usr/bin/env python3
"""The cost of forwarding (docs/CLUSTER.md "Forwarding"): two nodes on a PostgreSQL cluster of
its own, a table on node a; `show 101` then `ping`, one after the other, N times from a client
of a and from a client of b (forwarded to a): the median and 99th percentile in ms.
Usage: link_latency.py PLATEAU_BINARY [N]. Not a test (no ctest entry): a measurement."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_cluster import PgCluster  # noqa: E402
from cluster_test import node  # noqa: E402


def round_trips(client, line, n):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        client.send(line)
        client.send("ping")
        client.expect(r"^pong$")
        out.append((time.perf_counter() - t) * 1000)
    out.sort()
    return out[len(out) // 2], out[int(len(out) * 0.99)]


def main():
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    with PgCluster() as pg:
        a = node(pg, "a").start()
        b = node(pg, "b").start()
        try:
            alice = a.text("alice", "pw-alice", register=True)
            a.text("bob", "pw-bobby", register=True)
            alice.send("bohnduell challenge -supply=8 alice bob")
            alice.expect(r"^New BohnDuell Board 101$")
            bob_a, bob_b = a.text("bob", "pw-bobby"), b.text("bob", "pw-bobby")
            round_trips(bob_a, "show 101", 20)
            round_trips(bob_b, "show 101", 20)
            print("on the owner: p50 %.2f ms, p99 %.2f ms" % round_trips(bob_a, "show 101", n))
            print("forwarded:    p50 %.2f ms, p99 %.2f ms" % round_trips(bob_b, "show 101", n))
        finally:
            a.stop()
            b.stop()


if __name__ == "__main__":
    main()
