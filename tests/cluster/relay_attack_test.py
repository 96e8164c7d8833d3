#!/usr/bin/env python3
"""Attacks on the biloba 0.9.3 port relay (docs/CLUSTER.md "The biloba 0.9.3 port",
src/compat/biloba/legacy_relay.h), on real nodes: node a is the legacy host (the smallest id),
b relays its port's connections there. Scenarios:
  frames    as an authenticated peer on a's node link, legacy frames that are malformed (no
            sid, a sid used twice, bad base64, "d" of 4,097 bytes or 900 KB, an unknown verb,
            an address over 64 bytes): each cuts that link connection only; a note for a sid
            never opened is ignored; a "d" of exactly 4,096 bytes is served; b's relays and a
            keep working throughout;
  bounds    opens without closing: 128 per peer, and its relays on a new link connection close
            those of its older one (before, 128 more on each connection: one peer took all
            1,024 with eight, and a node's orphans from a connection this end had not seen
            break counted on), 1,024 on the host in all (eight peers); the rest refused, and
            served again once the legacy sessions time out;
  halfclose a client of b's port that sends LISTGAME and half-closes reads the answer, then
            the end, as on a's port;
  churn     600 clients of b's port that close, half-close or reset at once leave no relay
            behind: 128 are served at once afterwards, the 129th refused;
  termhost  SIGTERM on the host with 20 relays open: a exits 0, b's 20 clients are closed,
            b keeps serving;
  termrelay SIGTERM on b with 20 relays open: b exits 0, its clients are closed, and a ends
            the relayed sessions (their game is no longer listed);
  frozen    the host frozen with relays open: b's clients are cut within the link's 10 s, b
            answers meanwhile, and a new client of b's port is served by b itself (before: b
            relayed it into the frozen host, whose link connection stayed open, and cut it
            10 s later, for as long as a was frozen);
  kill9     b killed (-9) mid-game with both players relayed: a ends their sessions and the
            game's table.
Usage: relay_attack_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when
the PostgreSQL server binaries are missing and this is not root."""
import base64
import os
import signal
import socket
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_cluster import run_scenario  # noqa: E402
from plateau_harness import biloba_client, free_port, freeze, wait_for  # noqa: E402
from relay_peer import LISTGAME, NUMP, Peer, closed_within, message, relayed  # noqa: E402
from biloba_relay_test import (BINARY, biloba_tables, create_on, linked, listing,  # noqa: E402
                               node, shut)  # noqa: E402

def relayed_listing_works(a, b):
    """b's own relays to a still work (another link connection), and a answers HTTP."""
    assert listing(b.biloba_port).strip() == listing(a.biloba_port).strip()
    assert a.http_get("/healthz") == (200, "ok\n")
    assert "connection to node a closed" not in b.read_log(), b.read_log()


def test_frames(pg):
    a_link = free_port()
    a = node(pg, "a", node_port=a_link).start()
    b = node(pg, "b").start()
    try:
        linked(b)
        p = Peer(a_link)
        p.served(1)
        p.data(1, LISTGAME)
        assert p.answer() == {"t": "ev", "id": 1, "d": base64.b64encode(NUMP).decode()}
        # A note for a sid never opened, and a close of one: ignored, the connection kept.
        p.data(99, LISTGAME)
        p.frame({"t": "note", "legacy": "close", "sid": 98})
        p.data(1, message(struct.pack(">i", 2)))
        assert p.answer() == {"t": "ev", "id": 1, "d": base64.b64encode(b"\x04\0\0\0\0").decode()}
        # "d" of exactly one chunk (4,096 bytes) is served: its LISTGAME is answered.
        sid2 = p.served(2, "a" * 64)
        p.data(2, (LISTGAME + b"\0" * 4096)[:4096])
        assert p.answer() == {"t": "ev", "id": sid2, "d": base64.b64encode(NUMP).decode()}
        # Its zeros are an empty player count: the session ends, and so does the relay.
        assert p.answer() == {"t": "done", "id": sid2}
        relayed_listing_works(a, b)
        # Each malformed frame cuts its own link connection, never a's, nor b's relays.
        big = base64.b64encode(b"x" * 4097).decode()
        bad = [
            {"t": "req", "id": 1, "legacy": "open", "address": "10.0.0.1"},
            {"t": "req", "id": 1, "legacy": "open", "sid": -1, "address": "10.0.0.1"},
            {"t": "req", "id": 1, "legacy": "open", "sid": "1", "address": "10.0.0.1"},
            {"t": "req", "id": 1, "legacy": "open", "sid": 1, "address": "a" * 65},
            {"t": "req", "id": 1, "legacy": "open", "sid": 1, "address": "a" * 10000},
            {"t": "req", "id": 1, "legacy": "open", "sid": 1},
            {"t": "req", "id": 1, "legacy": "shout", "sid": 1},
            {"t": "req", "id": 1, "legacy": 5, "sid": 1},
            {"t": "req", "id": 1, "legacy": "data", "sid": 1, "d": ""},
            {"t": "note", "legacy": "shout", "sid": 1},
            {"t": "note", "legacy": "open", "sid": 1, "address": "10.0.0.1"},
            {"t": "note", "legacy": "data", "sid": 1},
            {"t": "note", "legacy": "data", "d": "AAAA"},
            {"t": "note", "legacy": "data", "sid": 1, "d": "!!!!"},
            {"t": "note", "legacy": "data", "sid": 1, "d": "AAA"},
            {"t": "note", "legacy": "data", "sid": 1, "d": big},
            {"t": "note", "legacy": "data", "sid": 1, "d": "A" * 900_000},
        ]
        for frame in bad:
            q = Peer(a_link, "q")  # not "x": its opens would close p's (bounds)
            if frame["t"] == "note":
                q.served(1)
            q.frame(frame)
            assert q.closed(), frame
            q.sock.close()
        # A sid used twice on one connection: cut, and its first relay ends with it.
        q = Peer(a_link, "q")
        q.served(7)
        q.open(7)
        assert q.closed()
        got = p.answer()
        assert got == {"t": "ev", "id": 1, "ka": 1}, got  # p.s relays live on
        relayed_listing_works(a, b)
        assert a.alive() and b.alive()
        assert a.stop() == 0 and b.stop() == 0
    finally:
        shut([], (a, b))


