#!/usr/bin/python3
"""Attacks on `plateau serve --lmtp-port` and `plateau mail-in` (the attack review of issue 15,
/tmp/review/REPORT.md items 1, 4, 10 and 13, and a DATA slowloris), each on a real server:
- a client that pipelines megabytes of commands and never reads: the server grows by less
  than 64 MiB (1.7 GB before the fix) and closes it after --lmtp-idle-timeout;
- a DATA transaction trickled a byte at a time: 421 and closed after --lmtp-data-timeout;
- by default the LMTP port listens on 127.0.0.1 only, even with --bind 0.0.0.0;
- `mail-in --lmtp nocolon` exits 78 (EX_CONFIG), not 65;
- a mail's login issues no resume token (alice keeps her 10 real ones).
Usage: mail_lmtp_attack_test.py PLATEAU_BINARY TEST_DATA_DIR [TEST_NAME]"""
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from mail_test import BINARY, FROM, mail_in, start
from plateau_harness import free_port, run_tests




def lmtp_connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    f = s.makefile("rb")
    assert f.readline().startswith(b"220 ")
    return s, f


def reply(f):
    """The last line of one (multi-line) reply."""
    while True:
        line = f.readline()
        if not line or line[3:4] != b"-":
            return line


def test_pipelining_without_reading():
    # Before the fix: 64 MiB of LHLO took the server to 1.7 GB and the connection stayed open.
    sink, controller, server, lmtp = start(["--lmtp-idle-timeout", "2"])
    try:
        before = server.rss_kib()
        s = socket.create_connection(("127.0.0.1", lmtp), timeout=30)
        chunk = b"LHLO x\r\n" * 8192  # 64 KiB
        sent = 0
        started = time.time()
        error = None
        try:
            while sent < 64 << 20:
                s.sendall(chunk)
                sent += len(chunk)
        except OSError as e:  # the server closed the connection (reset, broken pipe)
            error = e
        took = time.time() - started
        after = server.rss_kib()
        print(f"  sent {sent >> 10} KiB in {took:.1f} s, then {error!r}; RSS {before} -> {after} KiB")
        assert error is not None and not isinstance(error, socket.timeout), error
        assert sent < 32 << 20, sent
        assert took < 20, took
        assert after - before < 64 * 1024, (before, after)  # growth: asan starts at ~220 MB
        s.close()
        # The slot is free and the server answers a normal session.
        assert mail_in(lmtp, "alice@example.org", "signup alice pw-alice-1") == 0
        [m] = sink.take(1)
        assert m["rcpt"] == ["alice@example.org"]
    finally:
        server.stop()
        controller.stop()


def test_idle_client_gets_421():
    sink, controller, server, lmtp = start(["--lmtp-idle-timeout", "1"])
    try:
        s, f = lmtp_connect(lmtp)
        t = time.time()
        assert f.readline().startswith(b"421 4.4.2 "), "no 421"
        assert f.readline() == b""  # closed
        assert time.time() - t < 5
        s.close()
    finally:
        server.stop()
        controller.stop()


def test_data_trickle():
    # A DATA transaction kept open by a byte every 0.3 s (the idle timer alone never fires).
    sink, controller, server, lmtp = start(["--lmtp-idle-timeout", "30", "--lmtp-data-timeout", "2"])
    try:
        s, f = lmtp_connect(lmtp)
        for line, code in [(b"LHLO x", b"250"), (b"MAIL FROM:<a@example.org>", b"250"),
                           (b"RCPT TO:<plateau@plateau.test>", b"250"), (b"DATA", b"354")]:
            s.sendall(line + b"\r\n")
            assert reply(f).startswith(code)
        got = []
        threading.Thread(target=lambda: got.append((f.readline(), f.readline())), daemon=True).start()
        t = time.time()
        try:
            while not got and time.time() - t < 10:
                s.sendall(b"x")
                time.sleep(0.3)
        except OSError:
            pass
        deadline = time.time() + 5
        while not got and time.time() < deadline:
            time.sleep(0.1)
        took = time.time() - t
        assert got, "still open after 10 s of trickling"
        assert got[0][0].startswith(b"421 4.4.2 ") and b"DATA took too long" in got[0][0], got
        assert got[0][1] == b"", got  # closed
        assert 1.5 < took < 6, took
        s.close()
        assert mail_in(lmtp, "alice@example.org", "signup alice pw-alice-1") == 0
    finally:
        server.stop()
        controller.stop()


