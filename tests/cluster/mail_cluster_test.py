#!/usr/bin/python3
"""Play by mail and notifications on two `plateau serve` nodes sharing one PostgreSQL database
(issue 16; docs/MAIL.md "Several nodes"), with the test's own PostgreSQL
(tests/integration/pg_cluster.py) and a real SMTP server (aiosmtpd: mail_test.py's Sink),
both nodes sending to it and each with its own LMTP port:
  remote    a board challenged by mail on node a, played by mail delivered to node b: the
            commands reach the owner (a) and every player gets each page exactly once; a wrong
            #n gets one error mail naming the board, with its page; a mail run on b and
            delivered again to a is not run again; `subscribe` by mail to b holds on a;
  digest    boards waiting on bob on both nodes: at the next UTC day (a simulated clock) bob
            gets exactly one digest listing both, and neither node's store fails (the outbox
            key `digest.DAY bob` was written by both nodes, and one node's batch failed at
            every tick);
  kill      node a is killed in the middle of sending a mail (the SMTP server holds its DATA):
            node b sends it, once, after a was found dead (a's claim on the row was taken over);
            a move by mail to b for a's board before the takeover gets 451 (the mail server
            tries again), not an error mail; tried again after the takeover, it is played once;
  freeze    node a, alone, claims the two mails of a new board and hangs sending the first;
            b starts, a is frozen (SIGSTOP) and taken over: b sends both; when a wakes it sends
            neither (its sessions were ended, and its claims are b's: cluster_mail_db_test
            shows the check each send makes first);
  cap       40 mails to one address in the outbox: the two nodes together send 30 (the
            per-address cap of an hour; each node counted only its own);
  settings  a `notify` setting changed on node a is obeyed by node b within seconds (it read
            accounts only at its start), a password changed on a logs in on b, and a player
            logged in on a gets no mail about a board of b (connected is connected anywhere).
Usage: mail_cluster_test.py PLATEAU_BINARY SCENARIO. Run with /usr/bin/python3 (Debian's
python3-aiosmtpd). Exits 77 (skipped, saying why) only when the PostgreSQL server binaries are
missing and this is not root."""
import asyncio
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from aiosmtpd.controller import Controller  # noqa: E402
from mail_correspondence_test import DAY_MS, SimClock  # noqa: E402
from mail_test import FROM, Sink, body_of, check_common, mail_in  # noqa: E402
from pg_cluster import cluster_secret_file, run_scenario  # noqa: E402
from plateau_harness import Server, answer, free_port, freeze, wait_for  # noqa: E402

BINARY = sys.argv[1]
A, B = "alice@example.org", "bob@example.org"


class HoldingSink(Sink):
    """A Sink that, while `hold` is set, keeps each DATA waiting (`holding` counts them), then
    refuses it with 451 without keeping it (`refuse`: a mail server that hangs mid-transaction)
    or accepts it (not `refuse`: a slow mail server)."""

    def __init__(self, refuse=True):
        super().__init__()
        self.hold = False
        self.holding = 0
        self.refuse = refuse

    async def handle_DATA(self, server, session, envelope):
        if self.hold:
            with self.cv:
                self.holding += 1
                self.cv.notify_all()
            while self.hold:
                await asyncio.sleep(0.05)
            if self.refuse:
                return "451 4.3.0 try again later"
        return await super().handle_DATA(server, session, envelope)


