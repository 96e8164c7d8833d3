#!/usr/bin/python3
"""Play by e-mail (issue 15; docs/MAIL.md): a real `plateau serve --lmtp-port --smtp` and a real
SMTP sink (aiosmtpd). A short Phutball game by mail alone (sign-ups, a challenge with a handicap,
moves with #n, a comment, a wrong #n and a wrong password answered by error mails quoting the
original, a queued move, an undo accepted by mail,
a resignation), checking every mail's To, Subject, threading headers and the board page
against the text transport's page byte for byte; then bad mail (no Subject, a 1 MB Subject,
broken MIME, invalid UTF-8, an auto-reply, raw LMTP abuse) that is answered or dropped while the
server goes on serving.
Run with /usr/bin/python3 (Debian's python3-aiosmtpd).
Usage: mail_test.py PLATEAU_BINARY TEST_DATA_DIR"""
import email
import email.policy
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time

from aiosmtpd.controller import Controller

from plateau_harness import Server, answer, free_port, run_tests

BINARY = sys.argv[1]
FROM = "plateau@plateau.test"


class Sink:
    """The SMTP server the Plateau server sends to: keeps every mail."""

    def __init__(self):
        self.mails = []
        self.seen = 0
        self.cv = threading.Condition()

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.cv:
            self.mails.append({"rcpt": list(envelope.rcpt_tos), "from": envelope.mail_from,
                               "msg": msg, "raw": envelope.content})
            self.cv.notify_all()
        return "250 OK"

    def take(self, n, timeout=20):
        """The next `n` mails, sorted by (To, Subject); fails if more arrive within 0.5 s."""
        deadline = time.time() + timeout
        with self.cv:
            while len(self.mails) < self.seen + n:
                left = deadline - time.time()
                if left <= 0:
                    got = [(m["msg"]["To"], m["msg"]["Subject"]) for m in self.mails[self.seen:]]
                    raise AssertionError(f"expected {n} mails, got {got}")
                self.cv.wait(left)
        time.sleep(0.5)
        with self.cv:
            got = self.mails[self.seen:]
            assert len(got) == n, [(m["msg"]["To"], m["msg"]["Subject"]) for m in got]
            self.seen += n
        return sorted(got, key=lambda m: (m["msg"]["To"], m["msg"]["Subject"]))


def body_of(mail):
    return mail["msg"].get_content().replace("\r\n", "\n")


