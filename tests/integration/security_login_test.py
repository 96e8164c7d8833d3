#!/usr/bin/env python3
"""Logins under attack (issue 12, item 7), against a real `plateau serve` on loopback: failed
logins back off per account and per address (exact errors, growing waits, a success resets the
account), passwords have at least 8 characters, password guessing cannot starve a CPU player,
and a client that disconnects in the middle of a login is never listed online.
Different client addresses are different sources in 127.0.0.0/8.
Usage: security_login_test.py PLATEAU_BINARY"""
import socket
import sys
import threading
import time

from plateau_harness import Server, TOKENS, TextClient, run_tests

BINARY = sys.argv[1]

# Waits double from 1 s and stop at 2 s: the growth and the cap in a few seconds.
BACKOFF = ["--login-backoff-base", "1", "--login-backoff-max", "2", "--rate", "1000"]


def expect_error(client, line, error):
    client.send(line)
    m = client.expect(r"^error: (.*)$")
    assert m.group(1) == error, (line, m.group(1), error)


def test_failed_logins_back_off_per_account():
    server = Server(BINARY, extra=BACKOFF).start()
    try:
        server.text("alice", "alice-secret", register=True).close()
        server.text("bobby", "bobby-secret", register=True).close()
        c = server.text(source="127.0.0.2")
        expect_error(c, "login alice wrong-guess-1", "wrong name or password")
        # During the back-off: refused at once, the right password too.
        expect_error(c, "login alice wrong-guess-2",
                     "too many failed logins for alice; try again in 1 s")
        expect_error(c, "login alice alice-secret",
                     "too many failed logins for alice; try again in 1 s")
        # Any spelling of the name is the same account.
        expect_error(c, "login ALICE alice-secret",
                     "too many failed logins for ALICE; try again in 1 s")
        time.sleep(1.1)
        expect_error(c, "login alice wrong-guess-3", "wrong name or password")
        expect_error(c, "login alice alice-secret",
                     "too many failed logins for alice; try again in 2 s")
        time.sleep(2.1)
        expect_error(c, "login alice wrong-guess-4", "wrong name or password")
        # The cap: 2 s, not 4.
        expect_error(c, "login alice alice-secret",
                     "too many failed logins for alice; try again in 2 s")
        time.sleep(2.1)
        c.send("login alice alice-secret")
        c.expect(r"^Hello, alice\.$")
        # The success reset the account: the next failure waits 1 s again, not 2.
        d = server.text(source="127.0.0.3")
        expect_error(d, "login alice wrong-guess-5", "wrong name or password")
        expect_error(d, "login alice alice-secret",
                     "too many failed logins for alice; try again in 1 s")
        # The account's back-off holds from any address; another account is not blocked by it.
        e = server.text(source="127.0.0.4")
        expect_error(e, "login alice alice-secret",
                     "too many failed logins for alice; try again in 1 s")
        e.send("login bobby bobby-secret")
        e.expect(r"^Hello, bobby\.$")
        # Unknown names back off the same way (the answers do not tell which names exist).
        f = server.text(source="127.0.0.5")
        expect_error(f, "login nobody guess-one", "wrong name or password")
        g = server.text(source="127.0.0.6")
        expect_error(g, "login nobody guess-two",
                     "too many failed logins for nobody; try again in 1 s")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_failed_logins_back_off_per_address():
    server = Server(BINARY, extra=BACKOFF).start()
    try:
        for name in ["carol", "dave", "erin"]:
            server.text(name, name + "-secret", register=True).close()
        attacker = server.text(source="127.0.0.7")
        expect_error(attacker, "login carol guess-carol", "wrong name or password")
        # Another account, the same address: refused by the address's back-off.
        expect_error(attacker, "login dave guess-dave",
                     "too many failed logins from your address; try again in 1 s")
        time.sleep(1.1)
        expect_error(attacker, "login erin guess-erin", "wrong name or password")
        expect_error(attacker, "login dave dave-secret",
                     "too many failed logins from your address; try again in 2 s")
        # Dave from elsewhere is not blocked: neither his account nor that address failed.
        dave = server.text(source="127.0.0.8")
        dave.send("login dave dave-secret")
        dave.expect(r"^Hello, dave\.$")
        # A success from the attacker's address (its own account) does not reset the address.
        time.sleep(2.1)
        attacker.send("login dave dave-secret")
        attacker.expect(r"^Hello, dave\.$")
        expect_error(attacker, "login carol guess-again", "wrong name or password")
        expect_error(attacker, "login erin erin-secret",
                     "too many failed logins from your address; try again in 2 s")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_passwords_have_at_least_8_characters():
    server = Server(BINARY).start()
    try:
        c = server.text()
        expect_error(c, "register frank 1234567", "a password has 8 to 128 characters")
        # Characters, not bytes: 7 two-byte letters are 7 characters.
        expect_error(c, "register frank " + "é" * 7, "a password has 8 to 128 characters")
        expect_error(c, "register frank " + "x" * 129, "a password has 8 to 128 characters")
        c.send("register frank 12345678")
        c.expect(r"^Welcome, frank\. Your account is created\.$")
        d = server.text()
        d.send("login frank 12345678")
        d.expect(r"^Hello, frank\.$")
        e = server.text()
        e.send("register grace " + "é" * 8)
        e.expect(r"^Welcome, grace\. Your account is created\.$")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def cpu_reply_hashes(client, board, replies, hashed):
    """Plays `replies` moves against the CPU seat of `board` (client moves first); returns, for
    each reply, how many guesses were hashed (the counter `hashed[0]`) between the move and the
    CPU's answer: an order of events, not a time, so a slow machine does not change it."""
    counts = []
    ply = 1
    for _ in range(replies):
        for tok in TOKENS:
            client.send(f"move {board} {tok}#{ply}")
            i, m = client.expect_any([r"^error: (.*)$",
                                      rf"^bohnduell {board}: {ply}\. \S+ guest\d+ \S+$"])
            if i == 0:
                assert "illegal move" in m.group(1), m.group(1)
                continue
            break
        before = hashed[0]
        client.expect(rf"^bohnduell {board}: {ply + 1}\. \S+ cpu:1 \S+", timeout=60)
        counts.append(hashed[0] - before)
        ply += 2
    return counts