class Mailnodes:
    """A PostgreSQL cluster, an SMTP sink and two nodes, each with its LMTP port and the same
    simulated clock; `extra`: more options of both nodes."""

    def __init__(self, pg, sink=None, extra=(), start=("a", "b")):
        self.pg = pg
        self.sink = sink or Sink()
        self.smtp = free_port()
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.smtp)
        self.controller.start()
        self.clock = SimClock()
        self.extra = extra
        self.lmtp = {}
        self.nodes = {}
        for name in start:
            self.start(name)

    def start(self, name):
        self.lmtp[name] = free_port()
        self.nodes[name] = self.node(name, self.extra).start()
        return self.nodes[name]

    def node(self, name, extra):
        return Server(BINARY, extra=[
            "--store", self.pg.url, "--node-id", name, "--node-address",
            f"127.0.0.1:{free_port()}", "--node-port", str(free_port()),
            "--cluster-secret-file", cluster_secret_file(), "--place-tables", "here",
            "--lmtp-port", str(self.lmtp[name]), "--smtp", f"smtp://127.0.0.1:{self.smtp}",
            "--mail-from", FROM, "--login-backoff-base", "0.01", "--login-backoff-max", "0.01",
            "--rate", "1000"] + self.clock.extra() + list(extra))

    def close(self):
        try:
            for n in self.nodes.values():
                if n.alive():
                    n.stop()
        finally:
            self.controller.stop()

    def signups(self, via="a"):
        assert mail_in(self.lmtp[via], A, "signup alice pw-alice-1") == 0
        assert mail_in(self.lmtp[via], B, "signup bob pw-bob-123") == 0
        self.sink.take(2)


def subjects(mails):
    return [(str(m["msg"]["To"]), m["msg"]["Subject"]) for m in mails]


def owner(pg, game, number):
    rows = pg.sql(pg.url, f"SELECT owner FROM tables WHERE game = '{game}' AND number = {number}")
    return rows[0][0] if rows else None


def no_store_failure(env):
    for name, n in env.nodes.items():
        log = n.read_log()
        assert "could not be stored" not in log and "shared outbox cannot" not in log, \
            (name, [line for line in log.splitlines() if "mail" in line][-20:])


def test_remote(pg):
    env = Mailnodes(pg)
    try:
        env.signups(via="a")
        assert mail_in(env.lmtp["a"], A, "phutball challenge alice bob") == 0
        new = env.sink.take(2)
        assert subjects(new) == [(A, "New Phutball Board 101"), (B, "New Phutball Board 101")]
        root = new[0]["msg"]["Message-ID"]
        assert owner(pg, "phutball", 101) == "a"
        # A move by mail to node b: run by the owner, each player told once.
        assert mail_in(env.lmtp["b"], A, "phutball move 101 alice pw-alice-1 H11#1",
                       "From node b.\n") == 0
        got = env.sink.take(2)
        check_common(got[0], A, "Phutball Board 101 bob **")
        check_common(got[1], B, "Phutball Board 101 bob **")
        for m in got:
            assert m["msg"]["In-Reply-To"] == root and m["msg"]["References"] == root
        watcher = env.nodes["b"].text("carol", "pw-carol-12", register=True)
        page = answer(watcher, "show 101")
        assert body_of(got[0]) == body_of(got[1]) == page, (body_of(got[0]), page)
        assert "alice writes:\nFrom node b.\n" in page, page
        # Any command by mail to b about the board: answered once, naming it.
        assert mail_in(env.lmtp["b"], "erin@example.org", "phutball show 101") == 0
        [m] = env.sink.take(1)
        check_common(m, "erin@example.org", "Phutball Board 101")
        assert body_of(m) == page, body_of(m)
        # A wrong #n by mail to b: one error mail, naming the board of node a, with its page.
        assert mail_in(env.lmtp["b"], B, "phutball move 101 bob pw-bob-123 H12#5", "oops",
                       message_id="<wrong-n@example.org>") == 0
        [m] = env.sink.take(1)
        check_common(m, B, "Phutball Board 101 Error")
        text = body_of(m)
        assert text.startswith("Error: ") and "#5" in text.splitlines()[0], text[:300]
        assert "\nSummary of Phutball Board 101\n" in text, text
        assert "Subject: phutball move 101 bob pw-bob-123 H12#5" in text
        # bob's answer by mail to b, alice's to a: the game goes on, each page once to each.
        assert mail_in(env.lmtp["b"], B, "phutball move 101 bob pw-bob-123 H12#2",
                       message_id="<bob-2@example.org>") == 0
        assert subjects(env.sink.take(2)) == [(A, "Phutball Board 101 alice"),
                                              (B, "Phutball Board 101 alice")]
        # The mail server delivers it again, to node a: run once (else an error mail, #2).
        assert mail_in(env.lmtp["a"], B, "phutball move 101 bob pw-bob-123 H12#2",
                       message_id="<bob-2@example.org>") == 0
        env.sink.take(0)
        assert "<bob-2@example.org> was already run on another node; not again" in \
            env.nodes["a"].read_log()
        # dave subscribes by mail to b: the owner keeps him with the board and mails him too.
        D = "dave@example.org"
        assert mail_in(env.lmtp["b"], D, "signup dave pw-dave-12") == 0
        env.sink.take(1)
        assert mail_in(env.lmtp["b"], D, "phutball subscribe 101 dave pw-dave-12") == 0
        [m] = env.sink.take(1)
        check_common(m, D, "Phutball Board 101")
        assert body_of(m) == ("You are subscribed to phutball 101: its pages come to you by "
                              "mail as to its players.\n"), body_of(m)
        assert mail_in(env.lmtp["a"], A, "phutball move 101 alice pw-alice-1 H13#3") == 0
        assert subjects(env.sink.take(3)) == [(A, "Phutball Board 101 bob"),
                                              (B, "Phutball Board 101 bob"),
                                              (D, "Phutball Board 101 bob")]
        assert mail_in(env.lmtp["b"], D, "phutball unsubscribe 101 dave pw-dave-12") == 0
        [m] = env.sink.take(1)
        check_common(m, D, "Phutball Board 101")
        assert body_of(m) == "You are no longer subscribed to phutball 101.\n", body_of(m)
        env.sink.take(0)
        assert pg.sql(pg.url, "SELECT count(*) FROM mail_outbox") == [["0"]]
        no_store_failure(env)
    finally:
        env.close()