def mail_in(lmtp, sender, subject, body="", headers="", message_id=None, raw=None):
    if raw is None:
        mid = message_id or f"<{time.time_ns()}@example.org>"
        raw = (f"From: {sender}\r\nTo: {FROM}\r\n" + (f"Subject: {subject}\r\n" if subject is not None else "")
               + f"Message-ID: {mid}\r\n{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()
    p = subprocess.run([BINARY, "mail-in", "--lmtp", f"127.0.0.1:{lmtp}"], input=raw,
                       capture_output=True, timeout=60)
    return p.returncode


def check_common(mail, to, subject):
    msg = mail["msg"]
    assert mail["rcpt"] == [to], mail["rcpt"]
    assert str(msg["To"]) == to and mail["raw"].count(f"\r\nTo: <{to}>\r\n".encode()) == 1, msg["To"]
    assert msg["Subject"] == subject, (msg["Subject"], subject)
    assert msg["From"] == f"Plateau <{FROM}>", msg["From"]
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Message-ID"].startswith("<") and msg["Message-ID"].endswith("@plateau.test>")


def board_101(sink, lmtp):
    """alice (pw-alice-1) and bob (pw-bob-123) sign up by mail and alice challenges bob:
    phutball 101, its mails taken."""
    assert mail_in(lmtp, "alice@example.org", "signup alice pw-alice-1") == 0
    assert mail_in(lmtp, "bob@example.org", "signup bob pw-bob-123") == 0
    sink.take(2)
    assert mail_in(lmtp, "alice@example.org", "phutball challenge alice bob") == 0
    sink.take(2)


def start(extra=(), backoff="0.01"):
    """An SMTP sink and a `plateau serve` with LMTP on free ports; `extra`: more serve options;
    `backoff`: the login back-off's base and maximum, in seconds."""
    sink = Sink()
    smtp_port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    lmtp = free_port()
    server = Server(BINARY, extra=["--lmtp-port", str(lmtp), "--smtp", f"smtp://127.0.0.1:{smtp_port}",
                                   "--mail-from", FROM, "--login-backoff-base", backoff,
                                   "--login-backoff-max", backoff, "--rate", "1000"] + list(extra)).start()
    return sink, controller, server, lmtp


def test_a_game_by_mail():
    sink, controller, server, lmtp = start()
    try:
        A, B = "alice@example.org", "bob@example.org"
        assert mail_in(lmtp, A, "signup alice pw-alice-1") == 0
        [m] = sink.take(1)
        check_common(m, A, "Plateau Signup alice")
        # A sign-up may name another address than the sender's.
        assert mail_in(lmtp, "bob-old@example.org", "signup bob pw-bob-123 " + B) == 0
        [m] = sink.take(1)
        check_common(m, "bob-old@example.org", "Plateau Signup bob")

        assert mail_in(lmtp, A, "phutball challenge -handicap=2 alice bob") == 0
        new = sink.take(2)
        check_common(new[0], A, "New Phutball Board 101")
        check_common(new[1], B, "New Phutball Board 101")
        root = new[0]["msg"]["Message-ID"]
        assert new[1]["msg"]["Message-ID"] == root
        assert body_of(new[0]).startswith("New Phutball Board 101\n"), body_of(new[0])[:200]
        assert body_of(new[0]) == body_of(new[1])

        watcher = server.text("carol", "pw-carol-12", register=True)

        def page():
            text = answer(watcher, "show 101")
            return text

        assert mail_in(lmtp, A, "phutball move 101 alice pw-alice-1 H11#1",
                       "Good luck!\n\n-- \nAlice\n") == 0
        # The move with its comment: one mail each (issue 15 d), the page with the comment.
        got = sink.take(2)
        check_common(got[0], A, "Phutball Board 101 bob **")
        check_common(got[1], B, "Phutball Board 101 bob **")
        for m in got:
            assert m["msg"]["In-Reply-To"] == root, m["msg"]["In-Reply-To"]
            assert m["msg"]["References"] == root
        assert body_of(got[1]) == page(), (body_of(got[1]), page())
        assert "alice writes:\nGood luck!\n" in body_of(got[1])

        # A wrong #n: an error mail to the sender, with the board and the original.
        wrong_id = "<wrong-n@example.org>"
        assert mail_in(lmtp, B, "phutball move 101 bob pw-bob-123 H12#5", "oops",
                       message_id=wrong_id) == 0
        [m] = sink.take(1)
        check_common(m, B, "Phutball Board 101 Error")
        assert m["msg"]["In-Reply-To"] == wrong_id
        assert m["msg"]["References"] == wrong_id
        b = body_of(m)
        assert b.startswith("Error: "), b[:200]
        assert "#5" in b.splitlines()[0], b.splitlines()[0]
        assert "\nSummary of Phutball Board 101\n" in b
        assert "Original message follows:\n\n" in b
        assert "Subject: phutball move 101 bob pw-bob-123 H12#5" in b

        # A wrong password.
        assert mail_in(lmtp, B, "phutball move 101 bob not-his-password H12#2") == 0
        [m] = sink.take(1)
        check_common(m, B, "Phutball Board 101 Error")
        assert body_of(m).startswith("Error: wrong name or password\n"), body_of(m)[:200]
        assert "Subject: phutball move 101 bob not-his-password H12#2" in body_of(m)
        time.sleep(0.2)  # the login back-off (0.01 s here)

        assert mail_in(lmtp, B, "phutball move 101 bob pw-bob-123 H12#2") == 0
        got = sink.take(2)
        check_common(got[0], A, "Phutball Board 101 alice")
        check_common(got[1], B, "Phutball Board 101 alice")
        assert body_of(got[0]) == page()

        # A queued move: no mail until it is played, then with the move that triggered it.
        assert mail_in(lmtp, B, "phutball queue 101 bob pw-bob-123 J12#4") == 0
        [m] = sink.take(1)  # shown only to bob
        check_common(m, B, "Phutball Board 101")
        assert body_of(m) == "Queued J12#4 at phutball 101; it will be played when your turn comes.\n"
        assert mail_in(lmtp, A, "phutball move 101 alice pw-alice-1 H13#3") == 0
        got = sink.take(2)
        check_common(got[0], A, "Phutball Board 101 alice")
        check_common(got[1], B, "Phutball Board 101 alice")
        assert body_of(got[0]) == page()
        assert "J12 (Auto)" in body_of(got[0]), body_of(got[0])

        # An undo asked and accepted by mail.
        assert mail_in(lmtp, A, "phutball undo 101 alice pw-alice-1") == 0
        got = sink.take(2)
        check_common(got[0], A, "Phutball Board 101 alice")
        check_common(got[1], B, "Phutball Board 101 alice")
        assert mail_in(lmtp, B, "phutball move 101 bob pw-bob-123 accept") == 0
        got = sink.take(2)
        check_common(got[0], A, "Phutball Board 101 bob")
        check_common(got[1], B, "Phutball Board 101 bob")
        assert body_of(got[0]).endswith(page()), (body_of(got[0]), page())

        # The game word may be left out; a resignation ends the game (a page for everyone).
        assert mail_in(lmtp, B, "resign 101 bob pw-bob-123") == 0
        got = sink.take(2)  # the finished board's Subject: the page's status (issue 15 e)
        check_common(got[0], A, "Phutball Board 101 Game won by alice")
        check_common(got[1], B, "Phutball Board 101 Game won by alice")
        assert body_of(got[0]) == page()
        assert "\nGame won by alice.\n" in body_of(got[0])
        assert server.alive()
        # A mail's login leaves no resume token behind (each would push out a real one).
        db = os.path.join(server.data_dir, "data", "plateau.db")
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            users = [r[0] for r in con.execute("SELECT user FROM resume_tokens ORDER BY user")]
        assert users == ["carol"], users
        assert server.stop() == 0, server.read_log()[-3000:]
    finally:
        if server.proc.poll() is None:
            server.stop()
        controller.stop()


def lmtp_raw(port, data, read_until_close=False):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(data)
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
            if not read_until_close and out.count(b"\r\n") >= data.count(b"\r\n") - 1:
                break
    except socket.timeout:
        pass
    s.close()
    return out.decode(errors="replace")


def test_bad_mail():
    sink, controller, server, lmtp = start()
    try:
        M = "mallory@example.org"
        # No Subject: an error mail.
        assert mail_in(lmtp, M, None) == 0
        [m] = sink.take(1)
        check_common(m, M, "Plateau Error")
        assert body_of(m).startswith("Error: the Subject is empty"), body_of(m)[:100]
        # A 1 MB Subject: over the message bound, refused (552: mail-in exits 65).
        assert mail_in(lmtp, M, "phutball " + "x" * (1 << 20)) == 65
        # A 100 KB Subject fits the bound: an error mail.
        assert mail_in(lmtp, M, "phutball move " + "x" * 100000) == 0
        [m] = sink.take(1)
        check_common(m, M, "Plateau Error")
        assert body_of(m).startswith("Error: the Subject is too long"), body_of(m)[:100]
        # Broken MIME and invalid UTF-8: answered (the command is still read), never a crash.
        with open(os.path.join(sys.argv[2], "mail", "broken_mime.eml"), "rb") as f:
            assert mail_in(lmtp, None, None, raw=f.read()) == 0
        [m] = sink.take(1)
        check_common(m, M, "Plateau Error")
        with open(os.path.join(sys.argv[2], "mail", "invalid_utf8.eml"), "rb") as f:
            assert mail_in(lmtp, None, None, raw=f.read()) == 0
        [m] = sink.take(1)
        check_common(m, M, "Plateau Error")
        # mallory has no account: the reason only, no quote of the original (attack review item 3).
        assert "Original message follows" not in body_of(m), body_of(m)
        # Mail from programs is dropped: no answer, no loop.
        assert mail_in(lmtp, M, "Out of office", headers="Auto-Submitted: auto-replied\r\n") == 0
        assert mail_in(lmtp, M, "phutball games", headers="Precedence: bulk\r\n") == 0
        # Not a message: mail-in refuses it itself.
        p = subprocess.run([BINARY, "mail-in", "--lmtp", f"127.0.0.1:{lmtp}"], input=b"",
                           capture_output=True, timeout=30)
        assert p.returncode == 65, p.returncode
        # No server: try again later.
        p = subprocess.run([BINARY, "mail-in", "--lmtp", f"127.0.0.1:{free_port()}"],
                           input=b"From: a@b.c\r\nSubject: x\r\n\r\nx\r\n", capture_output=True,
                           timeout=30)
        assert p.returncode == 75, p.returncode
        # Raw LMTP: a command line too long, DATA before RCPT, too many recipients, a big DATA.
        out = lmtp_raw(lmtp, b"LHLO x\r\n" + b"NOOP " + b"y" * 5000 + b"\r\n", True)
        assert "500 5.5.2 line too long" in out, out
        out = lmtp_raw(lmtp, b"LHLO x\r\nMAIL FROM:<a@b.c>\r\nDATA\r\nQUIT\r\n", True)
        assert "503 5.5.1 RCPT first" in out, out
        rcpts = b"".join(b"RCPT TO:<p%d@x>\r\n" % i for i in range(25))
        out = lmtp_raw(lmtp, b"LHLO x\r\nMAIL FROM:<a@b.c>\r\n" + rcpts + b"QUIT\r\n", True)
        assert out.count("452 4.5.3 too many recipients") == 5, out
        big = b"Subject: x\r\n\r\n" + (b"z" * 999 + b"\r\n") * 300
        out = lmtp_raw(lmtp, b"LHLO x\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<p@x>\r\nRCPT TO:<q@x>\r\n"
                       b"DATA\r\n" + big + b".\r\nQUIT\r\n", True)
        assert out.count("552 5.3.4 message too big") == 2, out
        out = lmtp_raw(lmtp, b"LHLO x\r\nMAIL FROM:<a@b.c> SIZE=999999999\r\nQUIT\r\n", True)
        assert "552 5.3.4" in out, out
        time.sleep(1)
        with sink.cv:
            assert len(sink.mails) == sink.seen, [m["msg"]["Subject"] for m in sink.mails[sink.seen:]]
        assert server.alive()
        assert server.http_get("/healthz") == (200, "ok\n")
        # Still playing: a sign-up by mail works.
        assert mail_in(lmtp, "dave@example.org", "signup dave pw-dave-123") == 0
        [m] = sink.take(1)
        check_common(m, "dave@example.org", "Plateau Signup dave")
        assert server.stop() == 0, server.read_log()[-3000:]
    finally:
        if server.proc.poll() is None:
            server.stop()
        controller.stop()


def test_unsent_mail_survives_a_kill():
    """The SMTP server is down while a move is committed; the server is SIGKILLed before it could
    send; after the restart (SMTP up) every mail goes out exactly once."""
    smtp_port, lmtp = free_port(), free_port()
    extra = ["--lmtp-port", str(lmtp), "--smtp", f"smtp://127.0.0.1:{smtp_port}", "--mail-from",
             FROM, "--rate", "1000"]
    first = Server(BINARY, extra=extra).start()
    A, B = "alice@example.org", "bob@example.org"
    assert mail_in(lmtp, A, "signup alice pw-alice-1") == 0
    assert mail_in(lmtp, B, "signup bob pw-bob-123") == 0
    assert mail_in(lmtp, A, "phutball challenge alice bob") == 0
    assert mail_in(lmtp, A, "phutball move 101 alice pw-alice-1 H11#1") == 0
    first.kill()
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    second = Server(BINARY, data_dir=first.data_dir, extra=extra)
    try:
        second.start()
        got = sink.take(6)
        assert [(str(m["msg"]["To"]), m["msg"]["Subject"]) for m in got] == [
            (A, "New Phutball Board 101"), (A, "Phutball Board 101 bob"), (A, "Plateau Signup alice"),
            (B, "New Phutball Board 101"), (B, "Phutball Board 101 bob"), (B, "Plateau Signup bob")]
        time.sleep(2)
        assert second.stop() == 0
        third = Server(BINARY, data_dir=first.data_dir, extra=extra).start()
        time.sleep(2)
        with sink.cv:
            assert len(sink.mails) == 6, [m["msg"]["Subject"] for m in sink.mails]
        assert third.stop() == 0, third.read_log()[-3000:]
    finally:
        if second.proc and second.proc.poll() is None:
            second.stop()
        controller.stop()


if __name__ == "__main__":
    run_tests([t for t in [test_a_game_by_mail, test_bad_mail, test_unsent_mail_survives_a_kill]
               if len(sys.argv) < 4 or t.__name__ == sys.argv[3]])
