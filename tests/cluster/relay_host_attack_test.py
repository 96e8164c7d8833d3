#!/usr/bin/env python3
"""The relay's client side against a legacy host that misbehaves (docs/CLUSTER.md "The biloba
0.9.3 port", src/compat/biloba/legacy_relay.h). The host is this test: a node "A" (listed live
in `nodes`, its id the smallest) whose node link it answers as an authenticated peer, so it can
send what no plateau host would. Scenario:
  fakehost  node b relays its port's clients to A; A pours 8 MB at a client that never reads:
            b closes that relay at 256 KiB waiting (beyond what the kernel holds) and tells A;
            A sends bad base64 for a second client: that client is closed, the link is kept;
            an event for a request b never made is ignored; a third client reads A's bytes,
            then the end at A's "done"; b answers HTTP throughout and stops with 0.
Usage: relay_host_attack_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why)
only when the PostgreSQL server binaries are missing and this is not root."""
import base64
import json
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_cluster import run_scenario  # noqa: E402
from plateau_harness import wait_for  # noqa: E402
from link_test import SECRET, Link, blake, link_key  # noqa: E402
from biloba_relay_test import node  # noqa: E402
from relay_peer import NUMP  # noqa: E402


class Host(Link):
    """The listening end of one link connection, as node A (link_auth.h's handshake)."""

    def __init__(self, listener):
        conn, _ = listener.accept()
        conn.settimeout(10)
        self.sock = conn
        sn = os.urandom(32)
        self.send(json.dumps({"t": "hello", "v": 1, "node": "A", "nonce": sn.hex()}).encode())
        auth = json.loads(self.recv())
        cn = bytes.fromhex(auth["nonce"])
        key = link_key(SECRET)
        assert auth["mac"] == blake(key, b"handshake", b"client", sn, cn, auth["node"].encode(),
                                    b"A").hex(), auth
        proof = blake(key, b"handshake", b"server", sn, cn, auth["node"].encode(), b"A")
        self.send(json.dumps({"t": "proof", "mac": proof.hex()}).encode())
        self.c2s = blake(key, b"session", b"c2s", sn, cn)
        self.s2c = blake(key, b"session", b"s2c", sn, cn)
        self.sent = self.got = 0

    def frame(self, fields):
        body = json.dumps(fields).encode()
        self.send(blake(self.s2c, struct.pack(">Q", self.sent), body) + body)
        self.sent += 1

    def next(self):
        raw = self.recv()
        assert raw[:32] == blake(self.c2s, struct.pack(">Q", self.got), raw[32:]), raw
        self.got += 1
        return json.loads(raw[32:])


def opened(host, sid):
    """b's "open" request for relay `sid`; answered "alive"; returns its id."""
    req = host.next()
    assert {k: v for k, v in req.items() if k != "id"} == {
        "t": "req", "legacy": "open", "sid": sid, "address": "127.0.0.1"}, req
    host.frame({"t": "ev", "id": req["id"], "ka": 1})
    return req["id"]


def test_fakehost(pg):
    b = node(pg, "b").start()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(10)
    clients = []
    try:
        pg.sql(pg.url, "INSERT INTO nodes(id, address, node_port, started_at, seen_at) VALUES "
                       f"('A', '127.0.0.1:1', {listener.getsockname()[1]}, 0, "
                       "(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3600000)")
        host = Host(listener)
        wait_for("b's link to A", lambda: "connected to node A" in b.read_log(), 10)
        # A client that never reads, with a small receive buffer.
        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.connect(("127.0.0.1", b.biloba_port))
        clients.append(slow)
        rid = opened(host, 1)
        chunk = base64.b64encode(b"z" * 4096).decode()
        started = time.time()
        for _ in range(2048):
            host.frame({"t": "ev", "id": rid, "d": chunk})
        wait_for("the slow reader's relay closed",
                 lambda: "wait for a slow reader: closed" in b.read_log(), 10)
        print(f"fakehost: 8 MB poured, the relay closed after {time.time() - started:.1f} s",
              flush=True)
        assert host.next() == {"t": "note", "legacy": "close", "sid": 1}
        host.frame({"t": "done", "id": rid})
        assert b.http_get("/healthz") == (200, "ok\n")
        # Bad base64 from the host: that client closed, b tells A, the link stays.
        second = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
        clients.append(second)
        rid = opened(host, 2)
        host.frame({"t": "ev", "id": rid, "d": "!!!!"})
        assert second.recv(16) == b""
        assert host.next() == {"t": "note", "legacy": "close", "sid": 2}
        host.frame({"t": "done", "id": rid})
        # An answer to no request of b's: ignored.
        host.frame({"t": "ev", "id": 999999, "d": chunk})
        host.frame({"t": "done", "id": 999998})
        # A third client reads what A sends, then the end at A's "done".
        third = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
        clients.append(third)
        rid = opened(host, 3)
        host.frame({"t": "ev", "id": rid, "d": base64.b64encode(NUMP).decode()})
        host.frame({"t": "done", "id": rid})
        data = b""
        while piece := third.recv(64):
            data += piece
        assert data == NUMP, data
        log = b.read_log()
        assert "bad base64" in log, log
        assert "connection to node A closed" not in log, log
        assert b.http_get("/healthz") == (200, "ok\n")
        assert b.stop() == 0
    finally:
        for c in clients:
            c.close()
        listener.close()
        if b.alive():
            b.kill()


def main():
    run_scenario({"fakehost": test_fakehost})


if __name__ == "__main__":
    main()