def test_digest(pg):
    env = Mailnodes(pg)
    try:
        env.signups()
        a, b = env.nodes["a"], env.nodes["b"]
        bob = a.text("bob", "pw-bob-123")
        assert "notify digest" in answer(bob, "notify digest")
        bob.close()
        time.sleep(3)  # node b reads the changed account within a second or so
        # One board waiting on bob on each node (alice moves first; bob is Xs).
        for name, board in (("a", 101), ("b", 102)):
            alice = env.nodes[name].text("alice", "pw-alice-1")
            assert f"New Phutball Board {board}" in answer(alice, "phutball challenge alice bob")
            answer(alice, f"move {board} H11#1")
            alice.close()
            assert owner(pg, "phutball", board) == name
        env.sink.take(0)  # digest: no mail per event
        # Ten minutes into the next UTC day: one digest, both boards.
        next_day = DAY_MS - int(time.time() * 1000) % DAY_MS + 10 * 60 * 1000
        env.clock.set(next_day)
        [d] = env.sink.take(1)
        check_common(d, B, "Plateau: your move on 2 boards")
        text = body_of(d)
        assert text.startswith("Good day, bob. 2 boards wait for your move:\n\n"), text
        lines = [line for line in text.splitlines() if "your move since" in line]
        assert [line.split(":")[0] for line in lines] == ["phutball 101", "phutball 102"], lines
        day = (int(time.time() * 1000) + next_day) // DAY_MS
        assert d["msg"]["Message-ID"] == f"<digest.{day}.bob@plateau.test>", d["msg"]["Message-ID"]
        # Many ticks later the same day: nothing more, and no batch failed on either node.
        env.clock.set(next_day + 60 * 60 * 1000)
        env.sink.take(0)
        no_store_failure(env)
        assert pg.sql(pg.url, "SELECT value FROM counters WHERE name = 'digest_day'") == \
            [[str(day)]]
        # The next day again one, on whichever node.
        env.clock.set(next_day + DAY_MS)
        [d] = env.sink.take(1)
        check_common(d, B, "Plateau: your move on 2 boards")
        no_store_failure(env)
    finally:
        env.close()


