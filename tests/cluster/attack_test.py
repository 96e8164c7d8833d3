#!/usr/bin/env python3
"""Attacks on what the nodes added (docs/CLUSTER.md), on a real `plateau serve` with a
PostgreSQL cluster of the test's own (tests/integration/pg_cluster.py):
  halfopen  handshakes held open on the node port by a peer without the secret: a handshake
            frame is small (a longer announced length cuts the connection at once, before the
            node sets 1 MiB aside for it); one address holds at most 16 handshakes at once (more
            are closed at once, and logged), and the node at most 256 (from many addresses), so
            a stranger cannot hold the node's descriptors or memory; once they go, a peer with
            the secret connects at once;
  nofds     no descriptor left (client connections took them): a connection to the node port
            waits in the backlog without the node spinning on it (under 0.5 s of CPU in
            1.5 s), said once in the log, and is taken once descriptors are back;
  damagedrow a table's row damaged in the database (not JSON): the other node still follows
            the other tables a player who logs in there sits at (the row is left out, logged),
            without an outage of its event feed.
Usage: attack_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when the
PostgreSQL server binaries are missing and this is not root, or for nofds on a sanitized build
(plateau_harness.sanitized: the sanitizers cannot run out of descriptors)."""
import json
import os
import re
import resource
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import free_port, sanitized  # noqa: E402
from cluster_test import move, node, wait_for  # noqa: E402
from link_test import SECRET, Link, blake  # noqa: E402


def hello_or_eof(ln):
    try:
        return json.loads(ln.recv())
    except (EOFError, ConnectionResetError):
        return None


def test_halfopen(pg):
    node_port = free_port()
    a = node(pg, "a", node_port=node_port).start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        # A handshake frame announced at 1 MiB (the bound of frames after the handshake): cut
        # at once, not after the handshake's 5 s.
        ln = Link(node_port)
        assert hello_or_eof(ln)["t"] == "hello"
        ln.sock.sendall(struct.pack(">I", 1 << 20))
        ln.sock.settimeout(1)
        assert ln.closed(), "a 1 MiB handshake frame was waited for"
        # 40 handshakes held open from one address: 16 get the hello, the rest are closed.
        time.sleep(1.1)  # refusals are logged at most once a second: this one is logged
        held = [Link(node_port) for _ in range(40)]
        hellos = [hello_or_eof(ln) for ln in held]
        assert [h is not None for h in hellos] == [True] * 16 + [False] * 24, hellos
        assert all(h["t"] == "hello" and h["node"] == "a" for h in hellos[:16]), hellos
        # The node kept serving its clients meanwhile.
        alice.send("ping")
        alice.expect(r"^pong$")
        # And 256 at once from all addresses: 20 addresses holding 16 each get 256 hellos.
        many = []
        for i in range(20):
            for _ in range(16):
                sock = socket.create_connection(("127.0.0.1", node_port), timeout=5,
                                                source_address=(f"127.0.1.{i + 1}", 0))
                ln = Link.__new__(Link)
                ln.sock = sock
                many.append(ln)
        got = [hello_or_eof(ln) is not None for ln in many]
        assert sum(got) == 256 - 16 and got[:240] == [True] * 240, sum(got)
        for ln in held + many:
            ln.sock.close()

        # Once they are gone, a peer with the secret is let in at once.
        def proved():
            good = Link(node_port)
            if hello_or_eof(good) is None:
                return False
            good.sock.close()
            return True

        wait_for("a handshake let in again", proved, 3)
        good = Link(node_port)
        hello, auth, (c2s, s2c, key, sn, cn) = good.handshake(SECRET)
        proof = json.loads(good.recv())
        assert proof == {"t": "proof", "mac": blake(key, b"handshake", b"server", sn, cn, b"x",
                                                    b"a").hex()}, proof
        log = a.read_log()
        assert re.search(r"node link: refused 127\.0\.0\.1:\d+: 16 handshakes from its address "
                         r"at once", log), log[-3000:]
        assert a.stop() == 0
    finally:
        if a.proc and a.alive():
            a.proc.kill()


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_nofds(pg):
    node_port = free_port()
    a = node(pg, "a", node_port=node_port).start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        pid = a.proc.pid
        base = len(os.listdir(f"/proc/{pid}/fd"))
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (base + 20, base + 20))
        # Client connections take every descriptor left (the client ports wait and retry).
        clients = [socket.create_connection(("127.0.0.1", a.text_port), timeout=5,
                                            source_address=(f"127.0.2.{i // 10 + 1}", 0))
                   for i in range(40)]
        wait_for("no descriptor left", lambda: len(os.listdir(f"/proc/{pid}/fd")) >= base + 20,
                 5)
        # A connection to the node port the node cannot take: it waits, not spins.
        waiting = Link(node_port)
        time.sleep(0.3)
        before = cpu_seconds(pid)
        time.sleep(1.5)
        used = cpu_seconds(pid) - before
        assert used < 0.5, f"{used:.2f} s of CPU in 1.5 s with no descriptor left"
        for c in clients:
            c.close()
        # Descriptors back: the node port serves again (the connection that waited is greeted,
        # or closed; a fresh one must be greeted).
        first = hello_or_eof(waiting)
        assert first is None or first["t"] == "hello", first
        try:
            fresh = Link(node_port)
        except ConnectionRefusedError:
            raise AssertionError("node port refused; alive=%s log:\n%s" % (a.alive(),
                                                                          a.read_log()[-4000:]))
        assert hello_or_eof(fresh)["t"] == "hello"
        alice.send("ping")
        alice.expect(r"^pong$")
        log = a.read_log()
        assert len(re.findall(r"node link: cannot accept a connection \(retrying\): Too many "
                              r"open files", log)) == 1, log[-3000:]
        rc = a.stop()
        log = a.read_log()
        k = max(log.find("ERROR: "), log.find("runtime error"))
        assert rc == 0, (rc, log[max(0, k - 300):k + 2500])
    finally:
        if a.proc and a.alive():
            a.proc.kill()


def test_damagedrow(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        a.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 102$")
        # Table 102's row damaged (cut short: not JSON) in the database, while a, its owner, still serves
        # it: one bad row must not stop b from following bob's other tables.
        pg.sql(pg.url, "UPDATE tables SET data = left(data, length(data) - 5) WHERE number = 102")
        bob_b = b.text("bob", "pw-bobby")
        bob_b.send("ping")
        bob_b.expect(r"^pong$")
        time.sleep(1)  # b's feed has had its round with bob's arrival
        move(alice, 101, "alice", 1, {})
        bob_b.expect(r"^bohnduell 101: 1\. A alice \S+$")
        log = b.read_log()
        assert "event feed (retrying)" not in log, log[-3000:]
        assert re.search(r"warning table id \d+: its row is not JSON; left out of bob's seats",
                         log), log[-3000:]
        assert a.stop() == 0 and b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.proc.kill()


def main():
    scenario = sys.argv[2]
    start = time.time()
    print(f"--- {scenario}", flush=True)
    if scenario == "nofds" and sanitized(sys.argv[1]):
        print("skipped: a sanitized build cannot run out of descriptors (plateau_harness.sanitized)")
        sys.exit(77)
    with PgCluster() as pg:
        {"halfopen": test_halfopen, "nofds": test_nofds,
         "damagedrow": test_damagedrow}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
