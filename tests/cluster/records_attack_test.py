#!/usr/bin/env python3
"""Attacks on GET /records from any node (docs/CLUSTER.md "Forwarding", HTTP records;
src/server/lobby_records.cpp), on real nodes: node a owns the table, b is asked. Scenarios:
  edges     board numbers at the edges and keys of every length on b: the same answers as on
            a, and a key too long for the link is dropped on b rather than cutting the link;
  frozen    300 requests at once on b for a table of a frozen owner: 256 wait for the link's
            time-out (its requests in flight to one peer), the rest are answered 503 at once,
            every one 503 within 12 s, b answers /healthz meanwhile; once a runs again the
            record is served.
Usage: records_attack_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only
when the PostgreSQL server binaries are missing and this is not root."""
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_cluster import run_scenario  # noqa: E402
from plateau_harness import freeze, wait_for  # noqa: E402
from cluster_test import move  # noqa: E402
from cluster_shared_test import get, node  # noqa: E402

NO_SUCH = (404, "no such record\n")
UNREACHABLE = (503, "the node serving bohnduell 101 cannot be reached now: try again\n")
BUSY = (503, "busy, try again\n")


def owned_by_a(pg, extra=()):
    """Nodes a and b; table 101 on a with three moves. Returns (a, b, its record)."""
    here = ["--place-tables", "here"] + list(extra)
    a = node(pg, "a", here).start()
    b = node(pg, "b", here).start()
    alice = a.text("alice", "pw-alice", register=True)
    bob = a.text("bob", "pw-bobby", register=True)
    alice.send("bohnduell challenge -supply=8 alice bob")
    alice.expect(r"^New BohnDuell Board 101$")
    acked = {}
    move(alice, 101, "alice", 1, acked)
    move(bob, 101, "bob", 2, acked)
    move(alice, 101, "alice", 3, acked)
    status, record = get(a, "/records/bohnduell/101")
    assert status == 200 and '[Board "101"]' in record, (status, record)
    return a, b, record


def test_edges(pg):
    a, b, record = owned_by_a(pg)
    try:
        found = (200, record)
        cases = {
            "/records/bohnduell/101": found,
            "/records/bohnduell/000000101": found,
            "/records/bohnduell/101.txt": found,
            "/records/bohnduell/101?key=" + "k" * 64: found,
            "/records/bohnduell/101?key=" + "k" * 65: found,
            "/records/bohnduell/101?key=" + "k" * 8000: found,
            "/records/bohnduell/101?other=1": found,
            "/records/bohnduell/999999999": NO_SUCH,
            "/records/bohnduell/1000000000": NO_SUCH,
            "/records/bohnduell/99999999999999999999999": NO_SUCH,
            "/records/bohnduell/0": NO_SUCH,
            "/records/bohnduell/-1": NO_SUCH,
            "/records/bohnduell/1e3": NO_SUCH,
            "/records/bohnduell/": NO_SUCH,
            "/records//101": NO_SUCH,
            "/records/" + "g" * 32 + "/101": NO_SUCH,
            "/records/" + "g" * 33 + "/101": NO_SUCH,
            "/records/bohnduell/101/x": NO_SUCH,
        }
        for path, want in cases.items():
            assert get(b, path) == want == get(a, path), path
        # None of them cut b's link to a: the record is still asked of a (not looked up).
        assert "connection to node a closed" not in b.read_log(), b.read_log()
        assert "closed: malformed frame" not in a.read_log(), a.read_log()
        assert a.stop() == 0 and b.stop() == 0
    finally:
        for n in (a, b):
            if n.alive():
                n.kill()


def test_frozen(pg):
    # Every request comes from 127.0.0.1: room for 300 HTTP connections at once.
    a, b, record = owned_by_a(pg, ["--max-connections-per-address", "400"])
    try:
        assert get(b, "/records/bohnduell/101") == (200, record)
        freeze(a.proc)
        results = []
        lock = threading.Lock()

        def ask():
            t0 = time.time()
            got = get(b, "/records/bohnduell/101", timeout=20)
            with lock:
                results.append((got, time.time() - t0))
        threads = [threading.Thread(target=ask) for _ in range(300)]
        for t in threads:
            t.start()
        time.sleep(1)
        t0 = time.time()
        assert get(b, "/healthz", timeout=2) == (200, "ok\n")
        assert time.time() - t0 < 1
        for t in threads:
            t.join(30)
        assert len(results) == 300
        slow = [r for r in results if r[1] > 5]
        assert all(got == UNREACHABLE for got, _ in slow), slow[:3]
        assert len(slow) == 256, len(slow)
        assert all(got in (UNREACHABLE, BUSY) for got, _ in results), results[:3]
        assert max(s for _, s in results) < 12, max(s for _, s in results)
        print(f"frozen: {len(slow)} waited for the link's time-out, "
              f"{300 - len(slow)} answered at once", flush=True)
        a.proc.send_signal(signal.SIGCONT)
        wait_for("the record again", lambda: get(b, "/records/bohnduell/101") == (200, record), 20)
    finally:
        for n in (a, b):
            if n.alive():
                n.proc.send_signal(signal.SIGCONT)
                n.kill()


def main():
    run_scenario({"edges": test_edges, "frozen": test_frozen})


if __name__ == "__main__":
    main()
