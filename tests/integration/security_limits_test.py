#!/usr/bin/env python3
"""Transport resource caps (issue 12, item 6), each against a real `plateau serve`:
  * a reader that falls behind by more than --max-output-bytes (1 MiB) is closed, and 20 of
    them (text and WebSocket) do not grow the server by more than 64 MiB;
  * connections per address (--max-connections-per-address) and in all (--max-connections),
    counted across the text, HTTP/WebSocket and biloba ports, are refused at accept;
  * a connection that has not logged in within --login-timeout, or that holds a partial line
    for --partial-line-timeout, is closed;
  * with the descriptor limit reached, accept backs off and logs at most once per second, and
    a new client gets in once descriptors are free.
Usage: security_limits_test.py PLATEAU_BINARY"""
import json
import os
import re
import resource
import socket
import sys
import time

from plateau_harness import Server, WsClient, admitted, run_tests, sanitized

BINARY = sys.argv[1]
BACKLOG_LINE = "output backlog over 1048576 bytes; closing"


def healthy(server):
    assert server.alive(), server.read_log()[-3000:]
    assert server.http_get("/healthz") == (200, "ok\n"), server.read_log()[-3000:]


def slow_socket(port):
    """A connection whose receive buffer is small, so that the server's output piles up on
    the server's side instead of in this process's kernel buffer."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    return s


def ws_frame(payload):
    mask = os.urandom(4)
    return (bytes([0x81, 0x80 | len(payload)]) + mask +
            bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def slow_ws(port):
    s = slow_socket(port)
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert b" 101 " in head, head
    return s


def test_slow_readers_are_closed_and_memory_stays_bounded():
    """20 spectators (10 text, 10 WebSocket) of a busy table never read: each is closed once
    more than 1 MiB waits for it, and the server's memory stays bounded."""
    server = Server(BINARY, extra=["--rate", "100000"]).start()
    try:
        talker = server.text()
        talker.send("guest")
        talker.expect(r"^Hello, guest\d+")
        talker.send("/open bohnduell")
        m = talker.expect(r"^Table bohnduell (\d+) is open")
        board = m.group(1).encode()
        readers = []
        for i in range(10):
            t = slow_socket(server.text_port)
            t.sendall(b"guest\n/watch " + board + b"\n")
            readers.append(t)
            w = slow_ws(server.http_port)
            w.sendall(ws_frame(b"guest") + ws_frame(b"/watch " + board))
            readers.append(w)
        talker.send("who")
        time.sleep(1)
        baseline = server.rss_kib()
        peak = baseline
        chat = "say " + "x" * 900  # chat lines are at most 1000 bytes
        deadline = time.time() + 60
        sent = 0
        while time.time() < deadline:
            # Paced by a ping: the talker's own lines must never be 100 waiting (a flood).
            talker.sock.sendall(((chat + "\n") * 50 + "ping\n").encode())
            sent += 50
            talker.expect(r"^pong$", timeout=20)  # the talker reads: it is never closed
            with talker.lock:  # keep only what is not consumed
                talker.buf, talker.pos = talker.buf[talker.pos:], 0
            peak = max(peak, server.rss_kib())
            if server.read_log().count(BACKLOG_LINE) >= len(readers):
                break
        log = server.read_log()
        assert log.count(BACKLOG_LINE) == len(readers), log[-3000:]
        assert "commands waiting" not in log, log[-3000:]
        for s in readers:
            s.close()
        growth_mib = (peak - baseline) / 1024
        print(f"RSS: baseline {baseline // 1024} MiB, peak {peak // 1024} MiB, growth "
              f"{growth_mib:.1f} MiB with {len(readers)} slow readers after {sent} chat lines",
              flush=True)
        # ASan keeps freed memory in quarantine (256 MiB by default): the bound is the release
        # build's; under the sanitizers the closing of every reader is what is checked.
        assert growth_mib < 64 or sanitized(BINARY), growth_mib
        c = server.text()
        c.send("guest")
        c.expect(r"^Hello, guest\d+")
        c.send("ping")
        c.expect(r"^pong$", timeout=5)
        healthy(server)
        assert server.stop() == 0
    finally:
        server.stop()


def read_all(s, timeout=5):
    s.settimeout(timeout)
    data = b""
    while True:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            raise AssertionError(f"not closed; got {data!r}")
        if not chunk:
            return data
        data += chunk


