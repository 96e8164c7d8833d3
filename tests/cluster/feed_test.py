#!/usr/bin/env python3
"""Events, presence, listings and notices across nodes (issue 16 item 3; docs/CLUSTER.md,
"Events across nodes"), on real `plateau serve` nodes sharing a PostgreSQL cluster of the
test's own (tests/integration/pg_cluster.py):
  stream    a table played on node a, followed on node b (`resync GAME BOARD 0` and `watch`
            on b, forwarded to a by the node link): b's spectators get exactly the stored events,
            seq 1..N, no gap, no repeat, the same bytes as a's spectators; b's LISTEN session is
            ended (pg_terminate_backend) mid-game, and later the database stops at once and
            starts again: b listens again and still gets every event once;
  moved     a spectator on c follows a table of a; a is killed and b takes the table over; the
            players go on on b: the spectator hears every stored event once, in order;
  presence  `who` on b lists a user logged in on a (and no longer once they leave); malformed
            notifications are logged and dropped; a challenge made on a reaches its target on b
            (the table's events from the challenge on); a player of a table on a who logs in on
            b follows it there; `tables` and /api/tables on b list a's visible tables (not its
            invisible ones), and once a is stopped and b took its tables over, each once;
  bounds    a connection follows at most 64 tables of other nodes: following a 65th is refused
            (after the owner's answer); another connection has its own bound;
  measure   (not a ctest) the delay from a move on a to its delivery to a spectator on b,
            median and p99 over MOVES moves (docs/PERFORMANCE.md, "Cluster events").
Usage: feed_test.py PLATEAU_BINARY SCENARIO [MOVES]. Exits 77 (skipped, saying why) only when the
PostgreSQL server binaries are missing and this is not root."""
import atexit
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import TOKENS, Server, free_port, wait_for  # noqa: E402

BINARY = sys.argv[1]


def secret_args():
    """--cluster-secret-file with a file of the test's, if this plateau has the node link."""
    if "--cluster-secret-file" not in subprocess.run([BINARY, "serve", "--help"],
                                                     capture_output=True, text=True).stdout:
        return []
    if not hasattr(secret_args, "path"):
        fd, secret_args.path = tempfile.mkstemp(prefix="plateau-feed-secret-")
        os.write(fd, os.urandom(32).hex().encode())
        os.close(fd)
        os.chmod(secret_args.path, 0o600)
        atexit.register(os.unlink, secret_args.path)
    return ["--cluster-secret-file", secret_args.path]


def linked():
    """True when plateau has the node link (issue 16 item 2): it forwards `watch`, `show` and
    `resync` to the owner, which answers them instead of the feed's answers from the database;
    a resync's replay may then come after a live event of the feed (the client orders by seq,
    docs/PROTOCOL.md)."""
    return bool(secret_args())


def heard_all(seqs, stored):
    """Every stored event heard once: in order without the link; in any order with it."""
    return (sorted(seqs) if linked() else seqs) == stored and len(set(seqs)) == len(seqs)


def node(pg, name):
    return Server(BINARY, extra=["--store", pg.url, "--node-id", name, "--node-address",
                                 f"127.0.0.1:{free_port()}", "--node-port", str(free_port()),
                                 "--rate", "1000", "--max-tables-per-user", "200"]
                  + secret_args())


def move(client, board, player, ply):
    """Plays one legal move of `player` at `ply`; returns it, or None if the game is over."""
    for tok in TOKENS:
        move.sent_at = time.perf_counter()  # of the last try (measure)
        client.send(f"move {board} {tok}#{ply}")
        i, m = client.expect_any([r"^error: (.*)$",
                                  rf"^bohnduell {board}: {ply}\. \S+ {player} (\S+)$"])
        if i == 1:
            return tok
        if "illegal move" not in m.group(1):
            assert "ended" in m.group(1) or "not playing" in m.group(1), m.group(1)
            return None
    raise AssertionError(f"no legal move for {player} on {board} at ply {ply}")


def stored_seqs(pg, board):
    return [int(r[0]) for r in pg.sql(pg.url, "SELECT e.seq FROM table_events e JOIN tables t "
                                              f"ON t.id = e.table_id WHERE t.number = {board} "
                                              "ORDER BY e.seq")]


class WsEvents:
    """A WebSocket spectator's table events of one board, in the order heard."""

    def __init__(self, ws, board):
        self.ws, self.board, self.events = ws, board, []

    def take(self, events):
        for e in events:
            if e.get("board") == self.board and e.get("seq", 0) > 0 and e.get("type") != "resync":
                self.events.append(e)

    def poll(self):
        self.take(self.ws.command("ping")[1])
        return [e["seq"] for e in self.events]


