#!/usr/bin/env python3
"""Writes tests/data/server/v1_store/: a store written by the server as it was before the
versioned table snapshot (table rows in the unversioned format, "version 1"), and what that
server showed of each table on the text port. snapshot_compat_test.py opens a copy with today's
binary and checks that every table replays identically.

Run once, with the binary of the old format (it was generated with main at 63ee6fd):
  make_v1_store.py OLD_PLATEAU_BINARY tests/data/server/v1_store
Tables: bohnduell 101 (a pbmserv board with a Fischer clock, moves, a queued move, chat),
phutball 101 (a board with a pending draw offer), biloba 101 (a BSW table, started, with
a pending undo request and chat), bohnduell 102 (a table in set-up, one seat taken, options
set, invisible with an invitation), phutball 102 (resigned after both moved: over, rated)."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from plateau_harness import Server, answer  # noqa: E402

BINARY, OUT = sys.argv[1], sys.argv[2]


def biloba_move(played):
    record = '[Game "biloba"]\n' + " ".join(f"{i + 1}. {m}" for i, m in enumerate(played)) + "\n"
    out = subprocess.run([BINARY, "moves", "biloba", "--record", "-"], input=record,
                         capture_output=True, text=True, check=True).stdout.split()
    return out[len(played) % len(out)]


# What snapshot_compat_test.py asks of each table (as alice, who sits everywhere).
SHOW = ["bohnduell show 101", "phutball show 101", "biloba show 101", "bohnduell show 102",
        "phutball show 102", "bohnduell show 101#2", "/table bohnduell 101", "/info",
        "/table phutball 101", "/info", "/table biloba 101", "/info", "/table bohnduell 102",
        "/info", "/table phutball 102"]


def main():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    alice = server.text("alice", "pw-alice-1", register=True)
    bob = server.text("bob", "pw-bobby-1", register=True)
    carol = server.text("carol", "pw-carol-1", register=True)
    # bohnduell 101: clock, moves, chat, a queued move of bob.
    alice.send("bohnduell challenge -supply=8 -clock=fischer:600+5 alice bob")
    alice.expect(r"^New BohnDuell Board 101$")
    alice.send("bohnduell move 101 S4#1")
    alice.expect(r"^bohnduell 101: 1\. ")
    bob.send("bohnduell move 101 S4#2")
    bob.expect(r"^bohnduell 101: 2\. ")
    alice.send("/say hello from the old format")
    bob.expect(r"hello from the old format")
    bob.send("bohnduell queue 101 S3#4")
    bob.expect(r"^Queued S3#4 at bohnduell 101")
    # phutball 101: two moves and a draw offer.
    alice.send("phutball challenge alice bob")
    alice.expect(r"^New Phutball Board 101$")
    alice.send("phutball move 101 H11")
    alice.expect(r"^phutball 101: 1\. ")
    bob.send("phutball move 101 J12")
    bob.expect(r"^phutball 101: 2\. ")
    alice.send("phutball propose 101")
    bob.expect(r"alice has proposed a draw")
    # biloba 101: a BSW table, started, three moves, an undo request, chat.
    alice.send("/open biloba")
    alice.expect(r"^Table biloba 101 is open")
    alice.send("/join 1")
    alice.expect(r"alice takes seat 1")
    bob.send("/table biloba 101")
    bob.expect(r"You are at biloba 101")
    bob.send("/join 2")
    bob.expect(r"bob takes seat 2")
    alice.send("/start")
    m = alice.expect(r"^Game biloba 101 starts: (\w+) vs (\w+)")
    first, second = m.group(1), m.group(2)
    clients = {"alice": alice, "bob": bob}
    played = []
    for i in range(3):
        who = clients[first if i % 2 == 0 else second]
        mv = biloba_move(played)
        who.send(f"biloba move 101 {mv}#{i + 1}")
        who.expect(rf"^biloba 101: {i + 1}\. ")
        played.append(mv)
    clients[first].send("biloba undo 101")
    clients[second].expect(r"has asked to undo the last move")
    bob.send("/say take it back?")
    alice.expect(r"take it back\?")
    # bohnduell 102: set-up, invisible, carol invited, supply changed.
    alice.send("/open bohnduell")
    alice.expect(r"^Table bohnduell 102 is open")
    alice.send("/join")
    alice.expect(r"alice takes seat 1")
    alice.send("/option supply=9")
    alice.expect(r"alice sets supply=9")
    alice.send("/option invisible")
    alice.expect(r"alice sets invisible")
    alice.send("/invite carol")
    carol.expect(r"invite")
    # phutball 102: both move, then alice resigns: over, rated.
    alice.send("phutball challenge alice bob")
    alice.expect(r"^New Phutball Board 102$")
    alice.send("phutball move 102 H11")
    alice.expect(r"^phutball 102: 1\. ")
    bob.send("phutball move 102 J12")
    bob.expect(r"^phutball 102: 2\. ")
    alice.send("phutball resign 102")
    bob.expect(r"Game won by bob")
    for c in (alice, bob, carol):
        c.close()
    assert server.stop() == 0
    os.makedirs(OUT, exist_ok=True)
    shutil.copy(os.path.join(server.data_dir, "data", "plateau.db"), os.path.join(OUT, "plateau.db"))
    # What the old server shows after a restart on that store.
    server.start()
    alice = server.text("alice", "pw-alice-1")
    with open(os.path.join(OUT, "shown.txt"), "w") as f:
        for line in SHOW:
            f.write(f">>> {line}\n" + answer(alice, line))
    status, record = server.http_get("/records/bohnduell/101")
    assert status == 200
    with open(os.path.join(OUT, "bohnduell_101.txt"), "w") as f:
        f.write(record)
    alice.close()
    assert server.stop() == 0


if __name__ == "__main__":
    main()
