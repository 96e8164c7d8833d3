#!/usr/bin/env python3
"""Two text clients over loopback: a pbmserv-style BohnDuell challenge played to the end, and a
BSW-style table with /join and /start played to the end; records, standings and pages checked.
Usage: bohnduell_text_test.py PLATEAU_BINARY"""
import json
import os
import sqlite3
import re
import sys

from plateau_harness import Server, play_to_end, record_moves, run_tests

BINARY = sys.argv[1]
def test_challenge_to_the_end():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        bob = server.text("bob", "pw-bobby", register=True)
        alice.send("bohnduell challenge -supply=6 alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        alice.expect(r"^Please start the game, alice\.$")
        bob.expect(r"^New BohnDuell Board 101$")
        played, final = play_to_end({"alice": alice, "bob": bob}, 101, "alice")
        assert len(played) >= 6
        # Rated (two accounts, a challenge): rating lines follow the result.
        alice.expect(r"^alice's rating went (up|down) from 1500 to \d+\.")
        # The record over HTTP holds exactly the moves played, in order, with forced passes.
        status, record = server.http_get("/records/bohnduell/101")
        assert status == 200, status
        assert '[Game "bohnduell"]' in record and '[Options "supply=6"]' in record, record
        assert '[Seats "alice,bob"]' in record, record
        assert record_moves(record) == [("A:" if p == "alice" else "B:") + t for p, t in played], (
            record, played)
        if final == "Game was a tie.":
            assert '[Result "1/2-1/2"]' in record
        else:
            winner = re.match(r"Game won by (\w+)\.", final).group(1)
            assert f'[Result "{"1-0" if winner == "alice" else "0-1"}"]' in record, record
        # A finished board refuses moves; show still works.
        alice.send("move 101 S4")
        alice.expect(r"^error: the game has ended")
        bob.send("show 101")
        bob.expect(r"^Summary of BohnDuell Board 101$")
        bob.expect(re.escape(final))
        bob.send("standings bohnduell")
        bob.expect(r"^Standings of bohnduell:$")
        bob.expect(r"^  1\. (alice|bob) ")
        bob.expect(r"^  2\. (alice|bob) ")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_table_join_start_to_the_end():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        carol = server.text("carol", "pw-carol", register=True)
        dave = server.text("dave", "pw-david", register=True)
        eve = server.text()
        eve.send("guest")
        eve.expect(r"^Hello, guest1 \(guest")
        carol.send("/open bohnduell")
        carol.expect(r"^Table bohnduell 101 is open")
        carol.send("/start")
        carol.expect(r"^error: only a seated player may /start")
        carol.send("/join 1")
        carol.expect(r"^carol takes seat 1\.")
        carol.send("/option supply=5")
        carol.expect(r"^carol sets supply=5\.")
        carol.send("/option start 2")
        carol.expect(r"^carol sets start=2\.")
        carol.send("/start")
        carol.expect(r"^error: seat 2 is free")
        dave.send("/table 101")
        dave.expect(r"^You are at bohnduell 101\. Waiting for players: seat 2 is free\.")
        dave.send("/join 1")
        dave.expect(r"^error: seat 1 is taken by carol")
        dave.send("/join")
        dave.expect(r"^dave takes seat 2\.")
        carol.expect(r"^dave takes seat 2\.")
        eve.send("/watch 101")
        eve.expect(r"^You are watching bohnduell 101\.")
        dave.send("/say good luck")
        carol.expect(r"^\[bohnduell 101\] dave: good luck$")
        eve.expect(r"^\[bohnduell 101\] dave: good luck$")
        dave.send("/start")
        # start=2: table seat 2 (dave) sits in game seat A and moves first.
        for c in (carol, dave, eve):
            c.expect(r"^Game bohnduell 101 starts: dave vs carol \(rated\)\.$")
            c.expect(r"^Please start the game, dave\.$")
        carol.send("/option supply=9")
        carol.expect(r"^error: options can change only before the start")
        played, final = play_to_end({"carol": carol, "dave": dave}, 101, "dave",
                                    prefix="/move ")
        # The spectator saw every move.
        for n, (p, t) in enumerate(played, 1):
            eve.expect(rf"^bohnduell 101: {n}\. \S+ {p} {t}$")
        eve.expect(re.escape(final))
        status, record = server.http_get("/records/bohnduell/101")
        assert '[Seats "dave,carol"]' in record and '[Options "supply=5,start=2"]' in record, record
        carol.send("/reset")
        carol.expect(r"^carol resets bohnduell 101\.")
        carol.send("/startnosave")
        carol.expect(r"^Game bohnduell 101 starts: dave vs carol \(unrated\)\.$")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_decline_draw_undo_queued_resign_and_clock():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        bob = server.text("bob", "pw-bobby", register=True)
        # Resigning before both players have moved declines the challenge.
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        bob.send("resign 101")
        for c in (alice, bob):
            c.expect(r"^bohnduell 101: bob has disagreed to play\.$")
        alice.send("move 101 S4")
        alice.expect(r"^error: bohnduell 101 was declined$")
        # Draw offers, undo requests and a queued resignation.
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 102$")
        alice.send("move 102 S4")
        alice.expect(r"^bohnduell 102: 1\. A alice S4$")
        bob.send("move 102 S1")
        bob.expect(r"^bohnduell 102: 2\. B bob S1$")
        alice.send("propose 102")
        bob.expect(r"^bohnduell 102: alice has proposed a draw; waiting for bob\.$")
        alice.send("accept 102")
        alice.expect(r"^error: you cannot answer your own request$")
        bob.send("reject 102")
        alice.expect(r"^bohnduell 102: bob rejects the draw offer\.$")
        alice.send("undo 102")
        bob.expect(r"^bohnduell 102: alice has asked to undo the last move; waiting for bob\.$")
        bob.send("accept 102")
        alice.expect(r"^bohnduell 102: the last move was taken back\.$")
        alice.expect(r"^It is bob's turn\.$")
        bob.send("move 102 S2#2")
        bob.expect(r"^bohnduell 102: 2\. B bob S2$")
        bob.send("resign 102")
        bob.expect(r"^Your resignation at bohnduell 102 takes effect at your next turn")
        alice.send("move 102 S4#3")
        for c in (alice, bob):
            c.expect(r"^Game won by alice\.$")
        status, record = server.http_get("/records/bohnduell/102")
        assert '[Result "1-0"]' in record and '[Termination "resign"]' in record, record
        assert record_moves(record) == ["A:S4", "B:S2", "A:S4"], record
        bob.send("show 102")
        bob.expect(r"^  3 S4                 4 Resign$")
        # A per-move clock: both move, then alice does not move within a second and loses on
        # time (before both had moved it would end with no result: security_consent_test.py).
        alice.send("bohnduell challenge -clock=move:1 alice bob")
        alice.expect(r"^New BohnDuell Board 103$")
        alice.send("move 103 S4")
        alice.expect(r"^bohnduell 103: 1\. A alice S4$")
        bob.send("move 103 S1")
        bob.expect(r"^bohnduell 103: 2\. B bob S1$")
        for c in (alice, bob):
            c.expect(r"^bohnduell 103: Game won by bob\. \(0-1, time\)$", timeout=5)
        status, record = server.http_get("/records/bohnduell/103")
        assert '[Termination "time"]' in record, record
        bob.send("show 103")
        bob.expect(r"^  1 S4                 2 S1$")
        bob.expect(r"^  3 Forfeit$")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_a_cpu_that_cannot_play_forfeits():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        carol = server.text("carol", "pw-carol", register=True)
        carol.send("/open bohnduell start=2")
        carol.expect(r"^Table bohnduell 101 is open")
        # A bot that does not play the game is refused when seated...
        carol.send("/join cpu:classic 2")
        carol.expect(r"^error: bad CPU level: 'classic' does not play bohnduell; its computer "
                     r"players are random, greedy, 1, 2, 3, 4, 5 \(or level1\.\.level5\)$")
        carol.send("/join cpu:1 2")
        carol.expect(r"^cpu:1 takes seat 2\.")
        carol.send("/join 1")
        carol.expect(r"^carol takes seat 1\.")
        assert server.stop() == 0
        # ... but a table stored before that check (or edited by hand) may hold one: its
        # failure at its first turn is contained to the table, as a forfeit.
        db = os.path.join(server.data_dir, "data", "plateau.db")
        with sqlite3.connect(db) as con:
            [(data,)] = con.execute("SELECT data FROM tables WHERE number = 101").fetchall()
            table = json.loads(data)
            cpu = [s for s in table["seats"] if s["kind"] != "user"]
            assert len(cpu) == 1, table["seats"]
            cpu[0]["name"] = "classic"
            con.execute("UPDATE tables SET data = ? WHERE number = 101", (json.dumps(table),))
        server.start()
        carol = server.text("carol", "pw-carol")
        carol.send("/table 101")
        carol.send("/start")
        carol.expect(r"^error: cpu:classic cannot play here \(.*\) and forfeits$")
        # It forfeits before every player has moved: no result (issue 12, consent).
        carol.expect(r"^bohnduell 101: No result: cpu:classic forfeited \(cpu failure\) before "
                     r"every player had moved\.$")
        status, record = server.http_get("/records/bohnduell/101")
        assert '[Termination "cpu failure"]' in record and '[Result "*"]' in record, record
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_challenge_to_the_end, test_table_join_start_to_the_end,
           test_decline_draw_undo_queued_resign_and_clock, test_a_cpu_that_cannot_play_forfeits])
