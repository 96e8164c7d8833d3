#!/usr/bin/env python3
"""Messages to one user on any node (issue 16 item 3; docs/CLUSTER.md, "Messages to a user on
any node"), on real `plateau serve` nodes sharing a PostgreSQL cluster of the test's own
(tests/integration/pg_cluster.py), with text and WebSocket clients on different nodes:
  invite  an `/invite` made on the table's node (a) reaches the invited user's connections on
          a and on b, each once, the same bytes on both (an account registered on b after a
          started, a guest of b); one forwarded from b (the inviter on b) too; the inviter hears
          what a single server (SQLite) answers, word for word; a name no node knows is refused
          as there; a user connected to no node hears nothing of it later, as there;
  queued  the notices of a queued move (dropped: its #n passed; cancelled: the game ended)
          reach the player's connections on every node once each — also when the player's own
          command, forwarded from b, ended the game: that connection hears it as its answer,
          once, and the player's other connection on b from the notice;
  challenge a challenge made on a reaches the challenged player's connections on a and on b
          (once each, the same event), and the challenger's own other connections; their
          decline, forwarded from b, reaches the challenger and the player's other connections
          on both nodes; a challenge of the computer made on c and placed on b is heard once
          by the challenger's connection (its answer) and once by each of its others;
(tests/cluster/notices_table_test.py: a table taken over, a table's messages, attacks;
tests/cluster/notices_latency.py measures an invite's delay to another node.)
Usage: notices_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when the
PostgreSQL server binaries are missing and this is not root."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from cluster_test import node as cluster_node  # noqa: E402
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import Server, answer, wait_for  # noqa: E402,F401

BINARY = sys.argv[1]

INVITE = "{by} invites you to bohnduell {board}: /table bohnduell {board} to go there."


def node(pg, name):
    # Each table on the node of the client that made it: the test knows which node owns what.
    return cluster_node(pg, name, ["--place-tables", "here"]).start()


def show_logs(*nodes):
    """Prints the end of each node's log (a test failed)."""
    for n in nodes:
        print(f"--- log of {n.extra[3]}:\n" + n.read_log()[-4000:], flush=True)


def kill_nodes(*nodes):
    """Kills the nodes still running (a test's way out)."""
    for n in nodes:
        if n and n.proc and n.alive():
            n.kill()


def settle(*clients, until=lambda: True):
    """Pings every client (a text `ping`, a WebSocket ping command) until `until()` holds
    (10 s at most), then once more a moment later: what was sent to them by then has arrived,
    a copy sent twice included. Notices cross the database: they take a few ms."""
    deadline = time.time() + 10
    while True:
        for c in clients:
            if hasattr(c, "expect"):
                c.send("ping")
                c.expect(r"^pong$")
            else:
                c.command("ping")
        if until() or time.time() > deadline:
            break
        time.sleep(0.05)
    time.sleep(0.3)
    for c in clients:
        if hasattr(c, "expect"):
            c.send("ping")
            c.expect(r"^pong$")
        else:
            c.command("ping")


def lines(client, text):
    """How many lines a text client heard that are exactly `text`."""
    return client.buf.splitlines().count(text)


def typed(ws, kind):
    """The events of type `kind` a WebSocket client heard (all so far)."""
    return [e for e in ws.events if e.get("type") == kind]


def ws_login(n, line):
    ws = n.ws()
    replies, _ = ws.command(line)
    assert replies[0]["type"] == "login", replies
    return ws


def who_has(client, names):
    client.send("who")
    return client.expect(r"^(\d+) online: (.*)$").group(2).split() == names


INVITES = ["/invite bob", "/invite bob", "/invite GUEST", "/invite nobody", "/invite erin"]


def invites(alice, gname):
    """The inviter's answers to INVITES (GUEST: the guest's name, as GUEST in the answers)."""
    return [answer(alice, line.replace("GUEST", gname)).replace(gname, "GUEST")
            for line in INVITES]


