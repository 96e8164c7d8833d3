#!/usr/bin/env python3
"""The node link (issue 16 item 2; docs/CLUSTER.md "The node link", "Forwarding"): nodes on one
PostgreSQL cluster of the test's own (tests/integration/pg_cluster.py):
  forward   a client on node b plays a table owned by node a: every answer (text and
            WebSocket, its id kept) is byte for byte what a client on a gets for the same
            command; a move re-sent with its #n is acknowledged once; the current table
            (`/table 101`, then commands without a board) works across nodes; b follows the
            table (its log) and unfollows it when the client leaves;
  place     new tables (`/open`, a challenge of the computer) go to the live node with the
            fewest tables (a tie stays on the client's node) and are played from b;
  attack    on the node port: garbage, a huge length, no secret, a wrong secret, a replayed
            handshake, a forged frame after a good handshake, silence: each connection is cut,
            the refusals are logged (at most one line a second) and the node keeps serving;
            boards named one after the other are looked up at a bounded rate;
  ownerdies the owner is frozen with a command of b's client in flight, then killed: the
            client gets "... is served by node a, which cannot be reached now: try again" at
            once, and once b has taken the table over the move re-sent with its #n is played
            once.
Usage: link_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when the
PostgreSQL server binaries are missing and this is not root."""
import hashlib
import json
import os
import re
import signal
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import TOKENS, answer, free_port, freeze  # noqa: E402
from cluster_test import move, node, owners, wait_for  # noqa: E402

SECRET = b"0123456789abcdef0123456789abcdef-test"  # cluster_test.secret_file's default
UNREACHABLE = r"^error: bohnduell {board} is served by node a, which cannot be reached now: try again$"


def follows_line(log, verb, board):
    return re.search(rf"forward: text \S+ {verb} bohnduell {board} \(table \d+\) of node a", log)