def test_bounds(pg):
    a_link = free_port()
    a = node(pg, "a", node_port=a_link).start()
    b = node(pg, "b").start()
    try:
        linked(b)

        def fill(peer, count, prefix):
            return [peer.open(1 + i, f"{prefix}.{i // 250}.{i % 250}") for i in range(count)]

        def kinds(peer, count):
            """The answers to `count` opens, by kind ("ka" or the refusal), in id order (each
            relay starts on a strand of its own, so their first events come in any order)."""
            got = sorted((peer.answer() for _ in range(count)), key=lambda f: f["id"])
            return [(f["t"], f.get("ka") or f.get("refused")) for f in got]

        served = ("ev", 1)
        refused = ("done", "too many relayed connections")
        # One peer: 128 relays on one connection, the 129th refused.
        x1 = Peer(a_link, "x")
        fill(x1, 129, "10.1")
        assert kinds(x1, 129) == [served] * 128 + [refused]
        # Its relays on a new connection of its own: those of the older one are orphans (a node
        # keeps one connection to each peer), closed (before: 128 more on each connection).
        x2 = Peer(a_link, "x")
        fill(x2, 128, "10.2")
        assert kinds(x2, 128) == [served] * 128
        assert kinds(x1, 128) == [("done", None)] * 128
        wait_for("the orphans closed", lambda: "128 of its relays on an older one closed" in
                 a.read_log(), 5)
        time.sleep(0.2)  # each is forgotten just after its "done"
        # Seven more peers: 1,024 on the host in all, then refused (b's own relay too).
        others = [Peer(a_link, f"y{n}") for n in range(7)]
        for n, peer in enumerate(others):
            fill(peer, 128, f"10.{10 + n}")
        for n, peer in enumerate(others):
            assert kinds(peer, 128) == [served] * 128, n
        extra = others[-1].open(500, "10.99.0.1")
        assert others[-1].answer() == {"t": "done", "id": extra,
                                       "refused": "too many relayed connections"}
        s = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
        s.sendall(LISTGAME)
        assert s.recv(16) == b"", "a relay past the host's 1,024"
        # The legacy sessions time out (10 s without a first command): served again.
        wait_for("the relays' sessions end",
                 lambda: listing(b.biloba_port).strip() == listing(a.biloba_port).strip(), 20)
        assert a.http_get("/healthz") == (200, "ok\n")
        assert a.stop() == 0 and b.stop() == 0
    finally:
        shut([], (a, b))


