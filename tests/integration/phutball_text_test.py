#!/usr/bin/env python3
"""Two text clients play Phutball challenges over loopback (specs/phutball.md §9, §10): the
help-page sample against the golden board page (TV-05), a -handicap=2 challenge played to the
end (unrated, the ball leaving the board), and a rated +0.5 challenge ended by resignation.
Usage: phutball_text_test.py PLATEAU_BINARY TEST_DATA_DIR"""
import os
import re
import sys

from plateau_harness import Server, record_moves, run_tests

BINARY = sys.argv[1]
DATA = os.path.join(sys.argv[2], "server")


def golden(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def play(clients, board, moves):
    """Alternate moves, Ohs (clients[0]) first, each with its #n ply check."""
    for i, m in enumerate(moves):
        c = clients[i % 2]
        c.send(f"phutball move {board} {m}#{i + 1}")
        c.expect(rf"^phutball {board}: {i + 1}\. [OX] \w+ {re.escape(m)}$")


def page_of(client, board):
    """The page `show BOARD` answers, up to the trailer (comments, timestamps)."""
    client.send(f"show {board}")
    m = client.expect(rf"^Summary of Phutball Board {board}\n[\s\S]*?\n    A B C D E F G H J K L M N O P\n"
                      r"\n(?:[ 12]\d  .*\n)+\n    A B C D E F G H J K L M N O P\n")
    return m.group(0)


def test_phutball_challenges():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        bob = server.text("bob", "pw-bobby", register=True)
        # TV-05: the help page's sample game, and its golden page.
        alice.send("phutball challenge alice bob")
        alice.expect(r"^New Phutball Board 101$")
        alice.expect(r"^Please start the game, alice\.$")
        play((alice, bob), 101, ["H11", "J12", "H12", "K11", "H14", "H10-H13-L10"])
        assert page_of(bob, 101) == golden("phutball_tv05_page.txt")
        # Board as it stood after ply 2.
        bob.send("show 101#2")
        bob.expect(r"^As it stood after ply 2\.$")
        bob.expect(r"^11  \. \. \. \. \. \. \. \+ \. \. \. \. \. \. \.  11$")
        # A move for the wrong side, an illegal jump, a wrong ply number: errors, no change.
        bob.send("move 101 A1")
        bob.expect(r"^error: it is not your turn: it is alice's turn$")
        alice.send("move 101 L10-L12")
        alice.expect(r"^error: illegal move 'L10-L12': ")
        alice.send("move 101 A1#8")
        alice.expect(r"^error: move #8 does not match: the next move is #7$")
        assert page_of(bob, 101) == golden("phutball_tv05_page.txt")

        # -handicap=2: the ball starts on H8 and Ohs needs 11 rows. Unrated (§2.3).
        alice.send("phutball challenge -handicap=2 alice bob")
        alice.expect(r"^New Phutball Board 102$")
        moves = []
        for k in range(6):
            moves += [f"H{9 + 2 * k}", f"A{1 + 2 * k}"]
        moves.append("H8-H10-H12-H14-H16-H18-H20")
        play((alice, bob), 102, moves)
        for c in (alice, bob):
            c.expect(r"^phutball 102: Game won by alice\. \(1-0, rules\)$")
        assert page_of(bob, 102) == golden("phutball_handicap2_final_page.txt")
        status, record = server.http_get("/records/phutball/102")
        assert '[Options "handicap=2"]' in record and '[Result "1-0"]' in record, record
        assert record_moves(record)[-1] == "H8-H10-H12-H14-H16-H18-H20", record
        alice.send("move 102 A2")
        alice.expect(r"^error: the game has ended")

        # +0.5 is rated: a resignation moves both ratings.
        alice.send("phutball challenge -handicap=0.5 alice bob")
        alice.expect(r"^New Phutball Board 103$")
        play((alice, bob), 103, ["H12", "J12"])
        alice.send("resign 103")
        alice.expect(r"^Game won by bob\.$")
        alice.expect(r"^alice's rating went down from 1500 to \d+\. \(provisional\)$")
        alice.expect(r"^bob's rating went up from 1500 to \d+\. \(provisional\)$")
        alice.expect(r"^  3 Resign$")
        bob.send("phutball standings")
        bob.expect(r"^  1\. bob ")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_phutball_challenges])