def test_forward(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        a.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        assert owners(pg) == {101: ("a", 1)}
        bob_b = b.text("bob", "pw-bobby")
        bob_a = a.text("bob", "pw-bobby")
        acked = {}
        move(alice, 101, "alice", 1, acked)
        # bob sits at 101, so b follows it for him since his login: the move reaches him there.
        bob_b.expect(r"^bohnduell 101: 1\. A alice \S+$")
        # Read-only answers: the same bytes from b as from a.
        for line in ("show 101", "bohnduell show 101", "show 101#1", "steps 101", "show 999",
                     "move 101 Z99", "move 101 Z9#5"):
            rb, ra = answer(bob_b, line), answer(bob_a, line)
            assert rb == ra, (line, rb, ra)
        # bob moves from b; the same move re-sent with its #n on a is acknowledged once, with
        # the same bytes.
        for tok in TOKENS:
            got = answer(bob_b, f"move 101 {tok}#2")
            if "illegal move" not in got:
                break
        assert re.fullmatch(r"bohnduell 101: 2\. \S+ bob \S+\n(.|\n)*", got), got
        again = answer(bob_a, f"move 101 {tok}#2")
        assert again == got, (again, got)
        third = answer(bob_b, f"move 101 {tok}#2")
        assert third == got, (third, got)
        assert pg.sql(pg.url, "SELECT ply FROM moves ORDER BY ply") == [["1"], ["2"]]
        # b follows the table for bob's connection (remote_follow.h), once.
        wait_for("b's follow line", lambda: follows_line(b.read_log(), "follows", 101), 5)
        print(follows_line(b.read_log(), "follows", 101).group(0), flush=True)
        assert len(re.findall(r"follows bohnduell 101", b.read_log())) == 1, b.read_log()
        # A resync's replay crosses the link too, in order.
        got = answer(bob_b, "resync 101 0")
        assert got == answer(bob_a, "resync 101 0"), got
        assert len(re.findall(r"^bohnduell 101: \d\. ", got, re.M)) == 2, got
        # The browser's protocol on b: the same events as on a, with the command's id.
        ws_b, ws_a = b.ws(), a.ws()
        for ws in (ws_b, ws_a):
            ws.command("login bob pw-bobby")
        for line in ("show 101", "/info 101", "move 101 Z99", "resync 101 1"):
            rb, _ = ws_b.command(line)
            ra, _ = ws_a.command(line)
            assert rb == ra and rb and all("re" in e for e in rb), (line, rb, ra)
        # The current table across nodes: /table 101, then commands without a board.
        carol_b = b.text("carol", "pw-carol", register=True)
        carol_a = a.text("carol", "pw-carol")
        got = answer(carol_b, "/table 101")
        seen = carol_b.buf.count("carol is watching bohnduell 101.")
        assert got == answer(carol_a, "/table 101"), got
        # carol on a is at the table too: carol on b hears it through the feed, once.
        wait_for("the feed's spectators event on b", lambda: carol_b.buf.count(
            "carol is watching bohnduell 101.") == seen + 1, 5)
        got, want = answer(carol_b, "/info"), answer(carol_a, "/info")
        assert got == want, (got, want)
        got = answer(carol_b, "/say hello from b")
        assert got == answer(carol_a, "/say hello from a").replace("from a", "from b"), got
        assert pg.sql(pg.url, "SELECT text FROM chat ORDER BY seq") == [
            ["hello from b"], ["hello from a"]]
        # A spectator on b follows the table; leaving it unfollows.
        watcher = b.text("dave", "pw-dave1", register=True)
        answer(watcher, "/watch 101")
        wait_for("b's follow line for the spectator",
                 lambda: len(re.findall(r"follows bohnduell 101", b.read_log())) >= 3, 5)
        answer(watcher, "/leave 101")
        wait_for("b's unfollow line", lambda: follows_line(b.read_log(), "unfollows", 101), 5)
        # Nothing was served by b itself.
        assert owners(pg) == {101: ("a", 1)}
        assert a.stop() == 0
        assert b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.kill()


def test_spectate(pg):
    """With the event feed (remote_feed.h): a player and a spectator on b hear each move of a
    table owned by a once, with the bytes a client on a hears; the mover on b hears its own move
    once (the answer over the link, not again from the feed)."""
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        a.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        bob_b = b.text("bob", "pw-bobby")
        dave_b = b.text("dave", "pw-dave1", register=True)
        dave_a = a.text("dave", "pw-dave1")
        answer(dave_b, "/watch 101")
        answer(dave_a, "/watch 101")
        acked = {}
        for ply in range(1, 7):
            mover, name = (alice, "alice") if ply % 2 else (bob_b, "bob")
            tok = move(mover, 101, name, ply, acked)
            line = rf"^bohnduell 101: {ply}\. \S+ {name} {tok}$"
            for c in (dave_b, dave_a) + ((bob_b,) if name == "alice" else ()):
                c.expect(line, timeout=5)
        time.sleep(1.0)  # anything doubled would have come by now
        for c in (dave_b, bob_b):
            for ply in range(1, 7):
                n = len(re.findall(rf"^bohnduell 101: {ply}\. ", c.buf, re.M))
                assert n == 1, (ply, n, c.buf[-3000:])
        # The same bytes on b as on a, for the spectator, from the first move on.
        first = lambda c: c.buf[c.buf.index("bohnduell 101: 1. "):]  # noqa: E731
        assert first(dave_b) == first(dave_a), (first(dave_b), first(dave_a))
        assert a.stop() == 0
        assert b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.kill()


def test_place(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        carol = b.text("carol", "pw-carol", register=True)
        # a and b have no table: a tie stays on b.
        carol.send("bohnduell challenge -supply=8 carol cpu:1")
        carol.expect(r"^New BohnDuell Board 101$")
        time.sleep(1.1)  # the loads are cached for 1 s
        # b has one, a none: the next goes to a, answered on b as if made there.
        got = answer(carol, "bohnduell challenge -supply=8 carol cpu:1")
        assert got.startswith("New BohnDuell Board 102\n"), got
        assert owners(pg) == {101: ("b", 1), 102: ("a", 1)}, owners(pg)
        assert re.search(r"forward: text \S+ opened bohnduell 102 \(table \d+\) on node a",
                         b.read_log()), b.read_log()[-3000:]
        # Played from b: the move is run by a.
        acked = {}
        move(carol, 102, "carol", 1, acked)
        time.sleep(1.1)
        # /open goes to a too (one each now: a tie stays on b), then to the emptier one.
        got = answer(carol, "/open bohnduell")
        assert got.startswith("Table bohnduell 103"), got
        assert owners(pg)[103] == ("b", 1)
        time.sleep(1.1)
        got = answer(carol, "/open bohnduell")
        assert got.startswith("Table bohnduell 104"), got
        assert owners(pg)[104] == ("a", 1), (owners(pg), b.read_log()[-3000:])
        # Its current table is 104, on a: /info and /say without a board go there.
        got = answer(carol, "/info")
        assert got.startswith("bohnduell 104 (setup): supply=20, "), got
        answer(carol, "/say on a")
        assert pg.sql(pg.url, "SELECT t.number FROM chat c JOIN tables t ON t.id = c.table_id "
                              "WHERE c.text = 'on a'") == [["104"]]
        # A challenge of another person stays where the challenger is.
        a.text("dave", "pw-dave1", register=True)
        time.sleep(1.1)
        dave = b.text("dave", "pw-dave1")
        dave.send("bohnduell challenge -supply=8 dave carol")
        dave.expect(r"^New BohnDuell Board 105$")
        assert owners(pg)[105] == ("b", 1)
        assert a.stop() == 0
        assert b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.kill()


# ---- a node link client in Python (node_link.h, link_auth.h), for the attacks ----

def blake(key, *parts):
    h = hashlib.blake2b(digest_size=32, key=key)
    for p in parts:
        h.update(struct.pack(">I", len(p)) + p)
    return h.digest()


def link_key(secret):
    return hashlib.blake2b(b"plateau node link v1" + secret, digest_size=32).digest()


class Link:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)

    def send(self, payload):
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)

    def recv(self):
        head = self._exact(4)
        return self._exact(struct.unpack(">I", head)[0])

    def _exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def closed(self):
        """True once the node has closed the connection (within 5 s)."""
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def handshake(self, secret, me="x"):
        """Answers the hello as node `me`; returns (hello, the auth frame sent, keys)."""
        hello = json.loads(self.recv())
        sn = bytes.fromhex(hello["nonce"])
        cn = os.urandom(32)
        key = link_key(secret)
        mac = blake(key, b"handshake", b"client", sn, cn, me.encode(), hello["node"].encode())
        auth = json.dumps({"t": "auth", "node": me, "nonce": cn.hex(), "mac": mac.hex()}).encode()
        self.send(auth)
        return hello, auth, (blake(key, b"session", b"c2s", sn, cn),
                             blake(key, b"session", b"s2c", sn, cn), key, sn, cn)


