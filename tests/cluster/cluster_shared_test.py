#!/usr/bin/env python3
"""What nodes share besides tables (docs/CLUSTER.md), each scenario failing before its fix:
  ratings   a rated game ends on node a, the next one between the same players on node b; b
            rates the second from the ratings the first left (not from the 1500 it read at its
            start), and `standings` on a shows both games (each node rated from its own cache,
            so b overwrote a's update);
  vacation  a vacation started on node b stops the correspondence time of a board node a
            serves (a forfeited the player on vacation: it read vacations only at its start).
Usage: cluster_shared_test.py PLATEAU_BINARY SCENARIO. Exits 77 (skipped, saying why) only when
the PostgreSQL server binaries are missing and this is not root."""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from pg_cluster import cluster_secret_file, run_scenario  # noqa: E402
from plateau_harness import Server, free_port  # noqa: E402

BINARY = sys.argv[1]


DAY_MS = 24 * 60 * 60 * 1000
HOUR_MS = 60 * 60 * 1000


def node(pg, name, extra=()):
    port = free_port()
    return Server(BINARY, extra=["--store", pg.url, "--node-id", name, "--node-address",
                                 f"127.0.0.1:{port}", "--node-port", str(free_port()),
                                 "--cluster-secret-file", cluster_secret_file(),
                                 "--rate", "1000"] + list(extra))


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


def main():
    run_scenario({"ratings": test_ratings_across_nodes, "vacation": test_vacation_across_nodes})


if __name__ == "__main__":
    main()