def test_stream(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob = a.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=12 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        # Spectators: on a (the owner's own delivery) and on b (the feed), by WebSocket (seqs)
        # and by text (bytes). Each starts from the first event.
        spectators = {}
        for name, n in (("a", a), ("b", b)):
            ws = n.ws()
            ws.command("guest")
            w = WsEvents(ws, 101)
            replies, others = ws.command("resync bohnduell 101 0")
            assert replies[0]["type"] == "resync", replies
            w.take(replies + others)
            t = n.text()
            t.send("resync bohnduell 101 0")
            t.expect(r"^Resynced bohnduell 101: \d+ events after 0; now at \d+\.$")
            spectators[name] = (w, t)
        # `watch` on b: the board from the database, then the events.
        watcher = b.text("carol", "pw-carol", register=True)
        watcher.send("watch 101")
        watcher.expect(r"^You are watching bohnduell 101\.$")
        # The page of the last stored event (the owner's own page, through the link).
        watcher.expect(r"^(New|Summary of) BohnDuell Board 101$")
        ply, last, cut = 0, 0, False
        players = [(alice, "alice"), (bob, "bob")]
        while True:
            ply += 1
            client, name = players[(ply - 1) % 2]
            if move(client, 101, name, ply) is None:
                break
            last = ply
            if ply == 6:
                # b's LISTEN session ends (as when the database restarts it): b listens again
                # and reads what it missed from its cursor.
                ended = pg.sql(pg.url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                       "WHERE application_name = 'plateau-node-b' AND query "
                                       "LIKE 'LISTEN%'")
                assert ended == [["t"]], ended
                cut = True
            if ply == 20:
                # The database itself stops at once and starts again: every connection of
                # both nodes comes back by itself; the feed reads what it missed.
                wait_for("b to listen again", lambda: "event feed listening again" in
                         b.read_log(), 5)
                pg.pause()
                time.sleep(0.5)
                pg.resume()
                wait_for("both nodes to heartbeat again", lambda: pg.sql(
                    pg.url, "SELECT count(*) FROM nodes WHERE seen_at > (extract(epoch FROM "
                            "clock_timestamp()) * 1000)::bigint - 1000") == [["2"]], 20)
            if ply >= 40:
                break
        assert cut and last > 20, last
        # `show` on b: the board as the owner shows it (no chat yet: the owner's page adds it).
        watcher.expect(rf"^bohnduell 101: {last}\. ")  # the last move, through the feed
        pages = []
        for client in (alice, watcher):
            client.send("ping")
            client.expect(r"^pong$")
            client.send("show 101")
            client.send("ping")
            pages.append(client.expect(r"(?s)(.*?)^pong$").group(1).strip())
        assert pages[0] == pages[1], pages
        alice.send("chat 101 good game")
        alice.expect(r"good game")
        stored = stored_seqs(pg, 101)
        assert stored == list(range(1, len(stored) + 1)), stored
        wa, ta = spectators["a"]
        wb, tb = spectators["b"]
        wait_for("b's spectator to hear every stored event", lambda: heard_all(wb.poll(), stored),
                 10)
        # (On a the replay of the resync may come after the live "spectators" event it caused:
        # the client orders by seq, docs/PROTOCOL.md.)
        assert sorted(wa.poll()) == stored, (wa.poll(), stored)
        # The same events, field by field (the same serialiser: the same bytes).
        by_seq = sorted(wa.events, key=lambda e: e["seq"])
        for e in by_seq + wb.events:
            e.pop("re", None)  # a's "spectators" event answered its own resync
        assert by_seq == sorted(wb.events, key=lambda e: e["seq"])
        # And by text: byte for byte what a's spectator got.
        ta.send("ping")
        ta.expect(r"^pong$")
        tb.send("ping")
        tb.expect(r"^pong$")
        time.sleep(0.3)
        assert ta.pending() == tb.pending() != "", (ta.pending()[-500:], tb.pending()[-500:])
        watcher.expect("good game")
        log = b.read_log()
        assert log.count("event feed listening again") == 2, log[-2000:]
        print("\n".join(l for l in log.splitlines() if "event feed" in l), flush=True)
        assert a.stop() == 0
        assert b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.kill()


def test_moved(pg):
    nodes = {n: node(pg, n).start() for n in ("a", "b", "c")}
    try:
        a = nodes["a"]
        alice = a.text("alice", "pw-alice", register=True)
        bob = a.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=12 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        # A spectator on c follows 101, served by a.
        ws = nodes["c"].ws()
        ws.command("guest")
        spy = WsEvents(ws, 101)
        replies, others = ws.command("resync bohnduell 101 0")
        assert replies[0]["type"] == "resync", replies
        spy.take(replies + others)
        players = {"alice": alice, "bob": bob}
        order = ["alice", "bob"]
        for ply in range(1, 5):
            assert move(players[order[(ply - 1) % 2]], 101, order[(ply - 1) % 2], ply)
        a.kill()
        heir = wait_for("another node to take 101 over", lambda: (
            lambda o: o if o not in ("a", "") else None)(
            pg.sql(pg.url, "SELECT owner FROM tables WHERE number = 101")[0][0]), 20)
        # The players come back on the new owner; the spectator on c stays where it is.
        players = {n: nodes[heir].text(n, pw) for n, pw in (("alice", "pw-alice"),
                                                             ("bob", "pw-bobby"))}
        for ply in range(5, 9):
            assert move(players[order[(ply - 1) % 2]], 101, order[(ply - 1) % 2], ply)
        stored = stored_seqs(pg, 101)
        assert stored == list(range(1, len(stored) + 1)), stored
        wait_for("c's spectator to hear every stored event once, in order",
                 lambda: heard_all(spy.poll(), stored), 10)
        assert [e["ply"] for e in sorted(spy.events, key=lambda e: e["seq"])
                if e["type"] == "move"] == list(range(1, 9))
        for n in ("b", "c"):
            assert nodes[n].stop() == 0
    finally:
        for n in nodes.values():
            if n.proc and n.alive():
                n.kill()


def test_bounds(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        for board in range(101, 101 + 65):
            alice.send("bohnduell open")
            alice.expect(rf"^.*bohnduell {board}\b.*$")
        spy = b.text()
        for board in range(101, 101 + 64):
            spy.send(f"resync bohnduell {board} 0")
            spy.expect(rf"^Resynced bohnduell {board}: ")
        # Following one table again is no new one; a 65th is refused, before any answer.
        spy.send("resync bohnduell 101 0")
        spy.expect(r"^Resynced bohnduell 101: ")
        spy.send("resync bohnduell 165 0")
        i, _ = spy.expect_any([r"^error: you follow 64 tables of other nodes already; leave one$",
                               r"^Resynced bohnduell 165"])
        if i == 1:  # through the link, the owner answered; following is refused after
            assert linked()
            spy.expect(r"^error: you follow 64 tables of other nodes already; leave one$")
        spy.send("show 165")  # `show` follows nothing: allowed
        spy.expect(r"^bohnduell 165 has no board to show yet\.$|^bohnduell 165: Waiting for "
                   r"players")
        # Another connection has its own bound.
        other = b.text()
        other.send("watch 165")
        other.expect(r"^You are watching bohnduell 165\.$")
        assert a.stop() == 0
        assert b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.kill()


def test_presence(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        dave = a.text("dave", "pw-dave1", register=True)
        carol = b.text("carol", "pw-carol", register=True)

        def who(client):
            client.send("who")
            return client.expect(r"^(\d+) online: (.*)$").group(2)
        wait_for("alice in b's who", lambda: who(carol) == "alice carol dave", 5)
        wait_for("carol in a's who", lambda: who(alice) == "alice carol dave", 5)
        dave.send("quit")
        dave.wait_closed()
        wait_for("dave gone from b's who", lambda: who(carol) == "alice carol", 5)
        # Payloads that are not what a node sends are logged and dropped; the feed goes on.
        pg.sql(pg.url, "NOTIFY plateau_notices, '{\"v\":1,\"kind\":\"follow\",\"to\":\"carol\"}'")
        pg.sql(pg.url, "NOTIFY plateau_events, '1,2'")
        wait_for("b to drop the bad notice", lambda: "a malformed notice dropped (36 bytes; 1 since the last line)" in
                 b.read_log(), 5)
        wait_for("b to drop the bad event notice", lambda: "a malformed plateau_events "
                 "notification dropped" in b.read_log(), 5)
        # A challenge from a reaches carol on b: the new table's events from the challenge on.
        alice.send("bohnduell challenge -supply=8 alice carol")
        alice.expect(r"^New BohnDuell Board 101$")
        carol.expect(r"^New BohnDuell Board 101$")
        assert move(alice, 101, "alice", 1)
        carol.expect(r"^bohnduell 101: 1\. \S+ alice \S+$")
        # dave, a player of a table on a, logs in on b: he follows it there.
        alice.send("bohnduell challenge -supply=8 alice dave")
        alice.expect(r"^New BohnDuell Board 102$")
        dave = b.text("dave", "pw-dave1")
        time.sleep(0.5)
        assert move(alice, 102, "alice", 1)
        dave.expect(r"^bohnduell 102: 1\. \S+ alice \S+$")
        alice.send("chat 102 your move, dave")
        dave.expect(r"^\[bohnduell 102\] alice: your move, dave$")
        # Logged out, he no longer follows it as its player.
        dave.send("logout")
        dave.expect(r"^Logged out\.$")
        time.sleep(0.3)
        alice.send("chat 102 gone?")
        alice.expect(r"gone\?")
        time.sleep(0.5)
        dave.send("ping")
        dave.expect(r"^pong$")
        assert "gone?" not in dave.buf, dave.buf[-500:]
        # An invisible table (103) is listed nowhere but to its players; never on another node.
        alice.send("bohnduell open")
        alice.expect(r"103")
        alice.send("/option invisible")
        alice.expect(r"invisible")
        # Listings: a's visible tables on b, in the same form as on a.
        def listed(client):
            client.send("tables")
            i, m = client.expect_any([r"^(bohnduell 101 .*)$", r"^No tables\.$"])
            return m.group(1) if i == 0 else None
        line = listed(alice)
        wait_for("a's table in b's listing", lambda: listed(carol) == line, 5)
        # /api/tables on b: a's visible tables as a shows them (once both nodes' views are
        # refreshed: each is at most a second old).
        status, body_a = a.http_get("/api/tables")
        expected = [i for i in json.loads(body_a) if i["board"] != 103]
        assert [i["board"] for i in expected] == [101, 102], expected
        wait_for("b's /api/tables", lambda: json.loads(b.http_get("/api/tables")[1]) == expected,
                 5)
        assert a.stop() == 0
        # A node gone: its users are gone from b's answers, and its tables, taken over by b,
        # are listed once, as b's own.
        wait_for("a's users gone from b's who", lambda: who(carol) == "carol", 5)
        wait_for("b to take a's tables over", lambda: pg.sql(
            pg.url, "SELECT DISTINCT owner FROM tables") == [["b"]], 5)
        time.sleep(1.2)  # b's view of the other nodes' listings is refreshed once a second
        assert [i["board"] for i in json.loads(b.http_get("/api/tables")[1])] == [101, 102]
        assert b.stop() == 0
    finally:
        for n in (a, b):
            if n.proc and n.alive():
                n.kill()


def measure(pg, moves):
    """The delay from a move on a to its event on b (text spectators): from the move's line
    sent (its legal try), and from its answer on a (the commit is durable then); median and p99."""
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    sent, acked = [], []
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob = a.text("bob", "pw-bobby", register=True)
        board = 100
        while len(sent) < moves:
            board += 1
            alice.send("bohnduell challenge -supply=40 alice bob")
            alice.expect(rf"^New BohnDuell Board {board}$")
            spy = b.text()
            spy.send(f"resync bohnduell {board} 0")
            spy.expect(r"^Resynced ")
            players = [(alice, "alice"), (bob, "bob")]
            for ply in range(1, 400):
                client, name = players[(ply - 1) % 2]
                if move(client, board, name, ply) is None:
                    break
                answered = time.perf_counter()
                spy.expect(rf"^bohnduell {board}: {ply}\. ")
                now = time.perf_counter()
                sent.append(now - move.sent_at)
                acked.append(now - answered)
                if len(sent) >= moves:
                    break
            spy.close()

        def stats(values):
            values = sorted(values)
            return (statistics.median(values) * 1000,
                    values[max(0, int(len(values) * 0.99) - 1)] * 1000, values[-1] * 1000)
        print(f"cluster events: {len(sent)} moves on {board - 100} boards; event on b after the "
              "move sent on a: median %.1f ms, p99 %.1f ms, max %.1f ms; after its answer on a: "
              "median %.1f ms, p99 %.1f ms, max %.1f ms" % (stats(sent) + stats(acked)),
              flush=True)
    finally:
        a.stop()
        b.stop()


def main():
    scenario = sys.argv[2]
    start = time.time()
    print(f"--- {scenario}", flush=True)
    with PgCluster() as pg:
        if scenario == "measure":
            measure(pg, int(sys.argv[3]) if len(sys.argv) > 3 else 500)
        else:
            {"stream": test_stream, "moved": test_moved, "presence": test_presence,
             "bounds": test_bounds}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