def test_attack(pg):
    node_port = free_port()
    a = node(pg, "a", node_port=node_port).start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        # Garbage, and a length over 1 MiB: cut at once.
        for data in (b"GET / HTTP/1.0\r\n\r\n", struct.pack(">I", 0xFFFFFFFF) + b"x" * 64,
                     struct.pack(">I", (1 << 20) + 1)):
            ln = Link(node_port)
            json.loads(ln.recv())  # the hello comes first
            ln.sock.sendall(data)
            assert ln.closed(), data
        # No secret (a proof of zeros), a wrong secret: cut, no proof sent back.
        ln = Link(node_port)
        hello = json.loads(ln.recv())
        assert hello["t"] == "hello" and hello["v"] == 1 and hello["node"] == "a", hello
        ln.send(json.dumps({"t": "auth", "node": "x", "nonce": "00" * 32,
                            "mac": "00" * 32}).encode())
        assert ln.closed()
        ln = Link(node_port)
        ln.handshake(b"another secret of at least 32 bytes!!")
        assert ln.closed()
        # The right secret: the node proves it knows it too.
        good = Link(node_port)
        hello, auth, (c2s, s2c, key, sn, cn) = good.handshake(SECRET)
        proof = json.loads(good.recv())
        assert proof == {"t": "proof", "mac": blake(key, b"handshake", b"server", sn, cn, b"x",
                                                    b"a").hex()}, proof
        # That handshake replayed on a new connection (another nonce of the node's): cut.
        ln = Link(node_port)
        ln.recv()
        ln.send(auth)
        assert ln.closed()
        # After a good handshake, a frame with a wrong MAC, then one of an unknown type with a
        # right MAC: each cuts its connection.
        body = b'{"t":"req","id":1}'
        good.send(b"\0" * 32 + body)
        assert good.closed()
        good = Link(node_port)
        hello, auth, (c2s, s2c, key, sn, cn) = good.handshake(SECRET)
        good.recv()
        body = b'{"t":"shutdown"}'
        good.send(blake(c2s, struct.pack(">Q", 0), body) + body)
        assert good.closed()
        # A well-formed request from a peer with the secret is served (the stand-in client's
        # answer to a command it may not run).
        good = Link(node_port)
        hello, auth, (c2s, s2c, key, sn, cn) = good.handshake(SECRET)
        good.recv()
        body = json.dumps({"t": "req", "id": 7, "cid": 1, "user": "mallory", "guest": False,
                           "line": "login alice pw-alice", "comment": ""}).encode()
        good.send(blake(c2s, struct.pack(">Q", 0), body) + body)
        frames = []
        for n in range(2):
            raw = good.recv()
            assert raw[:32] == blake(s2c, struct.pack(">Q", n), raw[32:]), raw
            frames.append(json.loads(raw[32:]))
        assert frames == [
            {"t": "ev", "id": 7, "e": {"type": "error", "seq": 0, "page": "",
                                       "data": {"message": "this command is not run for "
                                                           "another node"}}},
            {"t": "done", "id": 7}], frames
        # Silent connections are cut after the handshake's time-out (5 s).
        ln = Link(node_port)
        ln.recv()
        ln.sock.settimeout(8)
        assert ln.closed()
        # Board after board that no node serves: each is looked up in the database once, 100 a
        # second at most (burst 200) on the whole node; beyond, the client is told to wait.
        lines = []
        for batch in range(20):
            start = alice.pos
            alice.send("\n".join(f"show {5000 + 20 * batch + i}" for i in range(20)) + "\nping")
            m = alice.expect(r"^pong$", timeout=30)
            lines += alice.buf[start:m.start()].splitlines()
        missing = [ln for ln in lines if re.fullmatch(r"error: no board 5\d\d\d", ln)]
        busy = [ln for ln in lines if re.fullmatch(r"error: board 5\d\d\d cannot be looked up now "
                                                   r"\(the server is busy\); try again", ln)]
        assert len(missing) + len(busy) == 400 and len(missing) >= 200 and busy, lines[-5:]
        # The node kept serving, and said why it cut them, without flooding its log.
        alice.send("ping")
        alice.expect(r"^pong$")
        assert a.http_get("/healthz") == (200, "ok\n")
        log = a.read_log()
        refused = re.findall(r"node link: refused 127\.0\.0\.1:\d+: (.*) \((\d+) refusals?", log)
        assert 1 <= len(refused) <= 8, log[-4000:]
        assert sum(int(n) for _, n in refused) <= 9, refused
        assert "a frame of 4294967295 bytes (over 1 MiB)" in log or "over 1 MiB" in log, log
        assert a.stop() == 0
    finally:
        if a.proc and a.alive():
            a.kill()