def test_kill(pg):
    sink = HoldingSink()
    env = Mailnodes(pg, sink)
    try:
        env.signups()
        a = env.nodes["a"]
        alice = a.text("alice", "pw-alice-1")
        # bob's mail about the new board hangs in a's SMTP transaction...
        sink.hold = True
        assert "New Phutball Board 101" in answer(alice, "phutball challenge alice bob")
        with sink.cv:
            assert sink.cv.wait_for(lambda: sink.holding >= 1, 20), "no DATA held"
        claims = pg.sql(pg.url, "SELECT node FROM plateau_mail_claims")
        assert claims == [["a"]], claims
        # ... and b does not take it while a lives.
        time.sleep(2.5)
        assert pg.sql(pg.url, "SELECT node FROM plateau_mail_claims") == [["a"]]
        killed = time.time()
        a.kill()
        sink.hold = False  # a's transaction ends with 451 on a dead connection
        # A move by mail to b before b took a's table over: 451, for the mail server to try
        # again (not an error mail: the owner is only away).
        move = ("phutball move 101 alice pw-alice-1 H11#1", "", "", "<retry@example.org>")
        assert mail_in(env.lmtp["b"], A, *move) == 75  # EX_TEMPFAIL
        assert owner(pg, "phutball", 101) == "a"
        [m] = sink.take(1)
        took = time.time() - killed
        check_common(m, B, "New Phutball Board 101")
        assert "mail: sent phutball.101." in env.nodes["b"].read_log()
        print(f"kill: b sent a's claimed mail {took:.2f} s after the kill", flush=True)
        assert took < 10, took
        wait_for("the outbox to empty",
                 lambda: pg.sql(pg.url, "SELECT count(*) FROM mail_outbox") == [["0"]], 5)
        assert pg.sql(pg.url, "SELECT count(*) FROM plateau_mail_claims") == [["0"]]
        time.sleep(1.5)
        sink.take(0)  # exactly once
        assert sink.holding == 1, sink.holding
        # The mail server tries again: b serves the board now, the move is played once.
        assert owner(pg, "phutball", 101) == "b"
        assert mail_in(env.lmtp["b"], A, *move) == 0
        [m] = sink.take(1)  # bob's turn (alice's text connection died with a)
        check_common(m, B, "Phutball Board 101 bob")
        assert mail_in(env.lmtp["b"], A, *move) == 0  # delivered once more: not run again
        sink.take(0)
    finally:
        env.close()


def test_freeze(pg):
    sink = HoldingSink()
    env = Mailnodes(pg, sink, start=("a",))
    try:
        env.signups()
        a = env.nodes["a"]
        # Alone, a claims both mails of the new board and hangs sending the first one.
        sink.hold = True
        assert mail_in(env.lmtp["a"], A, "phutball challenge alice bob") == 0
        with sink.cv:
            assert sink.cv.wait_for(lambda: sink.holding >= 1, 20), "no DATA held"
        assert pg.sql(pg.url, "SELECT node, count(*) FROM plateau_mail_claims GROUP BY node") \
            == [["a", "2"]]
        b = env.start("b")
        # a is frozen with both in hand: b ends its sessions, takes it over, sends both.
        freeze(a.proc)
        wait_for("a's takeover",
                 lambda: pg.sql(pg.url, "SELECT id FROM nodes ORDER BY id") == [["b"]], 20)
        sink.hold = False  # a's transaction ends with 451, for when it wakes
        got = sink.take(2)
        assert subjects(got) == [(A, "New Phutball Board 101"), (B, "New Phutball Board 101")]
        assert b.read_log().count("mail: sent phutball.101.") == 2
        # a wakes with the second row in hand: it sends it no more.
        a.proc.send_signal(signal.SIGCONT)
        wait_for("a to register again",
                 lambda: pg.sql(pg.url, "SELECT id FROM nodes ORDER BY id") == [["a"], ["b"]], 20)
        time.sleep(1.5)
        sink.take(0)
        assert pg.sql(pg.url, "SELECT count(*) FROM mail_outbox") == [["0"]]
        assert "mail: sent phutball.101." not in a.read_log()
    finally:
        if env.nodes["a"].alive():
            env.nodes["a"].proc.send_signal(signal.SIGCONT)
        env.close()