def test_halfclose(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        linked(b)
        # A client that sends its command and half-closes reads the whole answer, then the
        # end, on b's port as on a's (before: b closed the relay both ways at the client's end
        # of file, so the answer on its way from a was lost).
        got = {}
        for name, port in (("a", a.biloba_port), ("b", b.biloba_port)):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(LISTGAME)
            s.shutdown(socket.SHUT_WR)
            data = b""
            while True:
                chunk = s.recv(64)
                if not chunk:
                    break
                data += chunk
            s.close()
            got[name] = data
        assert got == {"a": NUMP, "b": NUMP}, got
        assert a.stop() == 0 and b.stop() == 0
    finally:
        shut([], (a, b))


def test_churn(pg):
    many = ["--max-connections-per-address", "400"]  # every client is 127.0.0.1 on a too
    a = node(pg, "a", many).start()
    b = node(pg, "b", many).start()
    try:
        linked(b)
        # 600 clients of b's port that close at once, half-close, or reset after a command:
        # none of them holds a relay afterwards.
        for n in range(600):
            s = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
            try:
                if n % 3 == 1:
                    s.sendall(LISTGAME)
                    s.shutdown(socket.SHUT_WR)
                elif n % 3 == 2:
                    s.sendall(LISTGAME)
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:  # b closed it already (over 128 relays at once: refused)
                pass
            s.close()
        time.sleep(2)
        socks = relayed(b.biloba_port, 128)
        extra = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
        extra.settimeout(5)
        assert extra.recv(16) == b"", "a 129th relay at once"
        for s in socks + [extra]:
            s.close()
        assert "connection to node a closed" not in b.read_log(), b.read_log()
        assert a.stop() == 0 and b.stop() == 0
    finally:
        shut([], (a, b))


def test_termhost(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    socks = []
    try:
        linked(b)
        socks = relayed(b.biloba_port, 20)
        started = time.time()
        assert a.stop() == 0
        assert closed_within(socks, 5), "b's relayed clients were left open"
        print(f"termhost: a stopped, b's clients closed in {time.time() - started:.1f} s",
              flush=True)
        assert b.http_get("/healthz") == (200, "ok\n")
        # b hosts its port's connections itself now.
        wait_for("b saw a go", lambda: "connection to node a closed" in b.read_log(), 10)
        more = relayed(b.biloba_port, 1)
        more[0].close()
        assert b.stop() == 0
    finally:
        for s in socks:
            s.close()
        shut([], (a, b))


def test_termrelay(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    procs = []
    socks = []
    try:
        linked(b)
        out = tempfile.TemporaryFile()
        procs.append(create_on(b.biloba_port, "left behind", out))
        socks = relayed(b.biloba_port, 19)
        assert b.stop() == 0
        assert closed_within(socks, 5), "b's clients were left open"
        # a ended the sessions b relayed: the creator's game is gone from its port.
        wait_for("the relayed game gone from a",
                 lambda: "left behind" not in listing(a.biloba_port), 5)
        assert procs[0].wait(5) != 0
        assert a.http_get("/healthz") == (200, "ok\n")
        assert a.stop() == 0
    finally:
        for s in socks:
            s.close()
        shut(procs, (a, b))


def test_frozen(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    socks = []
    try:
        linked(b)
        socks = relayed(b.biloba_port, 5)
        freeze(a.proc)
        frozen = time.time()
        assert b.http_get("/healthz") == (200, "ok\n")
        assert closed_within(socks, 12), "b's clients were left waiting on a frozen host"
        waited = time.time() - frozen
        print(f"frozen: b's relayed clients cut after {waited:.1f} s", flush=True)
        assert 9 < waited < 12, waited
        assert b.http_get("/healthz") == (200, "ok\n")
        # a is no longer listed live (no heartbeat for 2 s): b serves its port's connections
        # itself, at once, rather than relaying each into the frozen host for 10 s.
        s = socket.create_connection(("127.0.0.1", b.biloba_port), timeout=10)
        socks.append(s)
        s.settimeout(3)
        s.sendall(LISTGAME)
        assert s.recv(16) == NUMP, "b relayed a connection to a frozen host"
        assert b.stop() == 0  # no hang on the frozen peer
        a.proc.send_signal(signal.SIGCONT)
    finally:
        for s in socks:
            s.close()
        if a.alive():
            a.proc.send_signal(signal.SIGCONT)
        shut([], (a, b))


def test_kill9(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    procs = []
    try:
        linked(b)
        outs = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
        procs.append(create_on(b.biloba_port, "cut short", outs[0], delay_ms=500))
        procs.append(biloba_client(BINARY, b.biloba_port, outs[1], "random", "--join", "1",
                                   "--name", "Bob", "--seed", "2", delay_ms=500))
        wait_for("the game's table playing on a",
                 lambda: [t["status"] for t in biloba_tables(a)] == ["playing"], 20)
        b.kill()
        killed = time.time()
        # a ends both relayed sessions, so the game and its table end.
        wait_for("the table over", lambda: [t["status"] for t in biloba_tables(a)] == ["over"], 5)
        print(f"kill9: the table ended {time.time() - killed:.1f} s after b died", flush=True)
        assert "cut short" not in listing(a.biloba_port)
        for p in procs:
            assert p.wait(5) != 0
        assert a.stop() == 0
    finally:
        shut(procs, (a, b))


def main():
    run_scenario({"frames": test_frames, "bounds": test_bounds, "halfclose": test_halfclose,
                  "churn": test_churn,
                  "termhost": test_termhost,
                  "termrelay": test_termrelay, "frozen": test_frozen, "kill9": test_kill9})


if __name__ == "__main__":
    main()