def single_server():
    """What a single server (SQLite) answers INVITES, and what erin, offline meanwhile, hears
    once she logs in."""
    one = Server(BINARY).start()
    try:
        alice = one.text("alice", "pw-alice", register=True)
        one.text("bob", "pw-bobby", register=True)
        erin = one.text("erin", "pw-erin1", register=True)
        erin.send("quit")
        guest = one.text()
        guest.send("guest")
        gname = guest.expect(r"^Hello, (guest\d+) \(guest").group(1)
        for line in ("/open bohnduell", "/join", "/option invisible"):
            assert not answer(alice, line).startswith("error"), line
        said = invites(alice, gname)
        erin = one.text("erin", "pw-erin1")
        settle(erin)
        return said, erin.buf
    finally:
        one.stop()


def test_invite(pg):
    alone, erin_alone = single_server()
    assert alone == ["You invited bob to bohnduell 101.\n",
                     "bob can already reach bohnduell 101.\n",
                     "You invited GUEST to bohnduell 101.\n",
                     "error: no user named 'nobody'\n",
                     "You invited erin to bohnduell 101.\n"], alone
    assert "invites you" not in erin_alone, erin_alone
    a = node(pg, "a")
    b = node(pg, "b")
    try:
        alice = a.text("alice", "pw-alice", register=True)
        # bob and erin register on b after a started: a does not hold their accounts yet.
        bob_b = b.text("bob", "pw-bobby", register=True)
        bob_ws_b = ws_login(b, "login bob pw-bobby")
        bob_ws_a = ws_login(a, "login bob pw-bobby")
        erin = b.text("erin", "pw-erin1", register=True)
        erin.send("quit")  # erin is connected to no node when she is invited
        guest = b.text()
        guest.send("guest")
        gname = guest.expect(r"^Hello, (guest\d+) \(guest").group(1)
        wait_for("b's users in a's who", lambda: who_has(alice, ["alice", "bob", gname]), 5)
        for line in ("/open bohnduell", "/join", "/option invisible"):
            assert not answer(alice, line).startswith("error"), line
        # The inviter hears what a single server answers.
        assert invites(alice, gname) == alone
        # erin was invited while connected nowhere: as on a single server, she hears nothing
        # of it when she comes (the invite is not stored), but may reach the table.
        erin = b.text("erin", "pw-erin1")
        assert answer(erin, "/table bohnduell 101").startswith("You are at bohnduell 101."), \
            erin.buf
        text = INVITE.format(by="alice", board=101)
        settle(bob_b, bob_ws_b, bob_ws_a, guest, erin, until=lambda: lines(bob_b, text) and lines(
            guest, text) and typed(bob_ws_a, "invite") and typed(bob_ws_b, "invite"))
        assert "invites you" not in erin.buf, erin.buf
        assert lines(bob_b, text) == 1, bob_b.buf
        assert lines(guest, text) == 1, guest.buf
        expected = {"type": "invite", "game": "bohnduell", "board": 101, "by": "alice",
                    "text": text}
        # The same event on both nodes, once each, outside any command's answer.
        assert typed(bob_ws_a, "invite") == [expected], bob_ws_a.events
        assert typed(bob_ws_b, "invite") == [expected], bob_ws_b.events
        # bob goes to the table from b (forwarded to a) and invites dave, who is on both
        # nodes: the invite, made by a command forwarded from b, reaches dave on a and on b.
        dave_a = a.text("dave", "pw-dave1", register=True)
        dave_b = b.text("dave", "pw-dave1")
        for line in ("/table bohnduell 101", "/join"):
            assert not answer(bob_b, line).startswith("error"), line
        assert answer(bob_b, "/invite dave") == "You invited dave to bohnduell 101.\n"
        text = INVITE.format(by="bob", board=101)
        settle(dave_a, dave_b, until=lambda: lines(dave_a, text) and lines(dave_b, text))
        assert lines(dave_a, text) == 1, dave_a.buf
        assert lines(dave_b, text) == 1, dave_b.buf
        # bob's connections heard nothing more than the one invite each.
        settle(bob_b, bob_ws_b, bob_ws_a)
        assert len(typed(bob_ws_a, "invite")) == 1 and len(typed(bob_ws_b, "invite")) == 1
        assert a.stop() == 0 and b.stop() == 0
    except BaseException:
        show_logs(a, b)
        raise
    finally:
        kill_nodes(a, b)


