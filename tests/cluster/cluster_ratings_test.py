#!/usr/bin/env python3
"""Ratings across nodes (docs/CLUSTER.md): a rated game ends on node a, the next one between the
same players on node b; b rates the second from the ratings the first left (not from the 1500 it
read at its start), and `standings` on a shows both games. Before the fix each node rated from
its own cache, so b overwrote a's update.
Usage: cluster_ratings_test.py PLATEAU_BINARY. Exits 77 (skipped, saying why) only when the
PostgreSQL server binaries are missing and this is not root."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from pg_cluster import PgCluster  # noqa: E402
from plateau_harness import Server, free_port  # noqa: E402

BINARY = sys.argv[1]


def node(pg, name):
    port = free_port()
    return Server(BINARY, extra=["--store", pg.url, "--node-id", name, "--node-address",
                                 f"127.0.0.1:{port}", "--node-port", str(free_port()),
                                 "--rate", "1000"])


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


def main():
    start = time.time()
    with PgCluster() as pg:
        test_ratings_across_nodes(pg)
    print(f"ok  ratings ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
