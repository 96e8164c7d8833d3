#!/usr/bin/env python3
"""Attacks on the HTTP port of a real `plateau serve` (issue 12, items 1 and 11):
- static files: every way out of the web root (two slashes, encoded slashes and dots, symlinks,
  directories, NUL, the data directory) answers 404 with no file content, while the web root's
  own files are served byte for byte;
- TLS: HTTPS and WSS with a self-signed certificate made by the openssl command, plain HTTP on
  the TLS port is not served, a silent TLS client is dropped at --tls-handshake-timeout, and bad
  certificate or key files stop `plateau serve` with one line and exit status 2;
- the WebSocket Origin check: another site's page is refused with 403.
Usage: security_http_test.py PLATEAU_BINARY [TEST_DATA]"""
import os
import socket
import subprocess
import sys
import tempfile
import time

from plateau_harness import (HandshakeRefused, Server, free_port, make_self_signed_cert,
                             run_tests)

BINARY = sys.argv[1]

INDEX = b"<!doctype html>\n<title>Plateau \xc2\xb7 test</title>\n"
APP_JS = b"export const x = 1;\n"
NOT_FOUND = (404, b"not found\n")


def get(server, target):
    return server.raw_http(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Connection: close\r\n\r\n".encode())


def make_web_dir(base):
    web = os.path.join(base, "web")
    os.makedirs(os.path.join(web, "assets"))
    with open(os.path.join(web, "index.html"), "wb") as f:
        f.write(INDEX)
    with open(os.path.join(web, "assets", "app.js"), "wb") as f:
        f.write(APP_JS)
    return web


def test_static_files_stay_inside_the_web_root():
    with tempfile.TemporaryDirectory(prefix="plateau-web-") as base:
        web = make_web_dir(base)
        server = Server(BINARY, extra=["--web-dir", web])
        data = os.path.join(server.data_dir, "data")
        # Symlinks inside the root that lead out of it: to a file, and to the data directory.
        os.symlink("/etc/passwd", os.path.join(web, "passwd"))
        os.symlink(data, os.path.join(web, "store"))
        server.start()
        try:
            # A login writes the WAL: the account's Argon2id hash is in a file of the data dir.
            server.text("mallory", "pw-mallory-secret", register=True).close()
            assert os.path.exists(os.path.join(data, "plateau.db"))
            assert get(server, "/") == (200, INDEX)
            assert get(server, "/index.html") == (200, INDEX)
            assert get(server, "/assets/app.js") == (200, APP_JS)
            attacks = [
                "//etc/passwd",
                "/%2Fetc%2Fpasswd",
                "/%2fetc%2fpasswd",
                "/..%2f..%2fetc/passwd",
                "/../../../../etc/passwd",
                "/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                "//proc/self/cmdline",
                "/%2Fproc%2Fself%2Fcmdline",
                "/" + data + "/plateau.db",
                "/" + data + "/plateau.db-wal",
                "/" + data.replace("/", "%2F") + "%2Fplateau.db",
                "/passwd",
                "/store/plateau.db",
                "/assets",
                "/assets/",
                "/index.html%00.js",
                "/%00",
                "/assets%5capp.js",
                "/index.html%",
            ]
            for target in attacks:
                status, body = get(server, target)
                assert (status, body) == NOT_FOUND, (target, status, body[:200])
            # The server is still up and serving.
            assert get(server, "/index.html") == (200, INDEX)
            assert server.stop() == 0
        finally:
            if server.alive():
                server.kill()


def test_the_data_directory_is_never_served():
    # --web-dir equal to the data directory: nothing in it is a web file.
    server = Server(BINARY)
    data = os.path.join(server.data_dir, "data")
    os.makedirs(data)
    with open(os.path.join(data, "index.html"), "wb") as f:
        f.write(INDEX)
    server.extra += ["--web-dir", data]
    server.start()
    try:
        server.text("mallory", "pw-mallory-secret", register=True).close()
        for target in ["/plateau.db", "/plateau.db-wal", "/index.html", "/server.log"]:
            assert get(server, target) == NOT_FOUND, target
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_websocket_origin_check():
    allowed = "https://play.example.org"
    server = Server(BINARY, extra=["--allow-origin", allowed]).start()
    try:
        for origin in ["http://evil.example", "https://127.0.0.1:%d" % server.http_port,
                       "http://127.0.0.1:%d" % free_port(), "null"]:
            try:
                server.ws(origin=origin)
                raise AssertionError(f"Origin {origin} was let in")
            except HandshakeRefused as e:
                assert e.status == 403, e
                assert e.head.startswith(b"HTTP/1.1 403 Forbidden\r\n"), e
        for origin in [None, f"http://127.0.0.1:{server.http_port}", allowed]:
            ws = server.ws(origin=origin)
            assert ws.recv()["type"] == "welcome", origin
            ws.close()
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_https_and_wss():
    with tempfile.TemporaryDirectory(prefix="plateau-tls-") as base:
        web = make_web_dir(base)
        cert, key = make_self_signed_cert(base)
        server = Server(BINARY, tls=(cert, key),
                        extra=["--web-dir", web, "--tls-handshake-timeout", "1"]).start()
        try:
            assert server.http_get("/healthz") == (200, "ok\n")
            assert get(server, "/index.html") == (200, INDEX)
            assert get(server, "//etc/passwd") == NOT_FOUND
            ws = server.ws(origin=f"https://127.0.0.1:{server.http_port}")
            assert ws.recv()["type"] == "welcome"
            replies, _ = ws.command("register tina pw-tina-secret")
            assert len(replies[0].pop("token", "")) == 43, replies  # the resume token
            assert replies == [{"type": "login", "user": "tina", "guest": False, "re": 1,
                                "text": "Welcome, tina. Your account is created."}], replies
            replies, _ = ws.command("who")
            assert replies and replies[0].get("type") != "error", replies
            ws.close()
            # A page served over plain HTTP is another origin.
            try:
                server.ws(origin=f"http://127.0.0.1:{server.http_port}")
                raise AssertionError("http:// origin let in on the TLS port")
            except HandshakeRefused as e:
                assert e.status == 403, e
            # Plain HTTP on the TLS port: no HTTP answer, nothing served.
            sock = socket.create_connection(("127.0.0.1", server.http_port), timeout=5)
            sock.sendall(b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            raw = b""
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    raw += chunk
            except ConnectionResetError:
                pass
            sock.close()
            assert b"HTTP/" not in raw and INDEX not in raw, raw
            # A client that connects and never says hello is dropped at the handshake timeout.
            sock = socket.create_connection(("127.0.0.1", server.http_port), timeout=5)
            start = time.time()
            try:
                assert sock.recv(1) == b""
            except ConnectionResetError:
                pass
            waited = time.time() - start
            sock.close()
            assert 0.5 < waited < 3.5, waited
            assert server.http_get("/healthz") == (200, "ok\n")
            assert server.stop() == 0
        finally:
            if server.alive():
                server.kill()


def serve_fails(args):
    """Runs `plateau serve ARGS` on free ports: (exit status, standard error)."""
    with tempfile.TemporaryDirectory(prefix="plateau-it-") as data:
        p = subprocess.run([BINARY, "serve", "--data-dir", os.path.join(data, "data"),
                            "--bind", "127.0.0.1", "--text-port", str(free_port()),
                            "--http-port", str(free_port()), "--biloba-port", "0"] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
        return p.returncode, p.stderr.decode()


def test_bad_tls_files_stop_the_start():
    with tempfile.TemporaryDirectory(prefix="plateau-tls-") as base:
        cert, key = make_self_signed_cert(base)
        other_cert, other_key = make_self_signed_cert(base, "other")
        garbage = os.path.join(base, "garbage.pem")
        with open(garbage, "w") as f:
            f.write("this is not a certificate\n")
        missing = os.path.join(base, "missing.pem")
        cases = [
            (["--tls-cert", garbage, "--tls-key", key],
             f"plateau: cannot load the TLS certificate {garbage}: "),
            (["--tls-cert", cert, "--tls-key", garbage],
             f"plateau: cannot load the TLS private key {garbage}: "),
            (["--tls-cert", cert, "--tls-key", other_key],
             f"plateau: the TLS private key {other_key} does not belong to the certificate "
             f"{cert}\n"),
            (["--tls-cert", missing, "--tls-key", key],
             f"plateau: --tls-cert: File does not exist: {missing} (try --help)\n"),
            (["--tls-cert", cert], "plateau: --tls-cert requires --tls-key (try --help)\n"),
            (["--allow-origin", "evil.example"],
             "plateau: --allow-origin: an origin starts with http:// or https:// (try --help)\n"),
        ]
        for args, want in cases:
            status, err = serve_fails(args)
            assert status == 2, (args, status, err)
            assert err.startswith(want) and err.count("\n") == 1, (args, err)


if __name__ == "__main__":
    run_tests([test_static_files_stay_inside_the_web_root, test_the_data_directory_is_never_served,
               test_websocket_origin_check, test_https_and_wss, test_bad_tls_files_stop_the_start])