def test_queued(pg):
    a = node(pg, "a")
    b = node(pg, "b")
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob_b = b.text("bob", "pw-bobby", register=True)  # his commands go to a
        bob_ws_b = ws_login(b, "login bob pw-bobby")
        bob_a = a.text("bob", "pw-bobby")
        alice.send("bohnduell challenge -supply=8 -start=1 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        bob_b.expect(r"^New BohnDuell Board 101$")
        # A move queued for ply 5 is dropped when ply 2 comes: bob hears so everywhere.
        assert answer(bob_b, "queue 101 S4#5") == (
            "Queued S4#5 at bohnduell 101; it will be played when your turn comes.\n")
        alice.send("move 101 S4#1")
        alice.expect(r"^bohnduell 101: 1\. A alice S4$")
        dropped = "Your queued move S4#5 at bohnduell 101 is dropped: the next move is #2."
        settle(bob_b, bob_ws_b, bob_a, until=lambda: lines(bob_b, dropped) and lines(
            bob_a, dropped) and typed(bob_ws_b, "queued"))
        assert lines(bob_b, dropped) == 1, bob_b.buf
        assert lines(bob_a, dropped) == 1, bob_a.buf
        assert typed(bob_ws_b, "queued") == [{"type": "queued", "game": "bohnduell",
                                              "board": 101, "move": "S4#5", "dropped": True,
                                              "text": dropped}], bob_ws_b.events
        assert "Queued S4#5" not in bob_a.buf  # the queue's answer went to its caller alone
        # bob moves from b, queues a move, then accepts alice's draw offer from b: the game
        # ends and his queued move is cancelled. His command's connection hears it as its
        # answer, once; his others (b by WebSocket, a by text) once each.
        bob_b.send("move 101 S4#2")
        bob_b.expect(r"^bohnduell 101: 2\. B bob S4$")
        assert answer(bob_b, "queue 101 H1").startswith("Queued H1 at bohnduell 101")
        alice.send("propose 101")
        alice.expect(r"proposed a draw")
        bob_b.expect(r"proposed a draw")
        said = answer(bob_b, "accept 101")
        cancelled = "Your queued move H1 at bohnduell 101 is cancelled: the game is over."
        assert said.splitlines().count(cancelled) == 1, said
        settle(bob_b, bob_ws_b, bob_a, until=lambda: lines(bob_a, cancelled) and len(
            typed(bob_ws_b, "queued")) >= 2)
        assert lines(bob_b, cancelled) == 1, bob_b.buf
        assert lines(bob_a, cancelled) == 1, bob_a.buf
        assert typed(bob_ws_b, "queued")[1:] == [{"type": "queued", "game": "bohnduell",
                                                  "board": 101, "move": "H1", "cancelled": True,
                                                  "text": cancelled}], bob_ws_b.events
        assert a.stop() == 0 and b.stop() == 0
    except BaseException:
        show_logs(a, b)
        raise
    finally:
        kill_nodes(a, b)


def test_challenge(pg):
    a = node(pg, "a")
    b = node(pg, "b")
    c = None
    try:
        alice = a.text("alice", "pw-alice", register=True)
        alice_ws_b = ws_login(b, "login alice pw-alice")
        bob_b = b.text("bob", "pw-bobby", register=True)
        bob_ws_b = ws_login(b, "login bob pw-bobby")
        bob_a = a.text("bob", "pw-bobby")
        bob_ws_a = ws_login(a, "login bob pw-bobby")
        # The challenge, made on a, reaches bob on a (the table) and on b (the feed), each
        # connection once, the same event on both nodes.
        alice.send("bohnduell challenge -supply=8 -start=1 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        for c in (bob_a, bob_b):
            c.expect(r"^New BohnDuell Board 101$")
        settle(alice, alice_ws_b, bob_b, bob_ws_b, bob_a, bob_ws_a, until=lambda: typed(
            bob_ws_a, "challenge") and typed(bob_ws_b, "challenge") and typed(alice_ws_b,
                                                                              "challenge"))
        for c in (bob_a, bob_b):
            assert lines(c, "New BohnDuell Board 101") == 1, c.buf
        on_a, on_b = typed(bob_ws_a, "challenge"), typed(bob_ws_b, "challenge")
        assert len(on_a) == 1 and on_a == on_b and on_a[0]["seq"] == 1, (on_a, on_b)
        assert typed(alice_ws_b, "challenge") == on_a  # the challenger's other connection too
        # bob declines from b (resign before anyone moved, forwarded to a): alice hears it on
        # a and on b, bob's other connections too, each once.
        said = answer(bob_b, "resign 101")
        declined = "bob has disagreed to play."
        assert said.splitlines().count(declined) == 1, said
        alice.expect("^" + declined + "$")
        settle(alice, alice_ws_b, bob_b, bob_ws_b, bob_a, bob_ws_a, until=lambda: all(
            lines(c, declined) for c in (bob_a,)) and all(
            typed(ws, "gameover") for ws in (alice_ws_b, bob_ws_b, bob_ws_a)))
        for c in (alice, bob_a, bob_b):
            assert lines(c, declined) == 1, c.buf
        over = [typed(ws, "gameover") for ws in (alice_ws_b, bob_ws_b, bob_ws_a)]
        assert len(over[0]) == 1 and over[0] == over[1] == over[2], over
        assert over[0][0]["reason"] == "declined", over[0]
        # A challenge of the computer made on c goes to the least loaded node (b; c made a
        # table first): the challenger's connection hears it as its answer, once; its other
        # connections, on c and on a, from the notice, once each.
        c = cluster_node(pg, "c").start()
        alice_c = c.text("alice", "pw-alice")
        alice_ws_c = ws_login(c, "login alice pw-alice")
        assert answer(alice_c, "/open bohnduell").startswith("Table bohnduell 102 is open")
        time.sleep(1.2)  # the nodes' table counts are read once a second
        said = answer(alice_c, "bohnduell challenge -supply=8 alice cpu:1")
        assert said.splitlines().count("New BohnDuell Board 103") == 1, said
        assert "opened bohnduell 103 (table 3) on node b" in c.read_log()
        settle(alice, alice_c, alice_ws_c, alice_ws_b, until=lambda: lines(
            alice, "New BohnDuell Board 103") and len(typed(alice_ws_b, "challenge")) >= 2 and
            typed(alice_ws_c, "challenge"))
        for t in (alice, alice_c):
            assert lines(t, "New BohnDuell Board 103") == 1, t.buf
        for ws in (alice_ws_c, alice_ws_b):
            assert [e["board"] for e in typed(ws, "challenge")] == \
                ([101, 103] if ws is alice_ws_b else [103]), ws.events
        assert c.stop() == 0
        assert a.stop() == 0 and b.stop() == 0
    except BaseException:
        show_logs(a, b)
        raise
    finally:
        kill_nodes(a, b, c)


def main():
    scenario = sys.argv[2]
    start = time.time()
    print(f"--- {scenario}", flush=True)
    with PgCluster() as pg:
        {"invite": test_invite, "queued": test_queued,
         "challenge": test_challenge}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