def listening(port):
    """The local addresses listening on TCP `port` (/proc/net/tcp{,6}), as hex strings."""
    found = []
    for name in ["/proc/net/tcp", "/proc/net/tcp6"]:
        with open(name) as f:
            for row in f.readlines()[1:]:
                local, state = row.split()[1], row.split()[3]
                addr, p = local.split(":")
                if int(p, 16) == port and state == "0A":  # LISTEN
                    found.append(addr)
    return found


def serve_on_every_address(extra):
    """`plateau serve --bind 0.0.0.0` (the harness's Server binds 127.0.0.1): the ports it
    listens on once the LMTP port is up, as {port: [hex addresses]}."""
    with tempfile.TemporaryDirectory(prefix="plateau-it-") as tmp:
        text, http, lmtp = free_port(), free_port(), free_port()
        log = open(os.path.join(tmp, "server.log"), "wb")
        proc = subprocess.Popen([BINARY, "serve", "--data-dir", os.path.join(tmp, "data"), "--bind", "0.0.0.0",
                                 "--text-port", str(text), "--http-port", str(http), "--biloba-port", "0",
                                 "--lmtp-port", str(lmtp), "--mail-from", FROM] + extra,
                                stdout=log, stderr=log)
        try:
            deadline = time.time() + 20
            while not (listening(lmtp) and listening(text)):
                assert proc.poll() is None and time.time() < deadline, open(log.name).read()
                time.sleep(0.1)
            return {"text": listening(text), "lmtp": listening(lmtp)}
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            log.close()


def test_lmtp_binds_loopback():
    # The game ports on every address; LMTP still on loopback only.
    assert serve_on_every_address([]) == {"text": ["00000000"], "lmtp": ["0100007F"]}
    # --lmtp-bind opens it wider for who asks.
    assert serve_on_every_address(["--lmtp-bind", "0.0.0.0"]) == {"text": ["00000000"], "lmtp": ["00000000"]}


def test_mail_in_bad_lmtp():
    raw = b"From: a@example.org\r\nSubject: help\r\n\r\nhi\r\n"
    for target in ["nocolon", ":8024", "127.0.0.1:"]:
        p = subprocess.run([BINARY, "mail-in", "--lmtp", target], input=raw, capture_output=True,
                           timeout=30)
        assert p.returncode == 78, (target, p.returncode, p.stderr)
        assert p.stderr.decode() == f'plateau mail-in: bad --lmtp "{target}": it takes HOST:PORT\n', p.stderr


def test_mail_login_issues_no_token():
    # Before the fix each mail's login issued a token, which pushed alice's oldest real one out.
    sink, controller, server, lmtp = start()
    try:
        A, B = "alice@example.org", "bob@example.org"
        assert mail_in(lmtp, A, "signup alice pw-alice-1") == 0
        assert mail_in(lmtp, B, "signup bob pw-bob-123") == 0
        assert mail_in(lmtp, A, "phutball challenge alice bob") == 0
        sink.take(4)
        for _ in range(10):
            server.text("alice", "pw-alice-1").close()
        db = f"{server.data_dir}/data/plateau.db"

        def tokens():
            with sqlite3.connect(db) as c:
                return sorted(r[0] for r in c.execute(
                    "select selector from resume_tokens where lower(user) = 'alice'"))

        before = tokens()
        assert len(before) == 10, before
        for i in range(3):
            assert mail_in(lmtp, A, "phutball chat 101 alice pw-alice-1", body=f"hi {i}") == 0
        sink.take(6)  # each chat goes to alice and bob
        time.sleep(0.5)
        assert tokens() == before, (before, tokens())
    finally:
        server.stop()
        controller.stop()


if __name__ == "__main__":
    run_tests([t for t in [test_mail_in_bad_lmtp, test_lmtp_binds_loopback, test_idle_client_gets_421,
                           test_pipelining_without_reading, test_data_trickle,
                           test_mail_login_issues_no_token]
               if len(sys.argv) < 4 or t.__name__ == sys.argv[3]])
