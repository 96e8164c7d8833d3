#!/usr/bin/env python3
"""Issue 14 item 1: every Biloba table ends. A 3-player table (a person, cpu:2, cpu:3) used to
run for ever once the person was out: the computers shuffled past move 19,000 and the person's
resignation "takes effect at your next turn", a turn that never came. Now a resignation in a
game of 3+ seats is answered at once (the computer plays the seat on, its result is 0), the
computers play on without pause, and the no-progress rule (300 quiet turns) or the rules end the
game; the end line, the JSON-free text port and the record say how.
Usage: biloba_table_end_test.py PLATEAU_BINARY"""
import json
import os
import re
import sqlite3
import sys

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]
END = r"^biloba 101: (Game [^\n]*) \(([0-9/-]+), (rules|no progress|resign)\)$"


def challenge_move_and_resign(alice, challenge, third):
    """alice challenges (`challenge`), plays e7-e6, waits for the third seat's first move (before
    every seat has moved, a resignation declines the game) and resigns."""
    alice.send(challenge)
    alice.expect(r"^New Biloba Board 101$")
    alice.send("move 101 e7-e6#1")
    alice.expect(r"^biloba 101: 1\. O alice e7-e6$")
    alice.expect(rf"^biloba 101: 3\. R {third} ")
    alice.send("resign 101")


def test_resigned_person_and_two_cpus_finish():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        # Answered at once, whoever is to move.
        challenge_move_and_resign(alice, "biloba challenge -players=3 alice cpu:2 cpu:3", "cpu:3")
        alice.expect(r"^You resign at biloba 101: the others play on, the computer plays your "
                     r"pawns, and your result is 0\.$")
        # Anything that needs a turn of the resigned seat is refused at once.
        # (The computers' moves go on meanwhile: expect the line among them.)
        alice.send("queue 101 e6-e5")
        alice.expect(r"^error: you have resigned at biloba 101; the computer plays your pawns "
                     r"until the game ends$")
        alice.send("resign 101")
        alice.expect(r"^error: you have already resigned at biloba 101")
        # The computers finish it: by the rules or 300 turns without a capture (a timeout, not
        # a speed target).
        m = alice.expect(END, timeout=60)
        result, reason = m.group(2), m.group(3)
        print(m.group(0), flush=True)
        assert result.startswith("0-"), m.group(0)  # the resigned seat's result is 0
        status, record = server.http_get("/records/biloba/101")
        assert status == 200, status
        assert f'[Termination "{reason}"]' in record, record
        assert f'[Result "{result}"]' in record, record
        assert '[Resigned "O"]' in record, record
        page = answer(alice, "show 101")
        if reason == "no progress":
            assert "Result: Draw (300 turns without a capture)." in page, page
        # The record replays through the rules to the same end (plateau's record reader).
        tables = answer(alice, "biloba tables")
        assert re.match(r"^biloba 101 over ply \d+: alice, cpu:2, cpu:3 \(players=3\)\n$", tables), tables
        # The game is over: nothing is deferred any more.
        assert answer(alice, "resign 101").startswith("error: "), "resign after the end"
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_no_progress_option_at_a_table():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        # Two computers alone from the first move on would need no person: the person moves
        # once, resigns, and no_progress=20 ends the shuffle soon after the last capture.
        challenge_move_and_resign(
            alice, "biloba challenge -players=3 -no_progress=20 alice cpu:random cpu:random",
            "cpu:random")
        alice.expect(r"^You resign at biloba 101")
        m = alice.expect(END, timeout=60)
        status, record = server.http_get("/records/biloba/101")
        assert status == 200 and '[Options "players=3,no_progress=20"]' in record, record
        assert f'[Termination "{m.group(3)}"]' in record, record
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


# Orange has one lone pawn on a5 that can never take: its first turn is `out` (§6.2).
DOOMED = ("##.....##/#.......#/........B/.......BB/O...*.BB./.......BB/....R...B/#..RRR..#/"
          "##RR.RR## O 3")


def restart_from(server, position):
    """Stops `server` and restarts it with board 101 starting from `position` (the stored
    snapshot's start position, edited in the database)."""
    assert server.stop() == 0
    db = os.path.join(server.data_dir, "data", "plateau.db")
    with sqlite3.connect(db) as c:
        (data,) = c.execute("SELECT data FROM tables WHERE number = 101").fetchone()
        snapshot = json.loads(data)
        snapshot["initial"] = position
        c.execute("UPDATE tables SET data = ? WHERE number = 101", (json.dumps(snapshot),))
    server.start()