def test_cap(pg):
    env = Mailnodes(pg)
    try:
        # 40 mails to one address wait in the outbox (as if 20 were written by each node, each
        # under its own cap of 30 an hour): the nodes together send 30.
        pg.sql(pg.url, "INSERT INTO mail_outbox(key, recipient, message, created_ms) SELECT "
                       "'cap.' || g, 'victim@example.org', 'Subject: cap ' || g || "
                       "E'\\r\\n\\r\\nhi\\r\\n', g FROM generate_series(1, 40) g")
        got = env.sink.take(30)
        assert {m["rcpt"][0] for m in got} == {"victim@example.org"}
        wait_for("the outbox to empty",
                 lambda: pg.sql(pg.url, "SELECT count(*) FROM mail_outbox") == [["0"]], 10)
        env.sink.take(0)
        logs = env.nodes["a"].read_log() + env.nodes["b"].read_log()
        assert "mail: dropped a mail to victim@example.org: 30 mails to this address in the " \
               "last hour (all nodes)" in logs
        sent = {n: env.nodes[n].read_log().count("mail: sent cap.") for n in ("a", "b")}
        assert sum(sent.values()) == 30, sent
        print(f"cap: sent by a / b: {sent['a']} / {sent['b']}", flush=True)
    finally:
        env.close()


def test_settings(pg):
    env = Mailnodes(pg)
    try:
        env.signups()
        a, b = env.nodes["a"], env.nodes["b"]
        alice = b.text("alice", "pw-alice-1")
        # bob (notify every, connected nowhere) hears of the new board on b.
        assert "New Phutball Board 101" in answer(alice, "phutball challenge alice bob")
        [m] = env.sink.take(1)
        check_common(m, B, "New Phutball Board 101")
        # bob turns notifications off on node a: b's next mail to him is not sent.
        bob = a.text("bob", "pw-bob-123")
        assert "notify off" in answer(bob, "notify off")
        bob.close()
        time.sleep(3)  # within seconds
        answer(alice, "move 101 H11#1")
        env.sink.take(0)
        # Back to every on a: b mails him alice's draw offer.
        bob = a.text("bob", "pw-bob-123")
        assert "notify every" in answer(bob, "notify every")
        bob.close()
        time.sleep(3)
        answer(alice, "propose 101")
        [m] = env.sink.take(1)
        check_common(m, B, "Phutball Board 101 bob")
        # While he is logged in on a, a board of b sends him nothing (he rejects from a).
        bob = a.text("bob", "pw-bob-123")
        answer(bob, "reject 101")
        time.sleep(3.5)  # b sees him online on a
        answer(alice, "propose 101")
        env.sink.take(0)
        bob.close()
        # A password changed on a logs in on b.
        bob = a.text("bob", "pw-bob-123")
        assert "Your password is changed." in answer(bob, "change password pw-bob-123 pw-bob-456")
        bob.close()
        time.sleep(3)
        bob_b = b.text()
        bob_b.send("login bob pw-bob-123")
        bob_b.expect(r"^error: wrong name or password")
        time.sleep(0.2)  # the back-off (0.01 s here)
        bob_b.send("login bob pw-bob-456")
        bob_b.expect(r"^(Welcome|Hello), bob")
        no_store_failure(env)
    finally:
        env.close()


def main():
    run_scenario({"remote": test_remote, "digest": test_digest, "kill": test_kill,
                  "freeze": test_freeze, "cap": test_cap, "settings": test_settings})


if __name__ == "__main__":
    main()
