#!/usr/bin/env python3
"""Tables and names under attack (issue 12, items 5, 6 and 9), against a real `plateau serve` on
loopback: open tables per account and per guest are capped; a guest's unused set-up tables go
when the guest leaves (and at start-up); guest names are never issued again after a restart,
even after SIGKILL, so a stranger never gets a former guest's `host` rights; an account may
refuse challenges (`limit`), kept across restarts.
Usage: security_tables_test.py PLATEAU_BINARY"""
import sys
import time

from plateau_harness import Server, run_tests

BINARY = sys.argv[1]


def expect_error(client, line, error):
    client.send(line)
    m = client.expect(r"^error: (.*)$")
    assert m.group(1) == error, (line, m.group(1), error)


def guest(server):
    c = server.text()
    c.send("guest")
    name = c.expect(r"^Hello, (guest\d+) \(guest").group(1)
    return c, name


def listed(client):
    """The `tables` lines, as {"bohnduell 101": "setup", ...}."""
    client.send("tables")
    client.send("ping")
    out = {}
    while True:
        i, m = client.expect_any([r"^pong$", r"^(\w+ \d+) (\w+) ply .*$", r"^No tables\.$"])
        if i == 0:
            return out
        if i == 1:
            out[m.group(1)] = m.group(2)


def test_open_tables_per_account_and_per_guest():
    server = Server(BINARY, extra=["--rate", "1000", "--max-tables-per-user", "2",
                                   "--max-tables-per-guest", "1"]).start()
    try:
        alice = server.text("alice", "alice-secret", register=True)
        bob = server.text("bob", "bob-secret", register=True)
        alice.send("/open bohnduell")
        alice.expect(r"^Table bohnduell 101 is open")
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 102$")
        expect_error(alice, "/open bohnduell",
                     "you have 2 open tables (set-up or playing), the most an account may have")
        expect_error(alice, "bohnduell challenge alice cpu:1",
                     "you have 2 open tables (set-up or playing), the most an account may have")
        # Boards others start count for their creator, not for alice.
        bob.send("bohnduell challenge bob alice")
        bob.expect(r"^New BohnDuell Board 103$")
        # A finished (here: declined) board frees its place.
        alice.send("resign 102")
        alice.expect(r"has disagreed to play|declined")
        alice.send("/open bohnduell")
        alice.expect(r"^Table bohnduell 104 is open")
        g, name = guest(server)
        g.send("/open bohnduell")
        g.expect(r"^Table bohnduell 105 is open")
        expect_error(g, "/open bohnduell",
                     "you have 1 open table (set-up or playing), the most a guest may have")
        expect_error(g, f"bohnduell challenge {name} cpu:1",
                     "you have 1 open table (set-up or playing), the most a guest may have")
        assert listed(alice) == {"bohnduell 101": "setup", "bohnduell 102": "declined",
                                 "bohnduell 103": "playing", "bohnduell 104": "setup",
                                 "bohnduell 105": "setup"}, listed(alice)
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_no_tables_for_guests_when_the_cap_is_0():
    server = Server(BINARY, extra=["--max-tables-per-guest", "0"]).start()
    try:
        g, name = guest(server)
        expect_error(g, "/open bohnduell", "guests may not open tables here; register an account")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_a_guests_unused_tables_go_when_the_guest_leaves():
    # A guest who disconnects may come back with its resume token: its tables go once the token
    # expires (--guest-token-ttl, 1 s here), or at once on logout (resume_token_test).
    server = Server(BINARY, extra=["--rate", "1000", "--max-tables-per-guest", "5",
                                   "--guest-token-ttl", "1"]).start()
    try:
        alice = server.text("alice", "alice-secret", register=True)
        g, name = guest(server)
        g.send("/open bohnduell")
        g.expect(r"^Table bohnduell 101 is open")  # nobody sits: goes
        g.send("/join 1")
        g.expect(rf"^{name} takes seat 1\.")
        g.send("/join cpu:1 2")
        g.expect(r"^cpu:1 takes seat 2\.")  # the guest and a CPU: goes
        g.send("/open bohnduell")
        g.expect(r"^Table bohnduell 102 is open")
        g.send("/open bohnduell")
        g.expect(r"^Table bohnduell 103 is open")  # alice sits: stays
        alice.send("/table 103")
        alice.expect(r"^You are at bohnduell 103")
        alice.send("/join 2")
        alice.expect(r"^alice takes seat 2\.")
        alice.send("/table 101")  # alice watches 101: she is told when it goes
        alice.expect(r"^You are at bohnduell 101")
        g.send("/open bohnduell")
        g.expect(r"^Table bohnduell 104 is open")
        g.send("/join 1")
        g.send("/join cpu:1 2")
        g.expect(r"^cpu:1 takes seat 2\.")
        g.send("/startnosave")  # playing: stays
        g.expect(r"^Game bohnduell 104 starts: ")
        assert set(listed(alice)) == {"bohnduell 101", "bohnduell 102", "bohnduell 103",
                                      "bohnduell 104"}
        g.send("quit")
        g.wait_closed()
        alice.expect(rf"^bohnduell 101 is closed: {name} left before the game started\.$")
        deadline = time.time() + 5
        while set(listed(alice)) != {"bohnduell 103", "bohnduell 104"}:
            assert time.time() < deadline, listed(alice)
            time.sleep(0.05)
        expect_error(alice, "/table 101", "no board 101")
        expect_error(alice, "/table 102", "no board 102")
        # Deleted from the store too: not back after a restart.
        assert server.stop() == 0
        alice.close()
        server.start()
        alice = server.text("alice", "alice-secret")
        assert set(listed(alice)) == {"bohnduell 103", "bohnduell 104"}, listed(alice)
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_a_guests_unused_tables_go_at_start_up_after_a_crash():
    server = Server(BINARY, extra=["--rate", "1000", "--guest-token-ttl", "1"]).start()
    try:
        g, name = guest(server)
        g.send("/open bohnduell")
        g.expect(r"^Table bohnduell 101 is open")
        server.kill()  # the guest never disconnected cleanly
        g.close()
        server.start()
        watcher = server.text()
        deadline = time.time() + 5  # once the guest's resume token (1 s) has expired
        while listed(watcher) != {}:
            assert time.time() < deadline, listed(watcher)
            time.sleep(0.05)
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_guest_names_are_never_issued_again():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "alice-secret", register=True)
        g, first = guest(server)
        g.send("/open bohnduell")
        g.expect(r"^Table bohnduell 101 is open")
        g.send("/option host")
        g.expect(rf"^{first} sets host\.")
        alice.send("/table 101")
        alice.expect(r"^You are at bohnduell 101")
        alice.send("/join 2")  # someone sits: the table stays when its guest goes
        alice.expect(r"^alice takes seat 2\.")
        seen = {first}
        for restart in ["SIGKILL", "SIGTERM", "SIGKILL"]:
            # A guest is issued right before the crash: its name was durable before it was sent.
            last, last_name = guest(server)
            seen.add(last_name)
            if restart == "SIGKILL":
                server.kill()
            else:
                assert server.stop() == 0
            for c in (g, alice, last):
                c.close()
            server.start()
            g, name = guest(server)
            assert name not in seen, (name, seen)
            seen.add(name)
            # The stranger has none of the first guest's rights at its table.
            g.send("/table 101")
            g.expect(r"^You are at bohnduell 101")
            expect_error(g, "/option supply=5",
                         f"only the table chief ({first}) may change options")
            alice = server.text("alice", "alice-secret")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_an_account_may_refuse_challenges():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "alice-secret", register=True)
        bob = server.text("bob", "bob-secret", register=True)
        bob.send("limit")
        bob.expect(r"^You accept all challenges\.$")
        bob.send("limit reject")
        bob.expect(r"^You accept no challenges\.$")
        expect_error(alice, "bohnduell challenge alice bob", "bob does not accept challenges")
        expect_error(alice, "bohnduell challenge bob alice", "bob does not accept challenges")
        assert listed(alice) == {}  # nothing was created
        # CPU seats are not asked; bob may still start his own boards.
        alice.send("bohnduell challenge alice cpu:1")
        alice.expect(r"^New BohnDuell Board 101$")
        bob.send("bohnduell challenge bob alice")
        bob.expect(r"^New BohnDuell Board 102$")
        # At most 1 open board started by others (bob's own board 102 does not count).
        bob.send("limit 1")
        bob.expect(r"^You accept at most 1 open board started by others\.$")
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 103$")
        expect_error(alice, "bohnduell challenge alice bob",
                     "bob accepts at most 1 open board started by others")
        # Kept with the account across a restart.
        assert server.stop() == 0
        alice.close()
        bob.close()
        server.start()
        alice = server.text("alice", "alice-secret")
        bob = server.text("bob", "bob-secret")
        bob.send("limit")
        bob.expect(r"^You accept at most 1 open board started by others\.$")
        expect_error(alice, "bohnduell challenge alice bob",
                     "bob accepts at most 1 open board started by others")
        # Once that board is over, there is room again.
        bob.send("resign 103")
        bob.expect(r"has disagreed to play|declined")
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 104$")
        bob.send("limit accept")
        bob.expect(r"^You accept all challenges\.$")
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 105$")
        # The forms that are not accepted.
        expect_error(bob, "limit maybe", "usage: limit [N|accept|reject]")
        expect_error(bob, "limit 1 2", "usage: limit [N|accept|reject]")
        expect_error(bob, "limit 1001", "limit N: N is at most 1000; limit accept takes every "
                                        "challenge")
        g, name = guest(server)
        expect_error(g, "limit reject", "guests cannot limit challenges; register an account")
        anon = server.text()
        expect_error(anon, "limit reject", "log in first")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_open_tables_per_account_and_per_guest, test_no_tables_for_guests_when_the_cap_is_0,
           test_a_guests_unused_tables_go_when_the_guest_leaves,
           test_a_guests_unused_tables_go_at_start_up_after_a_crash,
           test_guest_names_are_never_issued_again, test_an_account_may_refuse_challenges])
