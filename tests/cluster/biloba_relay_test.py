#!/usr/bin/env python3
"""The biloba 0.9.3 port of any node of a cluster plays the cluster's legacy games
(docs/CLUSTER.md "The biloba 0.9.3 port", src/compat/biloba/legacy_relay.h): node b relays its
port's connections to node a, the legacy host (the smallest id), byte for byte. Scenarios:
  play      a game created by an original client on b's port and joined on a's: listed on both
            ports, played to its end by both clients, its table and dump on a, its record the
            same from either node (before: b's client made the game on b, where a's port
            never listed it, and the joiner found no game);
  hostdies  a killed mid-game: the client relayed by b is cut at once (not left waiting), and
            b serves the next connection itself (it is the host now);
  noport    a, the host by id, runs no biloba port: b's relayed connections are refused and
            closed, and the link (which forwarded commands share) stays up (before: the frame
            reached the forwarding as a malformed command and cut the link);
  flood     a client on b pours bytes at the relay: b relays them at 16 KiB/s at most, and a
            text command b forwards to a meanwhile is answered in time (the link is not
            clogged); over the relays' bound (128 at once) b refuses at once.
Usage: biloba_relay_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when
the PostgreSQL server binaries are missing and this is not root."""
import glob
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from pg_cluster import cluster_node, run_scenario  # noqa: E402
from plateau_harness import (answer, biloba_client, finish,  # noqa: E402
                             record_moves, wait_for)

BINARY = sys.argv[1]
BILOBA = os.path.join(os.path.dirname(BINARY), "biloba")


def node(pg, name, extra=(), node_port=None):
    return cluster_node(BINARY, pg, name, extra, node_port)


def linked(b, to="a"):
    """Waits until b's own link connection to node `to` is up (b relays only then)."""
    wait_for(f"b's link to {to}", lambda: f"node link: connected to node {to}" in b.read_log(), 20)