def test_ownerdies(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        a.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        acked = {}
        move(alice, 101, "alice", 1, acked)
        bob = b.text("bob", "pw-bobby")
        assert answer(bob, "show 101").startswith("Summary of BohnDuell Board 101")  # linked
        freeze(a.proc)
        for tok in TOKENS:
            bob.send(f"move 101 {tok}#2")
            time.sleep(0.5)  # in flight on the link
            a.proc.send_signal(signal.SIGKILL)
            a.proc.wait(10)
            bob.expect(UNREACHABLE.format(board=101), timeout=3)
            break
        # b takes 101 over; the move re-sent with its #n is played once, on b now.
        wait_for("node b to take 101 over", lambda: owners(pg)[101] == ("b", 2), 15)
        time.sleep(2.1)  # b's cache of 101's owner
        for tok in TOKENS:
            bob.send(f"move 101 {tok}#2")
            i, m = bob.expect_any([r"^error: illegal move .*$", r"^bohnduell 101: 2\. \S+ bob (\S+)$"])
            if i == 1:
                break
        bob.send(f"move 101 {m.group(1)}#2")
        bob.expect(rf"^bohnduell 101: 2\. \S+ bob {m.group(1)}$")
        assert pg.sql(pg.url, "SELECT ply FROM moves ORDER BY ply") == [["1"], ["2"]]
        assert b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.proc.send_signal(signal.SIGCONT)
                n.kill()


def main():
    scenario = sys.argv[2]
    start = time.time()
    print(f"--- {scenario}", flush=True)
    with PgCluster() as pg:
        {"forward": test_forward, "place": test_place, "attack": test_attack,
         "ownerdies": test_ownerdies, "spectate": test_spectate}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
