#!/usr/bin/env python3
"""Text is validated once, at the edge (issue 12, item 2): invalid UTF-8 on every transport is
answered with an error naming the byte offset, the line is ignored, nothing changes, and the
server stays up (/healthz) - before the fix, one byte 0xFF in `/option` or `queue` aborted it.
A biloba 0.9.3 player's Latin-1 name is decoded for the lobby ("Andr\\xe9" -> "André"), while
the .blb dump keeps the bytes sent.
Usage: security_input_test.py PLATEAU_BINARY"""
import glob
import json
import os
import socket
import sys
import time

from plateau_harness import Server, run_tests

BINARY = sys.argv[1]


def healthy(server):
    assert server.alive(), server.read_log()[-3000:]
    assert server.http_get("/healthz") == (200, "ok\n"), server.read_log()[-3000:]


def bad_line(client, prefix, suffix=b""):
    """Sends `prefix` + 0xFF + `suffix` + newline and expects the UTF-8 error for it."""
    client.send_raw(prefix + b"\xff" + suffix + b"\n")
    client.expect(rf"^error: invalid UTF-8 at byte {len(prefix)}; line ignored$")
    client.send("ping")
    client.expect(r"^pong$")


def test_text_port():
    server = Server(BINARY).start()
    try:
        alice = server.text("alice", "pw-alice-long", register=True)
        bob = server.text("bob", "pw-bob-long", register=True)
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        _, before = server.http_get("/records/bohnduell/101")

        bad_line(alice, b"queue 101 S1")  # aborted the server before the fix
        healthy(server)
        bad_line(alice, b"say hi ")
        bad_line(alice, b"chat 101 hello ")
        bad_line(alice, b"move 101 S")
        healthy(server)
        assert server.http_get("/records/bohnduell/101") == (200, before)

        guest = server.text()
        guest.send("guest")
        guest.expect(r"^Hello, (guest\d+) \(guest")
        guest.send("/open bohnduell")
        guest.expect(r"^Table bohnduell 102 is open")
        bad_line(guest, b"/option result=")  # aborted the server before the fix
        healthy(server)
        bad_line(guest, b"/say caf", b" au lait")
        healthy(server)

        # Not logged in: a login name with a Latin-1 byte.
        stranger = server.text()
        bad_line(stranger, b"login Andr", b" password-long")
        bad_line(stranger, b"register Andr", b" password-long")
        stranger.send("login alice pw-alice-long")
        stranger.expect(r"^Hello, alice\.$")
        # A truncated sequence, an overlong form and a surrogate are invalid too.
        for prefix, tail in [(b"say ", b"\xc3"), (b"say ", b"\xc0\xaf"), (b"say ", b"\xed\xa0\x80")]:
            stranger.send_raw(prefix + tail + b"\n")
            stranger.expect(rf"^error: invalid UTF-8 at byte {len(prefix)}; line ignored$")
        # Well-formed UTF-8 passes.
        stranger.send("say café ♟")
        stranger.send("ping")
        stranger.expect(r"^pong$")
        assert "invalid UTF-8" not in stranger.pending()
        healthy(server)
        assert server.http_get("/records/bohnduell/101") == (200, before)
        assert server.stop() == 0
    finally:
        server.stop()


def test_websocket():
    """RFC 6455 §8.1: a text message that is not UTF-8 fails the connection (close code 1007,
    Boost.Beast checks each frame); a JSON escape cannot smuggle one in (a lone surrogate is bad
    JSON). Either way the server stays up and other clients are served."""
    server = Server(BINARY).start()
    try:
        other = server.ws()
        assert other.recv()["type"] == "welcome"
        other.command("guest")
        for payload in [b'{"cmd": "/option result=\xff", "id": 7}', b"say \xff",
                        b'{"cmd": "login Andr\xe9 password-long", "id": 8}']:
            ws = server.ws()
            assert ws.recv()["type"] == "welcome"
            ws.command("guest")
            ws.command("/open bohnduell")
            ws.send_frame(payload)
            assert ws.recv() is None and ws.close_code == 1007, (payload, ws.close_code)
            ws.close()
            healthy(server)
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        ws.send_frame(b'{"cmd": "say \\udcff", "id": 3}')
        e = ws.recv()
        assert e == {"type": "error",
                     "message": 'bad JSON command: expected {"cmd": "LINE", "id": N}'}, e
        replies, _ = other.command("ping")
        assert replies and replies[0]["text"] == "pong", replies
        healthy(server)
        assert server.stop() == 0
    finally:
        server.stop()


def raw_http(server, target):
    with socket.create_connection(("127.0.0.1", server.http_port), timeout=5) as s:
        s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data
            data += chunk


def test_http_target():
    server = Server(BINARY).start()
    try:
        for target, offset in [(b"/records/biloba/\xff", 16), (b"/api/tables?x=\xe9", 14)]:
            reply = raw_http(server, target)
            assert reply.startswith(b"HTTP/1.1 400 "), reply
            assert reply.endswith(f"error: invalid UTF-8 at byte {offset} of the request "
                                  "target\n".encode()), reply
        healthy(server)
        assert server.stop() == 0
    finally:
        server.stop()


