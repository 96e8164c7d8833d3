"""Helpers for the server's loopback integration tests: start `plateau serve` on free ports with
a temporary data directory, and talk to it as a text client, a WebSocket client (stdlib only)
or over HTTP."""
import base64
import json
import os
import re
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def sanitized(binary):
    """True for an ASan/UBSan build (the asan pass of make test). Such a build cannot run out of
    file descriptors: UBSan's vptr check reads memory through a pipe(), and with no descriptor
    left it reports "invalid vptr" on sound objects and stops the process (README, make
    test-asan). A test that exhausts descriptors runs in the release pass only."""
    import mmap
    with open(binary, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        return m.find(b"__asan_init") >= 0


def freeze(proc, timeout=5):
    """SIGSTOPs `proc` and returns once every one of its threads is stopped. kill() returns
    before a multi-threaded process has stopped: a server sent SIGSTOP still answered a ping
    sent right after it about 1 time in 6 (link_test's ownerdies failed so in CI)."""
    proc.send_signal(signal.SIGSTOP)
    deadline = time.time() + timeout
    while True:
        states = []
        for task in os.listdir(f"/proc/{proc.pid}/task"):
            try:
                with open(f"/proc/{proc.pid}/task/{task}/stat") as f:
                    states.append(f.read().rsplit(") ", 1)[1].split()[0])
            except OSError:  # the thread ended meanwhile
                pass
        if all(s in "Tt" for s in states):
            return
        if time.time() > deadline:
            raise AssertionError(f"process {proc.pid} not stopped after {timeout} s: {states}")
        time.sleep(0.001)


def wait_for(what, check, timeout):
    """check()'s first true value, asked every 50 ms; AssertionError after `timeout` s."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


_held_ports = []  # lock files of the ports this process handed out, held until it exits


def _unreserved_range():
    """Ports the kernel never hands out as ephemeral (outbound) ports: below the low end of
    ip_local_port_range, or above its high end when the range starts too low."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low, high = (int(x) for x in f.read().split())
    except (OSError, ValueError):
        low, high = 32768, 60999
    return (10000, low - 1) if low > 12000 else (high + 1, 65535)


def free_port():
    """A TCP port free on every address now and reserved for this process until it exits.

    A port the kernel picked with bind(0) is an ephemeral port: between this call and the
    server's bind, another test's outbound connection could take it as its source port, or a
    concurrent test could be handed the same one ("bind: Address already in use", CI run of
    2026-12-03). So the port comes from outside the ephemeral range, and a lock file under
    /tmp/plateau-test-ports keeps every test process of the run off it."""
    import fcntl
    import random
    low, high = _unreserved_range()
    folder = os.path.join(tempfile.gettempdir(), "plateau-test-ports")
    os.makedirs(folder, exist_ok=True)
    for _ in range(500):
        port = random.randint(low, high)
        fd = os.open(os.path.join(folder, str(port)), os.O_CREAT | os.O_RDWR, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        try:
            with socket.socket() as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(("0.0.0.0", port))
        except OSError:
            os.close(fd)
            continue
        _held_ports.append(fd)
        return port
    raise RuntimeError(f"no free port in {low}-{high}")


class Server:
    """A `plateau serve` process. Reuse data_dir to restart on the same store."""

    def __init__(self, binary, data_dir=None, extra=(), tls=None, preexec_fn=None):
        """`tls` = (cert_file, key_file): HTTPS and WSS on the HTTP port, trusted by the
        helpers below as their only certificate authority (see make_self_signed_cert)."""
        self.binary = binary
        self.tls = tls
        self.preexec_fn = preexec_fn  # run in the child before exec (e.g. resource limits)
        self.ssl_context = None
        if tls:
            self.ssl_context = ssl.create_default_context(cafile=tls[0])
            extra = list(extra) + ["--tls-cert", tls[0], "--tls-key", tls[1]]
        self.tmp = None
        if data_dir is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="plateau-it-")
            data_dir = self.tmp.name
        self.data_dir = data_dir
        self.extra = list(extra)
        self.proc = None
        self.text_port = self.http_port = self.biloba_port = None

    def start(self, text_port=None, http_port=None, biloba_port=None):
        self.text_port = text_port or free_port()
        self.http_port = http_port or free_port()
        # 0: no biloba 0.9.3 port (the server's own meaning of --biloba-port 0).
        self.biloba_port = free_port() if biloba_port is None else biloba_port
        self.log = open(os.path.join(self.data_dir, "server.log"), "ab")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--data-dir", os.path.join(self.data_dir, "data"),
             "--bind", "127.0.0.1", "--text-port", str(self.text_port),
             "--http-port", str(self.http_port), "--biloba-port", str(self.biloba_port)] + self.extra,
            stdout=self.log, stderr=self.log, preexec_fn=self.preexec_fn)
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited: " + self.read_log())
            try:
                if self.http_get("/healthz") == (200, "ok\n"):
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not become healthy")

    def read_log(self):
        with open(os.path.join(self.data_dir, "server.log"), "rb") as f:
            return f.read().decode(errors="replace")

    def http_get(self, path):
        scheme = "https" if self.tls else "http"
        try:
            with urllib.request.urlopen(f"{scheme}://127.0.0.1:{self.http_port}{path}", timeout=5,
                                        context=self.ssl_context) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def kill(self):
        """SIGKILL: no chance to flush anything."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def stop(self):
        """SIGTERM: graceful shutdown; returns the exit status."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise RuntimeError("server did not stop on SIGTERM")
        self.log.close()
        return self.proc.returncode

    def alive(self):
        return self.proc.poll() is None

    def rss_kib(self):
        """The server's resident memory (VmRSS) in KiB."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def text(self, name=None, password=None, register=False, source=None, timeout=10):
        """A text client, logged in if `name` is given. `source`: the local address to connect
        from (any of 127.0.0.0/8 on Linux), to be a different client address on loopback;
        `timeout`: seconds of silence after which the client takes the connection as closed."""
        c = TextClient(self.text_port, source, timeout)
        c.expect(r"Welcome to Plateau")
        if name:
            c.send(("register " if register else "login ") + f"{name} {password}")
            c.expect(r"(Welcome|Hello), " + name)
        return c

    def ws(self, origin=None):
        return WsClient(self.http_port, origin=origin, ssl_context=self.ssl_context)

    def raw_http(self, request):
        """Sends `request` (bytes, exactly as given: no normalisation of the target) on the HTTP
        port and reads until the server closes: (status, body bytes); status None when the
        server answered nothing that parses as HTTP."""
        return raw_http(self.http_port, request, self.ssl_context)


def raw_http(port, request, ssl_context=None, timeout=10):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    if ssl_context:
        sock = ssl_context.wrap_socket(sock, server_hostname="127.0.0.1")
    try:
        sock.sendall(request)
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, ssl.SSLError):
                break
            if not chunk:
                break
            data += chunk
    finally:
        sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", head)
    if not m:
        return None, data
    return int(m.group(1)), body


def make_self_signed_cert(directory, name="server"):
    """A certificate for 127.0.0.1 and its key, made with the openssl command in `directory`:
    (cert_file, key_file)."""
    cert = os.path.join(directory, name + "-cert.pem")
    key = os.path.join(directory, name + "-key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


class HandshakeRefused(AssertionError):
    """The server answered a WebSocket upgrade with something other than 101."""

    def __init__(self, head):
        super().__init__("handshake refused: " + head.decode(errors="replace"))
        self.head = head
        self.status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else None


def answer(client, line):
    """Everything the text port answers to `line` (up to the reply to a ping sent after it)."""
    client.send("ping")
    client.expect(r"^pong\n")  # what came before (login lines, notices) is not the answer
    start = client.pos
    client.send(line)
    client.send("ping")
    m = client.expect(r"^pong\n")
    return client.buf[start:m.start()]


class TextClient:
    def __init__(self, port, source=None, timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.buf = ""
        self.pos = 0
        self.closed = False
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            with self.lock:
                if not data:
                    self.closed = True
                    self.lock.notify_all()
                    return
                self.buf += data.decode(errors="replace")
                self.lock.notify_all()

    def send(self, line):
        self.sock.sendall((line + "\n").encode())

    def send_raw(self, data):
        self.sock.sendall(data)

    def expect(self, pattern, timeout=10):
        """Waits for `pattern` in the output not yet consumed; consumes up to its end."""
        rx = re.compile(pattern, re.M)
        deadline = time.time() + timeout
        with self.lock:
            while True:
                m = rx.search(self.buf, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                left = deadline - time.time()
                if left <= 0 or self.closed:
                    raise AssertionError(f"expected /{pattern}/; got:\n{self.buf[self.pos:][-3000:]}"
                                         + ("\n(connection closed)" if self.closed else ""))
                self.lock.wait(left)

    def expect_any(self, patterns, timeout=10):
        """The first of `patterns` to appear: (index, match)."""
        rx = re.compile("|".join(f"(?P<p{i}>{p})" for i, p in enumerate(patterns)), re.M)
        m = self.expect(rx.pattern, timeout)
        for i in range(len(patterns)):
            if m.group(f"p{i}") is not None:
                # Re-match the chosen pattern alone so that its groups number from 1.
                return i, re.compile(patterns[i], re.M).match(m.group(0))
        raise AssertionError("unreachable")

    def pending(self):
        with self.lock:
            return self.buf[self.pos:]

    def wait_closed(self, timeout=10):
        deadline = time.time() + timeout
        with self.lock:
            while not self.closed and time.time() < deadline:
                self.lock.wait(0.1)
        return self.closed

    def close(self):
        # shutdown first: a bare close() while the reader thread is in recv() would leave the
        # connection open until that recv() returns.
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


class WsClient:
    """A minimal RFC 6455 client: text frames, masking, close frames."""

    def __init__(self, port, path="/ws", origin=None, ssl_context=None):
        """`origin`: an Origin header, as a browser sends; `ssl_context`: wss://."""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if ssl_context:
            self.sock = ssl_context.wrap_socket(self.sock, server_hostname="127.0.0.1")
        key = base64.b64encode(os.urandom(16)).decode()
        origin_line = f"Origin: {origin}\r\n" if origin else ""
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n" + origin_line +
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise AssertionError("handshake failed: " + head.decode(errors="replace"))
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            self.sock.close()
            raise HandshakeRefused(head)
        self.next_id = 1
        self.events = []
        self.close_code = None

    def _recv_exact(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise EOFError
            out += chunk
        return out

    def send_frame(self, payload, opcode=1):
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + body)

    def recv(self, timeout=10):
        """Next event as a dict; None once the server closed."""
        self.sock.settimeout(timeout)
        while True:
            try:
                b0, b1 = self._recv_exact(2)
            except (EOFError, OSError):
                return None
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            payload = self._recv_exact(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                self.close_code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                return None
            if opcode == 9:
                continue
            if opcode == 1:
                return json.loads(payload.decode())

    def command(self, line, timeout=10):
        """Sends {"cmd": line, "id": N}; returns (reply events, other events) up to the last
        reply. The server tags every reply with "re": N and finishes a command's replies before
        the next command runs, so the replies end when a ping sent after it is answered."""
        cid = self.next_id
        self.next_id += 2
        self.send_frame(json.dumps({"cmd": line, "id": cid}).encode())
        self.send_frame(json.dumps({"cmd": "ping", "id": cid + 1}).encode())
        replies, others = [], []
        while True:
            e = self.recv(timeout)
            if e is None:
                raise AssertionError(f"connection closed during {line!r}")
            if e.get("re") == cid + 1:
                return replies, others
            (replies if e.get("re") == cid else others).append(e)
            self.events.append(e)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# BohnDuell move tokens, harvests first so that games end sooner.
TOKENS = ["H1", "H2", "H3", "H4", "S4", "S3", "S2", "S1"]


def play_to_end(clients, board, first, game="bohnduell", prefix="move {board} ", played=None):
    """Plays `board` to its end: the player to move tries TOKENS in order (illegal ones must be
    refused with an error and change nothing). Returns [(player, move)] and the final status."""
    played = [] if played is None else played
    turn = first
    while True:
        c = clients[turn]
        ply = len(played) + 1
        for tok in TOKENS:
            c.send(prefix.format(board=board) + f"{tok}#{ply}")
            i, m = c.expect_any([r"^error: (.*)$",
                                 rf"^{game} {board}: {ply}\. \S+ {turn} (\S+)$"])
            if i == 0:
                assert "illegal move" in m.group(1), m.group(1)
                continue
            assert m.group(1) == tok
            played.append((turn, tok))
            break
        else:
            raise AssertionError(f"no legal token for {turn} at ply {ply}")
        i, m = c.expect_any([r"^It is (\w+)'s turn\.$", r"^Game won by (\w+)\.$",
                             r"^Game was a tie\.$"])
        if i == 0:
            turn = m.group(1)
            assert turn in clients, turn
            continue
        return played, m.group(0)


def record_moves(record):
    body = "\n".join(l for l in record.splitlines() if not l.startswith("["))
    return [t for t in body.split() if not t.endswith(":pass")]



def admitted(connect, timeout=5):
    """Calls `connect()` (a client constructor) until the server admits the connection.
    The harness's own /healthz probe (Server.start) is counted against the connection limits
    until the server has torn it down, a moment after the client has read its answer; a test
    of those limits opens its first connections through here, so that the probe's lingering
    place does not refuse them."""
    deadline = time.time() + timeout
    while True:
        try:
            return connect()
        except AssertionError as e:  # HandshakeRefused is one
            refused = getattr(e, "status", None) == 503 or "too many connections" in str(e)
            if not refused or time.time() > deadline:
                raise
            time.sleep(0.05)


def biloba_client(plateau, port, out, level, *args, delay_ms=0):
    """A `biloba` client (beside the `plateau` binary) on the biloba 0.9.3 port `port` whose
    seat bot `level` plays, `delay_ms` before each click; its output goes to the file `out`."""
    biloba = os.path.join(os.path.dirname(plateau), "biloba")
    return subprocess.Popen([biloba, "127.0.0.1", "--port", str(port), "--cpu", "--level", level,
                             "--cpu-delay", str(delay_ms), "-q"] + list(args),
                            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)


def finish(proc, out, timeout):
    """A process's exit status and its output file `out` (killed after `timeout` s)."""
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    out.seek(0)
    return proc.returncode, out.read().decode(errors="replace")


def run_tests(tests):
    """Runs each test function, printing its name; exits 1 on the first failure."""
    for t in tests:
        start = time.time()
        print(f"--- {t.__name__}", flush=True)
        t()
        print(f"ok  {t.__name__} ({time.time() - start:.1f} s)", flush=True)
