#!/usr/bin/env python3
"""The delay of a message to a user on another node (docs/CLUSTER.md, "Messages to a user on
any node"): COUNT tables opened on node a, bob invited to each; the time from the inviter's
answer to the invite's arrival at bob's text connection on b (a notice through PostgreSQL),
against the same at bob's connection on a (the table's own delivery), median and p99.
Usage: notices_latency.py PLATEAU_BINARY [COUNT] (100 by default). Not a ctest."""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from notices_test import INVITE, node  # noqa: E402
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import answer  # noqa: E402


def measure(pg, count):
    """(Not a ctest.) The delay from the inviter's answer on a to the invite's arrival at the
    invited user's text connection on b (a notice through the database), against the same at
    the user's connection on a (the table's own delivery): median and p99 over `count` tables."""
    a = node(pg, "a")
    b = node(pg, "b")
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob_b = b.text("bob", "pw-bobby", register=True)
        bob_a = a.text("bob", "pw-bobby")
        remote, local = [], []
        for board in range(101, 101 + count):
            for line in ("/open bohnduell", "/join"):
                assert not answer(alice, line).startswith("error"), line
            alice.send("/invite bob")
            alice.expect(rf"^You invited bob to bohnduell {board}\.$")
            answered = time.perf_counter()
            text = INVITE.format(by="alice", board=board).replace(".", r"\.")
            bob_a.expect("^" + text + "$")
            local.append(time.perf_counter() - answered)
            bob_b.expect("^" + text + "$")
            remote.append(time.perf_counter() - answered)
            alice.send("/leave")  # the table stays open; alice's next /open makes another

        def stats(values):
            values = sorted(values)
            return (statistics.median(values) * 1000,
                    values[max(0, int(len(values) * 0.99) - 1)] * 1000)
        print("invite after the inviter's answer: on b (another node) median %.2f ms, p99 %.2f "
              "ms; on a (the table's node) median %.2f ms, p99 %.2f ms; %d invites" %
              (stats(remote) + stats(local) + (count,)), flush=True)
    finally:
        a.stop()
        b.stop()


if __name__ == "__main__":
    with PgCluster() as pg:
        measure(pg, int(sys.argv[2]) if len(sys.argv) > 2 else 100)