def test_an_eliminated_person_neither_asks_nor_is_asked():
    # Before, Orange out of the game could still offer a draw or accept one (and so share it),
    # and an offer waited for Orange's answer.
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        for name in ("alice", "bob", "carol"):
            server.text(name, "pw-" + name + "-123", register=True).close()
        alice = server.text("alice", "pw-alice-123")
        alice.send("biloba challenge -players=3 alice bob carol")
        alice.expect(r"^New Biloba Board 101$")
        restart_from(server, DOOMED)
        alice, bob, carol = (server.text(n, "pw-" + n + "-123") for n in ("alice", "bob", "carol"))
        alice.send("move 101 out#1")
        alice.expect(r"^biloba 101: 1\. O alice out$")
        alice.send("propose 101")
        alice.expect(r"^error: you have no turn left at biloba 101: your side is out of the game")
        bob.send("propose 101")
        bob.expect(r"^biloba 101: bob has proposed a draw; waiting for carol\.$")
        alice.send("accept 101")
        alice.expect(r"^error: you have no turn left at biloba 101")
        carol.send("accept 101")
        # Shared by the two who still play; Orange, already out, gets 0.
        carol.expect(r"^biloba 101: Game was a tie between bob and carol\. \(0-1/2-1/2, agreement\)$")
        status, record = server.http_get("/records/biloba/101")
        assert '[Result "0-1/2-1/2"]' in record and '[Termination "agreement"]' in record, record
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_an_eliminated_person_is_answered_at_once():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        alice.send("biloba challenge -players=3 alice cpu:2 cpu:3")
        alice.expect(r"^New Biloba Board 101$")
        restart_from(server, DOOMED)
        alice = server.text("alice", "pw-alice")
        alice.send("move 101 out#1")
        alice.expect(r"^biloba 101: 1\. O alice out$")
        alice.expect(r"^biloba 101: 3\. R cpu:3 ")
        # Orange has no pawns: its turn never comes. What needs it is refused at once...
        alice.send("queue 101 e7-e6")
        alice.expect(r"^error: you have no turn left at biloba 101: your side is out of the game")
        alice.send("move 101 e7-e6")
        alice.expect(r"^error: you have no turn left at biloba 101")
        # A resignation too (it used to wait for "your next turn").
        alice.send("resign 101")
        alice.expect(r"^You resign at biloba 101: the others play on")
        # ... and nothing else waits for it: the computers finish the game alone, the
        # no-progress rule at the latest (a timeout, not a speed target).
        m = alice.expect(END, timeout=60)
        print(m.group(0), flush=True)
        result, reason = m.group(2), m.group(3)
        assert result.startswith("0-"), m.group(0)
        status, record = server.http_get("/records/biloba/101")
        assert status == 200, status
        assert f'[Position "{DOOMED}"]' in record, record
        assert "O:out" in record, record
        if reason == "no progress":
            assert '[Termination "no progress"]' in record, record
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_the_contest_ends_when_one_contender_is_left():
    # The computer playing a resigned seat may eliminate a contender: the game then ends at
    # once, won by the last contender. Before, it went on and the resigned seat's bot could win
    # by the rules ("alice wins" on the page, 0-1/2-1/2 "rules" in the result: seen 3 times in 3
    # with these bots and seeds).
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        for board in (101, 102, 103):
            challenge = "biloba challenge -players=3 -no_progress=40 alice cpu:random cpu:random"
            alice.send(challenge)
            alice.expect(rf"^New Biloba Board {board}$")
            alice.send(f"move {board} e7-e6#1")
            alice.expect(rf"^biloba {board}: 1\. O alice e7-e6$")
            alice.expect(rf"^biloba {board}: 3\. R cpu:random ")
            alice.send(f"resign {board}")
            m = alice.expect(rf"^biloba {board}: Game [^\n]* \(([0-9/-]+), ([a-z ]+)\)$",
                             timeout=60)
            result, reason = m.group(1), m.group(2)
            print(m.group(0), flush=True)
            assert reason in ("resign", "no progress"), m.group(0)
            if reason == "resign":
                assert result in ("0-1-0", "0-0-1"), m.group(0)
            else:
                assert result == "0-1/2-1/2", m.group(0)
            assert "alice wins" not in answer(alice, f"show {board}")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_the_server_ply_limit_ends_an_endless_table():
    # no_progress=0 (the original's endless games) and only computers left in play: before,
    # they shuffled for ever at a store commit per ply. --max-plies ends the game drawn among
    # the seats in play (or the contest ends first if a computer is eliminated).
    server = Server(BINARY, extra=["--rate", "1000", "--max-plies", "40"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        challenge_move_and_resign(
            alice, "biloba challenge -players=3 -no_progress=0 alice cpu:random cpu:random",
            "cpu:random")
        m = alice.expect(r"^biloba 101: Game [^\n]* \(([0-9/-]+), (ply limit|resign)\)$",
                         timeout=60)
        print(m.group(0), flush=True)
        if m.group(2) == "ply limit":
            assert m.group(1) == "0-1/2-1/2", m.group(0)
            status, record = server.http_get("/records/biloba/101")
            assert '[Termination "ply limit"]' in record, record
            tables = answer(alice, "biloba tables")
            assert tables.startswith("biloba 101 over ply 40:"), tables
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


if __name__ == "__main__":
    run_tests([test_resigned_person_and_two_cpus_finish, test_no_progress_option_at_a_table,
               test_an_eliminated_person_neither_asks_nor_is_asked,
               test_the_contest_ends_when_one_contender_is_left,
               test_the_server_ply_limit_ends_an_endless_table,
               test_an_eliminated_person_is_answered_at_once])
