#!/usr/bin/env python3
"""Messages on several nodes besides a user's own (docs/CLUSTER.md, "Messages to a user on any
node"; the helpers and the first scenarios: tests/cluster/notices_test.py), on real `plateau
serve` nodes sharing a PostgreSQL cluster of the test's own:
  moved   a player seated at a table of a through the node link from b: a dies, b takes the
          table over; the player hears each move, and his queued move's notice, once (not also
          from the feed); a spectator on b of a guest's table of a is told, once, that the
          table closed when the guest, back on b, leaves;
  closed  a message to everyone at a table that is not a table event (a guest's set-up table
          closed when the guest leaves) reaches its spectators on a and on b, once each;
  bounds  notices that are not what a node writes (a line break in a text, an unknown event,
          an unknown field, a bad name, too long) are logged and dropped, and the connections
          hear nothing; a burst of well-formed notices (20,000 at once) beyond the node's budget
          is cut there, logged, and the node goes on.
Usage: notices_table_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only
when the PostgreSQL server binaries are missing and this is not root."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from notices_test import (  # noqa: E402
    kill_nodes, lines, node, settle, show_logs, wait_for, ws_login)
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import answer  # noqa: E402


def test_moved(pg):
    a = node(pg, "a")
    b = node(pg, "b")
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob = b.text("bob", "pw-bobby", register=True)
        # bob sits at alice's table of a through the node link, from b.
        for line in ("/open bohnduell start=1", "/join 1"):
            assert not answer(alice, line).startswith("error"), line
        for line in ("/table bohnduell 101", "/join 2"):
            assert not answer(bob, line).startswith("error"), line
        assert not answer(alice, "/start").startswith("error")
        alice.send("move 101 S4#1")
        alice.expect(r"^bohnduell 101: 1\. A alice S4$")
        bob.expect(r"^bohnduell 101: 1\. A alice S4$")
        # A guest's set-up table on a, watched from b by carol (through the feed).
        guest = a.text()
        guest.send("guest")
        gname = guest.expect(r"^Hello, (guest\d+) \(guest").group(1)
        token = guest.expect(r"^Resume token: (\S+)$").group(1)
        for line in ("/open bohnduell", "/join"):
            assert not answer(guest, line).startswith("error"), line
        carol = b.text("carol", "pw-carol", register=True)
        assert not answer(carol, "/watch 102").startswith("error")
        # a dies; b takes the table over: bob's connection hears it from the table now, each
        # event once (not also from the feed), and his notices too.
        a.kill()
        wait_for("b to take the tables over",
                 lambda: pg.sql(pg.url, "SELECT DISTINCT owner FROM tables") == [["b"]], 15)
        alice = b.text("alice", "pw-alice")
        said = answer(bob, "move 101 S4#2")
        assert said.splitlines().count("bohnduell 101: 2. B bob S4") == 1, said
        assert answer(bob, "queue 101 S3#9").startswith("Queued S3#9 at bohnduell 101")
        alice.send("move 101 S3#3")
        alice.expect(r"^bohnduell 101: 3\. A alice S3$")
        third = "bohnduell 101: 3. A alice S3"
        dropped = "Your queued move S3#9 at bohnduell 101 is dropped: the next move is #4."
        settle(bob, alice, until=lambda: lines(bob, third) and lines(bob, dropped))
        for line in ("bohnduell 101: 2. B bob S4", third, dropped):
            assert lines(bob, line) == 1, (line, bob.buf)
        # The guest comes back on b and leaves: its table, b's now, is closed, and carol, who
        # followed it through the feed before the takeover, is told once.
        guest = b.text()
        guest.send("resume " + token)
        guest.expect(rf"^Welcome back, {gname} ")
        guest.send("logout")
        closed = f"bohnduell 102 is closed: {gname} left before the game started."
        carol.expect("^" + closed + "$")
        settle(carol)
        assert lines(carol, closed) == 1, carol.buf
        assert b.stop() == 0
    except BaseException:
        show_logs(a, b)
        raise
    finally:
        kill_nodes(a, b)


def test_closed(pg):
    a = node(pg, "a")
    b = node(pg, "b")
    try:
        guest = a.text()
        guest.send("guest")
        gname = guest.expect(r"^Hello, (guest\d+) \(guest").group(1)
        for line in ("/open bohnduell", "/join"):
            assert not answer(guest, line).startswith("error"), line
        # Spectators of the set-up table: on a (its node), and on b by text and WebSocket
        # (watching through the node link, then the feed).
        dave = a.text("dave", "pw-dave1", register=True)
        carol = b.text("carol", "pw-carol", register=True)
        carol_ws = ws_login(b, "login carol pw-carol")
        for c in (dave, carol):
            said = answer(c, "/watch 101")
            assert not said.startswith("error"), said
        assert carol_ws.command("/watch 101")[0][0]["type"] != "error"
        # The guest leaves before the start: the table is deleted and everyone there is told
        # (a message, not a table event), on both nodes, once each.
        # (logout revokes its resume token: a guest that holds one keeps its tables.)
        guest.send("logout")
        closed = f"bohnduell 101 is closed: {gname} left before the game started."
        dave.expect("^" + closed + "$")
        carol.expect("^" + closed + "$")
        settle(dave, carol, carol_ws, until=lambda: any(
            e.get("text") == closed for e in carol_ws.events))
        assert lines(dave, closed) == 1 and lines(carol, closed) == 1, carol.buf
        assert [e for e in carol_ws.events if e.get("text") == closed] == \
            [{"type": "ok", "text": closed}], carol_ws.events
        assert a.stop() == 0 and b.stop() == 0
    except BaseException:
        show_logs(a, b)
        raise
    finally:
        kill_nodes(a, b)


def notify(pg, payload):
    pg.sql(pg.url, "SELECT pg_notify('plateau_notices', '" + payload.replace("'", "''") + "')")


def user_notice(to, event, **extra):
    j = {"v": 1, "kind": "user", "to": to, "from": "x", "event": event}
    j.update(extra)
    return json.dumps(j, separators=(",", ":"))


def test_bounds(pg):
    b = node(pg, "b")
    try:
        carol = b.text("carol", "pw-carol", register=True)
        ok = {"type": "ok", "data": {"text": "hello carol"}}
        bad = [
            user_notice("carol", {"type": "ok", "data": {"text": "hello\nerror: forged"}}),
            user_notice("carol", {"type": "login", "data": {"text": "hello"}}),
            user_notice("carol", {"type": "ok", "data": {"text": "hello", "token": "t"}}),
            user_notice("carol", {"type": "ok", "data": {"text": "x" * 1001}}),
            user_notice("carol", {"type": "queued", "data": {
                "game": "bohnduell", "board": 101, "move": "S4", "dropped": True,
                "cancelled": True, "text": "hello"}}),
            user_notice("carol", {"type": "invite", "data": {
                "game": "chess", "board": 101, "by": "alice", "text": "hello"}}),
            user_notice("c", ok),
            user_notice("carol", ok, extra=1),
            user_notice("carol", ok, skip={"node": "b", "cid": 0}),
            user_notice("carol", ok, v=2),
        ]
        for p in bad:
            notify(pg, p)
        wait_for("b to drop the bad notices", lambda: "a malformed notice dropped" in
                 b.read_log(), 5)
        # One well-formed notice after them: carol hears it alone, as an ok line.
        notify(pg, user_notice("carol", ok))
        carol.expect(r"^hello carol$")
        carol.send("ping")
        carol.expect(r"^pong$")
        heard = carol.buf.splitlines()
        assert heard.count("hello carol") == 1 and "hello" not in heard, carol.buf
        assert not any("forged" in l or "x" * 100 in l for l in heard), carol.buf
        log = b.read_log()
        assert log.count("a malformed notice dropped") >= 1, log[-2000:]
        # A burst of 20,000 in one transaction: the node tells at most its budget (4,000, and
        # what refills meanwhile), logs the rest as dropped and goes on.
        # (PostgreSQL folds identical notifications of one transaction into one: each differs.)
        payload = user_notice("carol", {"type": "ok", "data": {"text": "burst @"}})
        pg.sql(pg.url, "SELECT count(pg_notify('plateau_notices', replace('" + payload +
               "', '@', i::text))) FROM generate_series(1, 20000) i")
        wait_for("b to cut the burst", lambda: "too many user notices" in b.read_log(), 10)
        time.sleep(1)
        carol.send("ping")
        carol.expect(r"^pong$")
        heard = sum(1 for l in carol.buf.splitlines() if l.startswith("burst "))
        print(f"burst: {heard} of 20000 notices told", flush=True)
        assert 4000 <= heard < 20000, heard
        assert b.stop() == 0
    finally:
        if b.proc and b.alive():
            b.kill()


def main():
    scenario = sys.argv[2]
    start = time.time()
    print(f"--- {scenario}", flush=True)
    with PgCluster() as pg:
        {"moved": test_moved, "closed": test_closed, "bounds": test_bounds}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