def listing(port):
    out = subprocess.run([BILOBA, "127.0.0.1", "--port", str(port), "--list"],
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    return out.stdout.decode(errors="replace")


def biloba_tables(server):
    code, body = server.http_get("/api/tables")
    assert code == 200, (code, body)
    return [t for t in json.loads(body) if t["game"] == "biloba"]


def shut(procs, nodes):
    """The way out of a scenario: its clients killed, its nodes stopped."""
    for p in procs:
        if p.poll() is None:
            p.kill()
    for n in nodes:
        if n.alive():
            n.stop()


def create_on(port, name, out, delay_ms=30):
    proc = biloba_client(BINARY, port, out, "greedy", "--create", name, "--name", "Ann",
                         "--seed", "1", delay_ms=delay_ms)
    wait_for(f"game {name!r} listed on port {port}", lambda: name in listing(port), 30)
    return proc


def test_play(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    procs = []
    try:
        linked(b)
        outs = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
        procs.append(create_on(b.biloba_port, "relayed game", outs[0]))
        # a's port lists the game an original client made on b's: it lives on a.
        assert "relayed game" in listing(a.biloba_port)
        procs.append(biloba_client(BINARY, a.biloba_port, outs[1], "random", "--join", "1",
                                   "--name", "Bob", "--seed", "2", delay_ms=30))
        rc0, text0 = finish(procs[0], outs[0], 120)
        rc1, text1 = finish(procs[1], outs[1], 120)
        assert rc0 == 0 and rc1 == 0, (rc0, text0, rc1, text1, a.read_log(), b.read_log())
        # One table, on a, over, seen from both nodes.
        wait_for("a's table over", lambda: [t["status"] for t in biloba_tables(a)] == ["over"], 20)
        table = biloba_tables(a)[0]
        assert [s["name"] for s in table["seats"]] == ["Ann", "Bob"], table
        owner = pg.sql(pg.url, "SELECT owner FROM tables WHERE game = 'biloba'")
        assert owner == [["a"]], owner
        # The dump is a's; b kept none (it only relayed).
        assert len(glob.glob(os.path.join(a.data_dir, "data", "biloba", "*.blb"))) == 1
        assert glob.glob(os.path.join(b.data_dir, "data", "biloba", "*")) == []
        status, record = a.http_get(f"/records/biloba/{table['board']}")
        assert status == 200 and len(record_moves(record)) == table["ply"], (status, record)
        assert a.stop() == 0 and b.stop() == 0
    finally:
        shut(procs, (a, b))


def test_hostdies(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    procs = []
    try:
        linked(b)
        out = tempfile.TemporaryFile()
        # The creator waits on b's port for a second player who never comes.
        procs.append(create_on(b.biloba_port, "cut game", out))
        a.kill()
        started = time.time()
        rc, text = finish(procs[0], out, 20)
        assert time.time() - started < 15, ("the relayed client was left waiting", text)
        assert rc != 0, text
        # b is the host now: its own port serves a new game (made on b, listed there).
        wait_for("b saw a go", lambda: "connection to node a closed" in b.read_log(), 10)
        out2 = tempfile.TemporaryFile()
        procs.append(create_on(b.biloba_port, "after the host", out2))
        assert "cut game" not in listing(b.biloba_port)
        procs[-1].kill()
        assert b.stop() == 0
    finally:
        shut(procs, (a, b))


def test_noport(pg):
    a = node(pg, "a").start(biloba_port=0)  # the host by id, but no biloba port
    b = node(pg, "b").start()
    try:
        linked(b)
        alice = b.text("alice", "pw-alice", register=True)
        # b's relayed connection is refused by a and closed; the link stays up.
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
            s.settimeout(10)
            assert s.recv(16) == b"", "a connection relayed to a node without the port"
            s.close()
        wait_for("the refusal logged",
                 lambda: 'refused a connection: "no biloba 0.9.3 port here"' in b.read_log(), 5)
        assert "connection to node a closed" not in b.read_log(), b.read_log()
        who = answer(alice, "who")
        assert "alice" in who, who
    finally:
        shut([], (a, b))


def message(payload):
    return bytes([len(payload)]) + payload


def test_flood(pg):
    # Every client here comes from 127.0.0.1, and a counts relayed clients by their address.
    a = node(pg, "a", ["--max-connections-per-address", "400"]).start()
    b = node(pg, "b", ["--max-connections-per-address", "400"]).start()
    socks = []
    creator = None
    try:
        linked(b)
        alice = a.text("alice", "pw-alice", register=True)
        a.text("carol", "pw-carol", register=True)
        alice.send("phutball challenge alice carol")  # people's: the table stays on a
        board = alice.expect(r"^New Phutball Board (\d+)$").group(1)
        bob = b.text("bob", "pw-bobby", register=True)
        # A talk-mode connection (specs/biloba.md §11.5) to a game waiting for its second
        # player sends endless chat lines through b.
        out = tempfile.TemporaryFile()
        creator = create_on(b.biloba_port, "flooded game", out)
        flood = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
        flood.sendall(message(b"TALK_MODE\0") + message(struct.pack(">i", 1)) +
                      message(struct.pack(">i", 0)))
        assert flood.recv(4) == b"\x03OK\0"
        sent = [0]
        stop = threading.Event()

        def pour():
            flood.settimeout(0.2)
            chunk = message(b"x" * 200 + b"\0") * 50
            while not stop.is_set():
                try:
                    sent[0] += flood.send(chunk)
                except socket.timeout:
                    pass
        pourer = threading.Thread(target=pour)
        pourer.start()
        started = time.time()
        try:
            while time.time() - started < 4:
                # A command b forwards to a over the same link is answered meanwhile.
                t0 = time.time()
                shown = answer(bob, f"show {board}")
                assert "Phutball" in shown and time.time() - t0 < 2, shown
                time.sleep(0.05)
        finally:
            stop.set()
            pourer.join()
        sent = sent[0]
        # The relay took no more than its rate (16 KiB/s after a 64 KiB burst, and what the
        # kernel buffers): far less than a loopback socket would swallow unbounded.
        print(f"flood: {sent} bytes taken in 4 s", flush=True)
        assert sent < 64 * 1024 + 4 * 16 * 1024 + 8 * 1024 * 1024, sent
        assert "connection to node a closed" not in b.read_log(), b.read_log()
        flood.close()
        creator.kill()
        wait_for("the creator's game gone", lambda: "flooded game" not in listing(a.biloba_port),
                 10)
        # 128 relays at once are served (the last one waits for its first command, open); the
        # next connection is closed at once by b.
        for _ in range(128):
            socks.append(socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10))
        socks[-1].settimeout(0.5)
        try:
            assert socks[-1].recv(16) != b"", "the 128th relayed connection was closed"
        except socket.timeout:
            pass
        extra = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
        extra.settimeout(5)
        assert extra.recv(16) == b"", "the 129th relayed connection was not refused"
        wait_for("the refusal logged",
                 lambda: "connections relayed to node a already" in b.read_log(), 5)
        assert b.http_get("/healthz") == (200, "ok\n")
        assert a.http_get("/healthz") == (200, "ok\n"), a.http_get("/healthz")
    finally:
        for s in socks:
            s.close()
        shut([creator] if creator else [], (a, b))


def main():
    run_scenario({"play": test_play, "hostdies": test_hostdies, "flood": test_flood,
                  "noport": test_noport})


if __name__ == "__main__":
    main()
