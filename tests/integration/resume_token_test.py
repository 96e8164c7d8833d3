#!/usr/bin/env python3
"""Resume tokens (issue 13, item 6) over loopback: register/login/guest answer with a token
(text line `Resume token: TOKEN`, JSON `token`); `resume TOKEN` on another connection (text or
WebSocket) logs in as the same user, a guest keeping its name, seats and set-up tables; `logout`
revokes; unknown, malformed, revoked and expired tokens get one error; guessing counts against
the login back-off; tokens are bounded per user, survive a restart and are stored only hashed.
Usage: resume_token_test.py PLATEAU_BINARY"""
import base64
import hashlib
import os
import sqlite3
import sys
import time

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]
TOKEN = r"([A-Za-z0-9_-]{43})"
BAD = "error: unknown, expired or revoked resume token; log in again\n"
# Failed resumes back off like failed logins: here for at most 2 ms, and each resume below
# waits 10 ms first, so that only test_guessing_is_throttled meets the back-off.
FAST = ["--rate", "1000", "--login-backoff-base", "0.001", "--login-backoff-max", "0.002"]


def resume(client, token):
    time.sleep(0.01)
    return answer(client, "resume " + token)


def eventually(check, seconds=5):
    """True once check() is (the server deletes a table after a store commit)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def token_after(client, greeting):
    return client.expect(rf"^{greeting}\nResume token: {TOKEN}$").group(1)


def test_text_account_resume_and_logout():
    server = Server(BINARY, extra=FAST).start()
    try:
        a = server.text()
        a.send("register alice pw-alice-1")
        t1 = token_after(a, r"Welcome, alice\. Your account is created\.")
        b = server.text()
        got = resume(b, t1)
        assert got == f"Welcome back, alice.\nResume token: {t1}\n", got
        assert answer(b, "who") == "1 online: alice\n"
        # A second login gives a second, different token; both work.
        c = server.text()
        c.send("login ALICE pw-alice-1")
        t2 = token_after(c, r"Hello, alice\.")
        assert t2 != t1
        # logout revokes the token of that connection only.
        assert answer(b, "logout") == "Logged out.\n"
        d = server.text()
        assert resume(d, t1) == BAD
        assert resume(d, t2) == f"Welcome back, alice.\nResume token: {t2}\n"
        # Malformed and unknown tokens: the same answer, the connection stays logged out.
        e = server.text()
        for bad in ["x", t2[:-1], t2 + "A", "A" * 43, "!" * 43]:
            assert resume(e, bad) == BAD, bad
        assert answer(e, "resume") == "error: usage: resume TOKEN\n"
        assert answer(e, "/open phutball") == "error: log in first\n"
    finally:
        server.stop()


def test_guest_keeps_name_seats_and_tables():
    server = Server(BINARY, extra=FAST).start()
    try:
        g = server.text()
        g.send("guest")
        m = g.expect(r"^Hello, (guest\d+) \(guest: unrated games only\)\.\nResume token: "
                     + TOKEN + "$")
        name, token = m.group(1), m.group(2)
        h = server.text()
        h.send("guest")
        other = h.expect(r"^Hello, (guest\d+) ").group(1)
        # A set-up table and a game in progress.
        g.send("/open bohnduell")
        g.expect(r"bohnduell 101")
        g.send(f"phutball challenge {name} {other}")
        g.expect(r"^New Phutball Board 101$")
        g.send("phutball move 101 H11#1")
        g.expect(rf"^phutball 101: 1\. O {name} H11$")
        g.close()
        time.sleep(0.3)
        h.send("phutball move 101 J12#2")
        h.expect(rf"^phutball 101: 2\. X {other} J12$")
        # The set-up table is still there (the token is valid), and the guest comes back as
        # itself, still seated.
        assert f"bohnduell 101 setup ply 0: -, -" in answer(h, "tables"), answer(h, "tables")
        back = server.text()
        assert resume(back, token) == \
            f"Welcome back, {name} (guest: unrated games only).\nResume token: {token}\n"
        back.send("phutball move 101 H12#3")
        back.expect(rf"^phutball 101: 3\. O {name} H12$")
        back.send("/table bohnduell 101")
        back.send("/join 1")
        back.expect(rf"{name}")
        # logout revokes; with no token left, the guest's set-up table goes once it leaves.
        assert answer(back, "logout") == "Logged out.\n"
        assert eventually(lambda: "bohnduell 101" not in answer(h, "tables"))
        assert resume(server.text(), token) == BAD
    finally:
        server.stop()


def test_guest_logging_in_as_someone_else_leaves():
    server = Server(BINARY, extra=FAST).start()
    try:
        server.text("alice", "pw-alice-1", register=True)
        g = server.text()
        g.send("guest")
        token = token_after(g, r"Hello, guest\d+ \(guest: unrated games only\)\.")
        g.send("/open bohnduell")
        g.expect(r"bohnduell 101")
        # The same connection becomes alice: the guest's token is revoked and the guest has
        # left, so its set-up table goes at once (as before resume tokens existed).
        g.send("login alice pw-alice-1")
        token_after(g, r"Hello, alice\.")
        watcher = server.text()
        watcher.send("guest")
        watcher.expect(r"^Hello, guest")
        assert eventually(lambda: answer(watcher, "tables") == "No tables.\n"), \
            answer(watcher, "tables")
        assert resume(server.text(), token) == BAD
    finally:
        server.stop()


def test_guest_token_expires():
    server = Server(BINARY, extra=FAST + ["--guest-token-ttl", "1"]).start()
    try:
        g = server.text()
        g.send("guest")
        token = token_after(g, r"Hello, guest\d+ \(guest: unrated games only\)\.")
        g.send("/open bohnduell")
        g.expect(r"bohnduell 101")
        watcher = server.text()
        watcher.send("guest")
        watcher.expect(r"^Hello, guest")
        g.close()
        assert "bohnduell 101 setup" in answer(watcher, "tables")
        time.sleep(1.0)  # the token's second; then the sweep (every quarter of it) deletes it
        assert eventually(lambda: answer(watcher, "tables") == "No tables.\n", 2)
        assert resume(server.text(), token) == BAD
    finally:
        server.stop()


def test_guessing_is_throttled():
    server = Server(BINARY, extra=["--rate", "1000", "--login-backoff-base", "30"]).start()
    try:
        a = server.text()
        a.send("register alice pw-alice-1")
        token = token_after(a, r"Welcome, alice\. Your account is created\.")
        c = server.text()
        assert resume(c, "A" * 43) == BAD
        # The next attempt from this address waits, even with the right token, and so does a
        # password login from it.
        got = resume(c, token)
        assert got == "error: too many failed logins from your address; try again in 30 s\n", got
        assert answer(c, "login alice pw-alice-1") == \
            "error: too many failed logins from your address; try again in 30 s\n"
    finally:
        server.stop()


def test_bounded_per_user_survives_restart_stored_hashed():
    server = Server(BINARY, extra=FAST + ["--max-tokens-per-user", "2"]).start()
    try:
        a = server.text()
        a.send("register alice pw-alice-1")
        tokens = [token_after(a, r"Welcome, alice\. Your account is created\.")]
        for _ in range(2):
            c = server.text()
            c.send("login alice pw-alice-1")
            tokens.append(token_after(c, r"Hello, alice\."))
    finally:
        server.stop()
    server.start()
    try:
        assert resume(server.text(), tokens[0]) == BAD  # the oldest went
        for t in tokens[1:]:
            got = resume(server.text(), t)
            assert got == f"Welcome back, alice.\nResume token: {t}\n", (got, tokens)
    finally:
        server.stop()
    db = sqlite3.connect(os.path.join(server.data_dir, "data", "plateau.db"))
    rows = db.execute("SELECT selector, verifier_hash, user, guest FROM resume_tokens "
                      "ORDER BY created_ms").fetchall()
    db.close()
    expected = []
    for t in tokens[1:]:
        raw = base64.urlsafe_b64decode(t + "=")
        expected.append((raw[:8].hex(), hashlib.blake2b(raw[8:], digest_size=32).hexdigest(),
                         "alice", 0))
    assert sorted(rows) == sorted(expected), rows
    with open(os.path.join(server.data_dir, "data", "plateau.db"), "rb") as f:
        blob = f.read()
    for t in tokens:
        assert t.encode() not in blob


def test_websocket_token_and_resume():
    server = Server(BINARY, extra=FAST).start()
    try:
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        replies, _ = ws.command("guest")
        login = replies[0]
        token = login.pop("token")
        assert len(token) == 43 and login["type"] == "login" and login["guest"] is True, replies
        name = login["user"]
        replies, _ = ws.command("/open phutball")
        assert replies[0]["board"] == 101, replies
        ws.command("/join 1")
        ws.command("/join cpu:random 2")
        ws.close()
        time.sleep(0.3)
        ws2 = server.ws()
        assert ws2.recv()["type"] == "welcome"
        replies, _ = ws2.command("resume " + token)
        assert replies == [{"type": "login", "user": name, "guest": True, "re": 1,
                            "text": f"Welcome back, {name} (guest: unrated games only).",
                            "token": token}], replies
        replies, _ = ws2.command("/table phutball 101")
        replies, _ = ws2.command("/start")
        assert replies[0]["type"] == "start" and replies[0]["players"] == [name, "cpu:random"], \
            replies
        replies, _ = ws2.command("resume " + "B" * 43)
        assert replies == [{"type": "error", "re": 7, "message": BAD[7:-1]}], replies
    finally:
        server.stop()


if __name__ == "__main__":
    run_tests([test_text_account_resume_and_logout, test_guest_keeps_name_seats_and_tables,
               test_guest_logging_in_as_someone_else_leaves, test_guest_token_expires,
               test_guessing_is_throttled,
               test_bounded_per_user_survives_restart_stored_hashed,
               test_websocket_token_and_resume])
