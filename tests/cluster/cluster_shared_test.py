#!/usr/bin/env python3
"""What nodes share besides tables (docs/CLUSTER.md), each scenario failing before its fix:
  ratings   a rated game ends on node a, the next one between the same players on node b; b
            rates the second from the ratings the first left (not from the 1500 it read at its
            start), and `standings` on a shows both games (each node rated from its own cache,
            so b overwrote a's update);
  vacation  a vacation started on node b stops the correspondence time of a board node a
            serves (a forfeited the player on vacation: it read vacations only at its start);
  records   GET /records/GAME/N on node b of tables node a serves: the same bytes as on a (b
            answered 404 "no such record"), an invisible table's only with its key, the 404s
            of a missing board and of a game not started, bounded lookups (503 "busy"), a
            record request on the link out of bounds cutting that connection only, and with a
            frozen: 503 within the link's time-out while b answers /healthz; once b has taken
            the table over, the same record from b.
Usage: cluster_shared_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when
the PostgreSQL server binaries are missing and this is not root."""
import json
import os
import signal
import struct
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from pg_cluster import cluster_node, run_scenario  # noqa: E402
from plateau_harness import answer, free_port, freeze, record_moves, wait_for  # noqa: E402
from cluster_test import move, owners  # noqa: E402
from link_test import SECRET, Link, blake  # noqa: E402

BINARY = sys.argv[1]


DAY_MS = 24 * 60 * 60 * 1000
HOUR_MS = 60 * 60 * 1000


def node(pg, name, extra=(), node_port=None):
    return cluster_node(BINARY, pg, name, extra, node_port)


def rated_game(ohs, xs, names):
    """names[0] (Ohs, client `ohs`) challenges names[1] (Xs), two plies, Ohs resigns at its
    turn; returns the two rating lines' (from, to) by player."""
    loser = ohs
    ohs.send(f"phutball challenge {names[0]} {names[1]}")
    board = ohs.expect(r"^New Phutball Board (\d+)$").group(1)
    for ply, (client, move) in enumerate([(ohs, "H12"), (xs, "J12")], start=1):
        client.send(f"phutball move {board} {move}#{ply}")
        client.expect(rf"^phutball {board}: {ply}\. [OX] \w+ {move}$")
    loser.send(f"resign {board}")
    loser.expect(r"^Game won by (alice|bob)\.$")
    out = {}
    for _ in range(2):
        m = loser.expect(r"^(alice|bob)'s rating went (?:up|down) from (\d+) to (\d+)\.")
        out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out


