#!/usr/bin/env python3
"""Attacks on messages to a user on any node (docs/CLUSTER.md, "Messages to a user on any
node"; docs/SECURITY.md), on a real `plateau serve` node sharing a PostgreSQL cluster of the
test's own (the helpers of notices_test.py and notices_table_test.py):
  offline  20,000 notices to users who have no connection on the node (what a stranger's
           `/invite` of offline accounts from another node publishes, each invite one notice)
           do not spend the node's notice budget: the notice that follows them, to carol who
           is connected there, is told to her, once.
  restart  PostgreSQL stopped at once (`pg_ctl stop -m immediate`) and started again: the
           nodes listen again by themselves, and an invite from a to bob on b reaches him, once.
Usage: notices_attack_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only
when the PostgreSQL server binaries are missing and this is not root."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from notices_table_test import user_notice  # noqa: E402
from notices_test import (  # noqa: E402
    INVITE, kill_nodes, lines, node, settle, show_logs, wait_for)
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import answer  # noqa: E402


def test_offline(pg):
    b = node(pg, "b")
    try:
        carol = b.text("carol", "pw-carol", register=True)
        b.text("dave", "pw-dave1", register=True).close()  # an account, offline
        # One transaction: the 20,000 reach the node before carol's (each differs: PostgreSQL
        # folds identical notifications of one transaction into one).
        flood = user_notice("dave", {"type": "ok", "data": {"text": "flood @"}})
        hello = user_notice("carol", {"type": "ok", "data": {"text": "hello carol"}})
        pg.sql(pg.url, "SELECT count(pg_notify('plateau_notices', replace('" + flood +
               "', '@', i::text))) FROM generate_series(1, 20000) i; "
               "SELECT pg_notify('plateau_notices', '" + hello + "')")
        carol.expect(r"^hello carol$", timeout=10)
        settle(carol)
        assert lines(carol, "hello carol") == 1, carol.buf
        assert "too many user notices" not in b.read_log()
        assert b.stop() == 0
    except BaseException:
        print("--- log of b:\n" + b.read_log()[-3000:], flush=True)
        raise
    finally:
        if b.proc and b.alive():
            b.kill()


def test_restart(pg):
    a = node(pg, "a")
    b = node(pg, "b")
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob = b.text("bob", "pw-bobby", register=True)
        pg.pause()
        time.sleep(1)
        pg.resume()
        for n in (a, b):
            wait_for("the feeds to listen again",
                     lambda: "event feed listening again" in n.read_log(), 10)
        for line in ("/open bohnduell", "/join"):
            assert not answer(alice, line).startswith("error"), line
        text = INVITE.format(by="alice", board=101)
        assert answer(alice, "/invite bob") == "You invited bob to bohnduell 101.\n"
        bob.expect("^" + text + "$")
        settle(bob)
        assert lines(bob, text) == 1, bob.buf
        assert a.stop() == 0 and b.stop() == 0
    except BaseException:
        show_logs(a, b)
        raise
    finally:
        kill_nodes(a, b)


def main():
    scenario = sys.argv[2]
    start = time.time()
    with PgCluster() as pg:
        {"offline": test_offline, "restart": test_restart}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