# The biloba 0.9.3 wire: a string is (length + 1, bytes, NUL), an int (4, big-endian 4 bytes).
def bstr(b):
    return bytes([len(b) + 1]) + b + b"\x00"


def bint(v):
    return b"\x04" + (v & 0xFFFFFFFF).to_bytes(4, "big")


def bchr(c):
    """A play command: one byte, no NUL."""
    return b"\x01" + c


def read_exact(s, n):
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            raise AssertionError(f"closed after {out!r}")
        out += chunk
    return out


def expect(s, data):
    got = read_exact(s, len(data))
    assert got == data, (got, data)


def test_biloba_latin1_name():
    server = Server(BINARY).start()
    try:
        port = server.biloba_port
        a = socket.create_connection(("127.0.0.1", port), timeout=10)
        a.sendall(bstr(b"NEWGAME"))
        expect(a, bstr(b"OK"))
        a.sendall(bstr(b"caf\xe9"))
        game_id = int.from_bytes(read_exact(a, 5)[1:], "big")
        # Two seats: this connection's local "Andr\xe9" (Latin-1) and one network seat.
        details = b"\x02" + b"\x00Andr\xe9\x00" + b"\x01Remote\x00"
        a.sendall(bytes([len(details)]) + details)
        expect(a, bstr(b"READY"))
        b = socket.create_connection(("127.0.0.1", port), timeout=10)
        b.sendall(bstr(b"LISTGAME"))
        expect(b, bstr(b"NUMP"))
        b.sendall(bint(2))
        expect(b, bint(1) + bint(game_id) + bstr(b"caf\xe9"))
        b.sendall(bstr(b"PRELJOIN") + bint(game_id))
        expect(b, bstr(b"OK") + bstr(b"Andr\xe9") + bstr(b"") + bint(2))
        b.sendall(bstr(b"JOIN") + bint(1))
        expect(b, bstr(b"OK"))
        b.sendall(bstr(b"Bob"))
        ready = bint(0) + bint(1) + bstr(b"Bob") + bstr(b"Andr\xe9") + bstr(b"Bob")
        b.sendall(bstr(b"READY?"))
        expect(b, ready)
        a.sendall(bstr(b"READY?"))
        expect(a, ready)

        def relay(frm, to, seat, x, y):
            to.sendall(bchr(b"r") + bint(seat))
            frm.sendall(bchr(b"p") + bint(seat) + bint(x) + bint(y))
            expect(to, bint(x) + bint(y))

        relay(a, b, 0, 1, 3)  # orange b6-b5
        relay(a, b, 0, 1, 4)
        relay(b, a, 1, 7, 5)  # blue h4-h5
        relay(b, a, 1, 7, 4)
        b.sendall(bchr(b"r") + bint(0))
        a.sendall(bchr(b"q") + bint(0))  # orange leaves
        expect(b, bint(-2) + bint(-2))
        a.close()
        b.close()

        deadline = time.time() + 10
        tables = []
        while time.time() < deadline and not tables:
            status, body = server.http_get("/api/tables")  # aborted the server before the fix
            assert status == 200, (status, body)
            tables = [t for t in json.loads(body) if t["game"] == "biloba"]
            time.sleep(0.05)
        assert len(tables) == 1, server.read_log()[-3000:]
        assert [s["name"] for s in tables[0]["seats"]] == ["André", "Bob"], tables
        status, record = server.http_get(f"/records/biloba/{tables[0]['board']}")
        assert status == 200, (status, record)
        assert '[Seats "André,Bob"]' in record, record
        assert "O:b6-b5 B:h4-h5" in record, record
        # The .record beside the dump is UTF-8 too.
        records = glob.glob(os.path.join(server.data_dir, "data", "biloba", "*.record"))
        assert len(records) == 1, records
        with open(records[0], encoding="utf-8") as f:
            kept = f.read()
        assert '[Seats "André,Bob"]' in kept, kept
        assert 'network game %d \\"café\\"' % game_id in kept, kept
        # The dump keeps the wire bytes.
        dumps = glob.glob(os.path.join(server.data_dir, "data", "biloba", "*.blb"))
        assert [os.path.basename(d).encode("utf-8", "surrogateescape") for d in dumps] == \
            [f"{game_id}-caf".encode() + b"\xe9.blb"], dumps
        with open(dumps[0], "rb") as f:
            blb = f.read()
        assert b"Andr\xe9" in blb and "André".encode() not in blb, blb
        healthy(server)
        # The table is in the store: still there after a restart.
        assert server.stop() == 0
        server.start()
        status, body = server.http_get("/api/tables")
        assert [s["name"] for s in json.loads(body)[0]["seats"]] == ["André", "Bob"], body
        assert server.stop() == 0
    finally:
        server.stop()


if __name__ == "__main__":
    run_tests([test_text_port, test_websocket, test_http_target, test_biloba_latin1_name])