def standings(client):
    client.send("standings phutball")
    client.expect(r"^Standings of phutball:$")
    rows = {}
    for _ in range(2):
        m = client.expect(r"^ +\d\. (\w+) +(\d+)  RD +\d+  games (\d+)$")
        rows[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return rows


def test_ratings_across_nodes(pg):
    a = node(pg, "a").start()
    b = node(pg, "b").start()
    try:
        alice_a = a.text("alice", "pw-alice", register=True)
        bob_a = a.text("bob", "pw-bobby", register=True)
        first = rated_game(alice_a, bob_a, ("alice", "bob"))
        assert first["alice"][0] == 1500 and first["bob"][0] == 1500, first
        assert first["alice"][1] < 1500 < first["bob"][1], first

        alice_b = b.text("alice", "pw-alice")
        bob_b = b.text("bob", "pw-bobby")
        second = rated_game(bob_b, alice_b, ("bob", "alice"))
        # b starts from what a stored, not from its own (start-up) 1500.
        assert second["alice"][0] == first["alice"][1], (first, second)
        assert second["bob"][0] == first["bob"][1], (first, second)

        # a's standings show the game b rated.
        rows = standings(alice_a)
        assert rows == {"alice": (second["alice"][1], 2), "bob": (second["bob"][1], 2)}, rows
        stored = pg.sql(pg.url, "SELECT player, games FROM ratings WHERE game = 'phutball' "
                                "ORDER BY player")
        assert [(p, int(g)) for p, g in stored] == [("alice", 2), ("bob", 2)], stored
    finally:
        for n in (a, b):
            if n.alive():
                n.stop()


def test_vacation_across_nodes(pg):
    with tempfile.TemporaryDirectory(prefix="plateau-clock-") as tmp:
        offset = os.path.join(tmp, "offset")

        def set_clock(ms):
            """Both nodes' simulated wall clock (read every 200 ms), then a few ticks."""
            with open(offset + ".tmp", "w") as f:
                f.write(str(ms))
            os.replace(offset + ".tmp", offset)
            time.sleep(1.0)

        set_clock(0)
        clock = ["--test-clock-offset-file", offset]
        a = node(pg, "a", clock).start()
        b = node(pg, "b", clock).start()
        try:
            alice_a = a.text("alice", "pw-alice", register=True)
            bob_a = a.text("bob", "pw-bobby", register=True)
            alice_a.send("phutball challenge -forfeittime=3 alice bob")
            board = alice_a.expect(r"^New Phutball Board (\d+)$").group(1)
            for ply, (client, move) in enumerate([(alice_a, "H12"), (bob_a, "J12")], start=1):
                client.send(f"phutball move {board} {move}#{ply}")
                client.expect(rf"^phutball {board}: {ply}\. [OX] \w+ {move}$")
            # alice, to move, goes on vacation for 5 days on node b.
            alice_b = b.text("alice", "pw-alice")
            alice_b.send("vacation 5")
            alice_b.expect(r"^You are on vacation until ")

            def status():
                return pg.sql(pg.url, f"SELECT data::json->>'status' FROM tables WHERE number = {board} "
                                      "AND game = 'phutball'")[0][0]
            set_clock(4 * DAY_MS)  # past the 3 days, within the vacation: no forfeit
            assert status() == "playing", status()
            set_clock(8 * DAY_MS + HOUR_MS)  # 3 days of correspondence time + 5 of vacation
            deadline = time.time() + 10
            while status() == "playing" and time.time() < deadline:
                time.sleep(0.2)
            assert status() == "over", status()
        finally:
            for n in (a, b):
                if n.alive():
                    n.stop()


def get(server, path, timeout=15):
    """(status, body) of GET `path`; a longer time-out than Server.http_get's 5 s."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.http_port}{path}",
                                    timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def link_record(node_port, fields):
    """Sends a record request with `fields` to the node link at `node_port` as an authenticated
    peer: the done frame's fields, or None when the node cut the connection."""
    ln = Link(node_port)
    _, _, (c2s, s2c, _, _, _) = ln.handshake(SECRET)
    ln.recv()  # the proof
    body = json.dumps(dict({"t": "req", "id": 1}, **fields)).encode()
    ln.send(blake(c2s, struct.pack(">Q", 0), body) + body)
    try:
        raw = ln.recv()
    except (EOFError, ConnectionResetError):
        return None
    assert raw[:32] == blake(s2c, struct.pack(">Q", 0), raw[32:]), raw
    return json.loads(raw[32:])


def test_records_across_nodes(pg):
    here = ["--place-tables", "here"]  # every table on a, where its players are
    a_link = free_port()
    a = node(pg, "a", here, node_port=a_link).start()
    b = node(pg, "b", here).start()
    try:
        alice = a.text("alice", "pw-alice", register=True)
        bob = a.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=8 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        acked = {}
        played = [move(alice, 101, "alice", 1, acked), move(bob, 101, "bob", 2, acked),
                  move(alice, 101, "alice", 3, acked)]
        # A visible table: b answers with a's bytes, whole.
        status, record = get(a, "/records/bohnduell/101")
        assert status == 200 and '[Board "101"]' in record, (status, record)
        # Its moves, as "SEAT:MOVE".
        assert [m.split(":")[-1] for m in record_moves(record)] == played, (record, played)
        for path in ("/records/bohnduell/101", "/records/bohnduell/101.txt",
                     "/records/bohnduell/101?key=" + "k" * 100):
            assert get(b, path) == (200, record), path
        # An invisible table: its key or nothing, on b as on a.
        answer(alice, "/open bohnduell start=1")
        assert answer(alice, "/join 1") == "alice takes seat 1.\n"
        assert answer(alice, "/option invisible") == "alice sets invisible.\n"
        assert answer(alice, "/invite bob") == "You invited bob to bohnduell 102.\n"
        assert answer(bob, "/table 102").startswith("You are at bohnduell 102.")
        assert answer(bob, "/join 2") == "bob takes seat 2.\n"
        alice.send("/start")
        alice.expect(r"^Game bohnduell 102 starts: ")
        move(alice, 102, "alice", 1, acked)
        ws = a.ws()
        ws.command("login alice pw-alice")
        key_path = ws.command("show 102")[0][0]["record"]
        assert key_path.startswith("/records/bohnduell/102?key="), key_path
        status, secret = get(a, key_path)
        assert status == 200 and '[Board "102"]' in secret, (status, secret)
        assert get(b, key_path) == (200, secret)
        wrong = key_path[:-1] + ("0" if key_path[-1] != "0" else "1")
        for path in ("/records/bohnduell/102", "/records/bohnduell/102?key=", wrong):
            assert get(b, path) == (404, "no such record\n") == get(a, path), path
        # Missing boards, a game word that is not the board's, bounds: as on a.
        for path in ("/records/bohnduell/999", "/records/phutball/101", "/records/bohnduell/0",
                     "/records/" + "g" * 40 + "/101"):
            assert get(b, path) == (404, "no such record\n") == get(a, path), path
        # A table whose game has not started.
        assert answer(alice, "/open bohnduell").startswith("Table bohnduell 103")
        assert get(b, "/records/bohnduell/103") == (404, "the game has not started\n")
        assert get(a, "/records/bohnduell/103") == (404, "the game has not started\n")
        assert owners(pg) == {101: ("a", 1), 102: ("a", 1), 103: ("a", 1)}, owners(pg)
        # On the link: a's answers; a request out of bounds cuts that connection only.
        ask = {"game": "bohnduell", "number": 101, "key": ""}
        assert link_record(a_link, {"record": ask}) == {"t": "done", "id": 1, "record": record}
        assert link_record(a_link, {"record": dict(ask, number=102)}) == {
            "t": "done", "id": 1, "missing": True}
        assert link_record(a_link, {"record": dict(ask, number=103)}) == {
            "t": "done", "id": 1, "not_started": True}
        for bad in (dict(ask, game="g" * 33), dict(ask, number=0), dict(ask, number="101"),
                    dict(ask, key="k" * 65), {"game": "bohnduell", "number": 101}, "101"):
            assert link_record(a_link, {"record": bad}) is None, bad
        assert get(b, "/records/bohnduell/101") == (200, record)
        # Boards named one after the other by URL are looked up at the forwarding's rate
        # (200 at once, then 100 a second): beyond it, 503 "busy", and b keeps answering.
        results = []

        def burst(first):
            for n in range(first, first + 100):
                results.append(get(b, f"/records/bohnduell/{n}"))
        threads = [threading.Thread(target=burst, args=(1000 + 100 * i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        busy = results.count((503, "busy, try again\n"))
        assert busy > 0 and busy + results.count((404, "no such record\n")) == 800, (
            busy, [r for r in results if r[0] not in (404, 503)][:3])
        print(f"records: {busy} of 800 lookups refused as busy", flush=True)
        time.sleep(2.5)  # the budget fills again
        assert get(b, "/records/bohnduell/101") == (200, record)
        # The owner frozen: 503 within the link's 10 s, and b serves meanwhile.
        freeze(a.proc)
        frozen = time.time()
        got = []
        asking = threading.Thread(target=lambda: got.append(get(b, "/records/bohnduell/101")))
        asking.start()
        time.sleep(0.5)
        assert asking.is_alive()  # waiting for a
        assert get(b, "/healthz", timeout=2) == (200, "ok\n")
        asking.join(15)
        waited = time.time() - frozen
        assert got == [(503, "the node serving bohnduell 101 cannot be reached now: try again\n")
                       ], got
        assert waited < 11.5, waited
        print(f"records: the frozen owner's record answered 503 after {waited:.1f} s", flush=True)
        # Taken over by b: served there, the same record.
        wait_for("b to take 101 over", lambda: owners(pg)[101] == ("b", 2), 20)
        assert get(b, "/records/bohnduell/101") == (200, record)
        a.proc.send_signal(signal.SIGCONT)
    finally:
        for n in (a, b):
            if n.alive():
                n.kill()


def main():
    run_scenario({"ratings": test_ratings_across_nodes, "vacation": test_vacation_across_nodes,
                  "records": test_records_across_nodes})


if __name__ == "__main__":
    main()