def test_connections_per_address_across_ports():
    server = Server(BINARY, extra=["--max-connections-per-address", "3"]).start()
    try:
        text = [admitted(server.text) for _ in range(2)]
        ws = admitted(server.ws)  # the third, on the HTTP port
        assert ws.recv()["type"] == "welcome"
        # A fourth on each port is refused at once.
        s = socket.create_connection(("127.0.0.1", server.text_port), timeout=5)
        assert read_all(s) == b"error: too many connections from your address\n"
        s.close()
        s = socket.create_connection(("127.0.0.1", server.http_port), timeout=5)
        reply = read_all(s)
        assert reply.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), reply
        assert reply.endswith(b"\r\n\r\ntoo many connections from your address\n"), reply
        s.close()
        s = socket.create_connection(("127.0.0.1", server.biloba_port), timeout=5)
        try:
            s.sendall(b"\x09LISTGAME\x00")
        except OSError:
            pass
        try:
            assert read_all(s) == b""  # closed without an answer
        except ConnectionResetError:
            pass
        s.close()
        # Leaving makes room.
        text[0].sock.shutdown(socket.SHUT_RDWR)  # close() alone waits for the reader thread
        text[0].close()
        deadline = time.time() + 5
        while True:
            s = socket.create_connection(("127.0.0.1", server.text_port), timeout=5)
            first = s.recv(200)
            if first.startswith(b"Welcome to Plateau") or time.time() > deadline:
                break
            s.close()
            time.sleep(0.05)
        assert first.startswith(b"Welcome to Plateau"), first
        s.close()
        assert server.stop() == 0
    finally:
        server.stop()


def test_connections_in_all():
    server = Server(BINARY, extra=["--max-connections", "2"]).start()
    try:
        a, b = admitted(server.text), admitted(server.text)
        s = socket.create_connection(("127.0.0.1", server.text_port), timeout=5)
        assert read_all(s) == b"error: too many connections; try again later\n"
        s.close()
        a.send("ping")
        a.expect(r"^pong$")
        assert server.stop() == 0
    finally:
        server.stop()


def test_login_and_partial_line_timeouts():
    server = Server(BINARY, extra=["--login-timeout", "2", "--partial-line-timeout", "1"]).start()
    try:
        start = time.time()
        silent = server.text()
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        guest = server.text()
        guest.send("guest")
        guest.expect(r"^Hello, guest\d+")
        silent.expect(r"^error: not logged in within 2 s \(register, login or guest\); closing "
                      r"the connection$", timeout=6)
        assert silent.wait_closed(3)
        assert time.time() - start >= 1.9
        e = ws.recv(6)
        assert e == {"type": "error", "message": "not logged in within 2 s (register, login or "
                     "guest); closing the connection"}, e
        assert ws.recv(3) is None  # closed
        # The guest is still served after the login timeout, on complete lines.
        for _ in range(4):
            guest.send("ping")
            guest.expect(r"^pong$")
            time.sleep(0.4)

        # A partial line, however slowly it grows, closes the connection after 1 s.
        slow = server.text()
        slow.send("guest")
        slow.expect(r"^Hello, guest\d+")
        t0 = time.time()
        try:
            for ch in b"ping":
                slow.send_raw(bytes([ch]))
                time.sleep(0.4)
        except OSError:
            pass
        slow.expect(r"^error: line not finished within 1 s; closing the connection$", timeout=4)
        assert slow.wait_closed(3)
        assert 0.9 <= time.time() - t0 < 4, time.time() - t0
        assert "pong" not in slow.pending()
        healthy(server)
        assert server.stop() == 0
    finally:
        server.stop()


def low_descriptor_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def test_accept_backs_off_without_descriptors():
    if sanitized(BINARY):  # see plateau_harness.sanitized
        print("skipped under the sanitizers (they need descriptors of their own)")
        return
    server = Server(BINARY, extra=["--max-connections-per-address", "1000"],
                    preexec_fn=low_descriptor_limit).start()
    try:
        held = []
        for _ in range(100):  # more than the server's 64 descriptors: the rest wait in the backlog
            held.append(socket.create_connection(("127.0.0.1", server.text_port), timeout=5))
        t0 = time.time()
        time.sleep(3)
        log = server.read_log()
        failures = [l for l in log.splitlines() if "accept failed" in l]
        assert failures, "the descriptor limit was never reached:\n" + log[-2000:]
        # At most one line per second (the first at once), each counting the failures since.
        assert len(failures) <= 5, f"{len(failures)} accept failure lines in 3 s"
        assert re.search(r"Too many open files", failures[0]), failures[0]
        for s in held:
            s.close()
        # Once the descriptors are free, a new client gets in and is served.
        deadline = time.time() + 15
        while True:
            try:
                c = server.text()
                break
            except (AssertionError, OSError):
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        c.send("guest")
        c.expect(r"^Hello, guest\d+")
        c.send("ping")
        c.expect(r"^pong$")
        healthy(server)
        assert server.stop() == 0
    finally:
        server.stop()


if __name__ == "__main__":
    run_tests([test_connections_per_address_across_ports, test_connections_in_all,
               test_login_and_partial_line_timeouts, test_accept_backs_off_without_descriptors,
               test_slow_readers_are_closed_and_memory_stays_bounded])
