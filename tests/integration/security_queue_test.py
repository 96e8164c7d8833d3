#!/usr/bin/env python3
"""Issue 12 item 8: stale moves. `queue 101 MOVE#9` used to be played at ply 4 (the #n was
dropped), and a queued move survived an accepted undo to fire in a position its owner never saw.
Now a queued move keeps its #n (also across a restart) and is dropped, with a notice, at any
other ply; an accepted undo, an accepted draw and the end of the game cancel every queued move
and resignation, telling their owners.
Usage: security_queue_test.py PLATEAU_BINARY"""
import sys

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]


def opening(alice, bob, board):
    """A new board where alice played S4 and bob S2: alice is to move at ply 3."""
    alice.send("bohnduell challenge alice bob")
    alice.expect(rf"^New BohnDuell Board {board}$")
    alice.send(f"move {board} S4#1")
    bob.expect(rf"^bohnduell {board}: 1\. A alice S4$")
    bob.send(f"move {board} S2#2")
    alice.expect(rf"^bohnduell {board}: 2\. B bob S2$")


def test_queued_move_keeps_its_ply():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice-1", register=True)
        bob = server.text("bob", "pw-bob-12", register=True)
        opening(alice, bob, 101)
        assert answer(bob, "queue 101 S1#9") == (
            "Queued S1#9 at bohnduell 101; it will be played when your turn comes.\n")
        # The #n is kept across a restart.
        assert server.stop() == 0
        server.start()
        alice = server.text("alice", "pw-alice-1")
        bob = server.text("bob", "pw-bob-12")
        alice.send("move 101 S4#3")
        bob.expect(r"^bohnduell 101: 3\. A alice S4$")
        bob.expect(r"^Your queued move S1#9 at bohnduell 101 is dropped: the next move is #4\.$")
        page = answer(bob, "show 101")
        assert "It is bob's turn." in page and "(Auto)" not in page, page
        # A queued move whose #n is right is played.
        bob.send("move 101 S1#4")
        alice.expect(r"^bohnduell 101: 4\. B bob S1$")
        assert answer(bob, "queue 101 S1#6") == (
            "Queued S1#6 at bohnduell 101; it will be played when your turn comes.\n")
        alice.send("move 101 S3#5")
        alice.expect(r"^bohnduell 101: 5\. A alice S3$")
        alice.expect(r"^bohnduell 101: 6\. B bob S1 \(Auto\)$")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_the_reported_attack_queue_c3_9():
    """The issue's line: `queue 101 C3#9` (Phutball) was played at ply 3."""
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice-1", register=True)
        bob = server.text("bob", "pw-bob-12", register=True)
        alice.send("phutball challenge alice bob")
        alice.expect(r"^New Phutball Board 101$")
        alice.send("move 101 H11#1")
        bob.expect(r"^phutball 101: 1\. O alice H11$")
        assert answer(alice, "queue 101 C3#9") == (
            "Queued C3#9 at phutball 101; it will be played when your turn comes.\n")
        bob.send("move 101 J12#2")
        bob.expect(r"^phutball 101: 2\. X bob J12$")
        alice.expect(r"^phutball 101: 2\. X bob J12$")
        alice.expect(r"^Your queued move C3#9 at phutball 101 is dropped: the next move is #3\.$")
        page = answer(alice, "show 101")
        assert "It is alice's turn." in page and "C3" not in page, page
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_undo_draw_and_the_end_cancel_the_queue():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice-1", register=True)
        bob = server.text("bob", "pw-bob-12", register=True)
        # An accepted undo: bob's queued move and queued resignation are cancelled.
        opening(alice, bob, 101)
        answer(bob, "queue 101 S1")
        assert answer(bob, "resign 101") == ("Your resignation at bohnduell 101 takes effect at "
                                             "your next turn (resign again to cancel).\n")
        alice.send("undo 101")
        bob.expect(r"^bohnduell 101: alice has asked to undo the last move; waiting for bob\.$")
        bob.send("accept 101")
        bob.expect(r"^bohnduell 101: the last move was taken back\.$")
        bob.expect(r"^Your queued move S1 at bohnduell 101 is cancelled: the last move was taken "
                   r"back\.$")
        bob.expect(r"^Your queued resignation at bohnduell 101 is cancelled: the last move was "
                   r"taken back\.$")
        # bob moves again, alice moves: nothing of bob's fires in a position he never saw.
        bob.send("move 101 S3#2")
        alice.expect(r"^bohnduell 101: 2\. B bob S3$")
        alice.send("move 101 S4#3")
        bob.expect(r"^bohnduell 101: 3\. A alice S4$")
        page = answer(bob, "show 101")
        assert "It is bob's turn." in page and "(Auto)" not in page, page

        # An accepted draw.
        opening(alice, bob, 102)
        answer(bob, "queue 102 S1")
        alice.send("propose 102")
        bob.expect(r"^bohnduell 102: alice has proposed a draw; waiting for bob\.$")
        bob.send("accept 102")
        bob.expect(r"^Game was a tie\.$")
        bob.expect(r"^Your queued move S1 at bohnduell 102 is cancelled: the game is over\.$")

        # The end of the game (alice resigns on her turn).
        opening(alice, bob, 103)
        answer(bob, "queue 103 S1#4")
        alice.send("resign 103")
        bob.expect(r"^Game won by bob\.$")
        bob.expect(r"^Your queued move S1#4 at bohnduell 103 is cancelled: the game is over\.$")
        status, record = server.http_get("/records/bohnduell/103")
        assert '[Termination "resign"]' in record, record
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_queued_move_keeps_its_ply, test_the_reported_attack_queue_c3_9,
           test_undo_draw_and_the_end_cancel_the_queue])