def test_guessing_does_not_starve_cpu_players():
    # A tiny back-off, so that the guessers (each from its own address, each at its own name)
    # keep the password hashing busy all the time.
    server = Server(BINARY, extra=["--login-backoff-base", "0.001", "--login-backoff-max",
                                   "0.001", "--rate", "1000", "--hash-threads", "1",
                                   "--workers", "2"]).start()
    stop = threading.Event()
    hashed = [0]
    busy = [0]

    def guess(i):
        # 20 guesses wait for one hash thread: a reply may take long on a loaded machine.
        c = server.text(source=f"127.0.1.{i + 1}", timeout=120)
        n = 0
        while not stop.is_set():
            n += 1
            c.send(f"login victim{i} guess-{n:06d}")
            _, m = c.expect_any([r"^error: wrong name or password$",
                                 r"^error: server busy.*$", r"^error: too many failed.*$"],
                                timeout=60)
            if "wrong name" in m.group(0):
                hashed[0] += 1
            elif "busy" in m.group(0):
                busy[0] += 1
        c.close()

    try:
        player = server.text()
        player.send("guest")
        name = player.expect(r"^Hello, (guest\d+)").group(1)
        player.send(f"bohnduell challenge {name} cpu:1")  # the guest is seat 1: moves first
        player.expect(r"^New BohnDuell Board 101$")
        threads = [threading.Thread(target=guess, args=(i,), daemon=True) for i in range(20)]
        for t in threads:
            t.start()
        time.sleep(2.0)  # every guesser has a login waiting for the hash thread by now
        counts = cpu_reply_hashes(player, 101, 5, hashed)
        stop.set()
        for t in threads:
            t.join(60)
        print(f"guesses hashed during each cpu reply: {counts}; in all {hashed[0]} hashed "
              f"({busy[0]} refused as busy)")
        assert hashed[0] >= 3, hashed[0]  # the attack really ran
        # 20 logins wait for the one hash thread all the time. A CPU move queued behind them
        # would wait for about 20 hashes; one on its own pool answers within a hash or two.
        assert max(counts) <= 6, counts
        assert server.stop() == 0
    finally:
        stop.set()
        if server.alive():
            server.kill()


def test_disconnect_during_login_leaves_nobody_online():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        server.text("heidi", "heidi-secret", register=True).close()
        for i in range(5):
            # The login is sent and the connection closed before the hash is checked.
            s = socket.create_connection(("127.0.0.1", server.text_port), timeout=10,
                                         source_address=(f"127.0.2.{i + 1}", 0))
            s.sendall(b"login heidi heidi-secret\n")
            s.close()
        time.sleep(1.0)  # every hash is done by now
        watcher = server.text()
        for _ in range(10):
            watcher.send("who")
            m = watcher.expect(r"^\d+ online: .*$")
            assert m.group(0) == "0 online: ", (m.group(0), server.read_log())
            time.sleep(0.05)
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_failed_logins_back_off_per_account, test_failed_logins_back_off_per_address,
           test_passwords_have_at_least_8_characters, test_guessing_does_not_starve_cpu_players,
           test_disconnect_during_login_leaves_nobody_online])
