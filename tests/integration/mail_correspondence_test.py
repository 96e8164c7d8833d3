#!/usr/bin/python3
"""Correspondence time and notifications (issue 15, items 4 and 5; docs/MAIL.md) on a real
`plateau serve` with a real SMTP sink (mail_test.py's helpers), on a simulated clock: the hidden
`--test-clock-offset-file` holds the wall clock's offset in ms, read again every 200 ms.
  * a board challenged by mail (nagtime 7, forfeittime 21 by default): the nag at day 7 (once,
    also across a restart), the forfeit at day 21;
  * `vacation 5` postpones both by 5 days, and the yearly allowance is enforced;
  * a text-port game: the player who is not connected gets mail (new board, your turn), the one
    connected none; `notify off` stops it; `notify digest` gives one mail a day.
Run with /usr/bin/python3 (Debian's python3-aiosmtpd).
Usage: mail_correspondence_test.py PLATEAU_BINARY TEST_DATA_DIR"""
import os
import sys
import tempfile
import time

from mail_test import BINARY, body_of, check_common, mail_in, start
from plateau_harness import Server, answer, run_tests

DAY_MS = 24 * 60 * 60 * 1000
HOUR_MS = 60 * 60 * 1000
A, B = "alice@example.org", "bob@example.org"


class SimClock:
    """The server's simulated wall clock: an offset in ms in a file the server reads."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory(prefix="plateau-clock-")
        self.path = os.path.join(self.dir.name, "offset")
        self.set(0)

    def set(self, ms):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(ms))
        os.replace(tmp, self.path)
        time.sleep(0.7)  # a few ticks (200 ms each) read it and act on it

    def extra(self):
        return ["--test-clock-offset-file", self.path]


class Env:
    """An SMTP sink and a `plateau serve` on a simulated clock; both stopped at the end."""

    def __init__(self, extra=()):
        self.clock = SimClock()
        self.sink, self.controller, self.server, self.lmtp = start(self.clock.extra() + list(extra))

    def __enter__(self):
        return self

    def __exit__(self, kind, *exc):
        try:
            if self.server.proc.poll() is None:
                rc = self.server.stop()
                # A clean exit (an address sanitizer report would make it non-zero).
                assert kind is not None or rc == 0, (rc, self.server.read_log()[-3000:])
        finally:
            self.controller.stop()


def subjects(mails):
    return [(str(m["msg"]["To"]), m["msg"]["Subject"]) for m in mails]


def mail_board(sink, lmtp):
    """alice and bob sign up by mail, alice challenges by mail, both move once: alice to move."""
    assert mail_in(lmtp, A, "signup alice pw-alice-1") == 0
    assert mail_in(lmtp, B, "signup bob pw-bob-123") == 0
    sink.take(2)
    assert mail_in(lmtp, A, "phutball challenge alice bob") == 0
    sink.take(2)
    assert mail_in(lmtp, A, "phutball move 101 alice pw-alice-1 H11#1") == 0
    sink.take(2)
    assert mail_in(lmtp, B, "phutball move 101 bob pw-bob-123 A1#2") == 0
    got = sink.take(2)
    assert subjects(got) == [(A, "Phutball Board 101 alice"), (B, "Phutball Board 101 alice")]


def test_nag_and_forfeit_at_their_days():
    with Env() as env:
        sink, server, lmtp, clock = env.sink, env.server, env.lmtp, env.clock
        mail_board(sink, lmtp)
        carol = server.text("carol", "pw-carol-12", register=True)
        assert "nagtime 7 days; forfeittime 21 days" in answer(carol, "info 101")
        clock.set(7 * DAY_MS - HOUR_MS)
        sink.take(0)
        clock.set(7 * DAY_MS + HOUR_MS)
        [nag] = sink.take(1)
        check_common(nag, A, "Reminder: Phutball Board 101 alice")
        body = body_of(nag)
        assert body.startswith("Reminder: alice has not moved at phutball 101 for 7 days. alice "
                               "forfeits on "), body[:300]
        assert "without a move.\n\n" in body and "Phutball Board 101" in body
        assert nag["msg"]["In-Reply-To"] == "<phutball.101.1@plateau.test>", nag["msg"]["In-Reply-To"]
        clock.set(8 * DAY_MS)
        sink.take(0)  # one nag per turn
        # Durable: a restart does not nag the same turn again, and the downtime (given back to
        # the correspondence time) is no chat line, hence no mail to every player.
        assert server.stop() == 0
        time.sleep(1.5)
        server = env.server = Server(BINARY, data_dir=server.data_dir, extra=server.extra).start()
        clock.set(9 * DAY_MS)
        sink.take(0)
        clock.set(21 * DAY_MS - HOUR_MS)
        sink.take(0)
        clock.set(21 * DAY_MS + HOUR_MS)
        got = sink.take(2)
        assert subjects(got) == [(A, "Phutball Board 101 Game won by bob"),
                                 (B, "Phutball Board 101 Game won by bob")], subjects(got)
        assert "Forfeit" in body_of(got[0]) and "Game won by bob." in body_of(got[0]), body_of(got[0])
        carol = server.text("carol", "pw-carol-12")
        assert "Game won by bob." in answer(carol, "show 101")


def test_vacation_postpones_nag_and_forfeit():
    with Env() as env:
        sink, server, lmtp, clock = env.sink, env.server, env.lmtp, env.clock
        mail_board(sink, lmtp)
        alice = server.text("alice", "pw-alice-1")
        assert "You are not on vacation; 14 of 14 vacation days left" in answer(alice, "vacation")
        out = answer(alice, "vacation 5")
        assert "You are on vacation until " in out and "9 of 14 vacation days left" in out, out
        assert "you are on vacation until" in answer(alice, "vacation 3")
        alice.close()
        clock.set(7 * DAY_MS + HOUR_MS)
        sink.take(0)  # 2 days and an hour of correspondence time so far
        clock.set(12 * DAY_MS + HOUR_MS)
        [nag] = sink.take(1)
        check_common(nag, A, "Reminder: Phutball Board 101 alice")
        clock.set(21 * DAY_MS + HOUR_MS)
        sink.take(0)
        clock.set(26 * DAY_MS + HOUR_MS)
        got = sink.take(2)
        assert subjects(got) == [(A, "Phutball Board 101 Game won by bob"),
                                 (B, "Phutball Board 101 Game won by bob")], subjects(got)
        # The allowance: 9 days are left this year (or 14 if day 26 is in the next year).
        alice = server.text("alice", "pw-alice-1")
        out = answer(alice, "vacation 15")
        assert "error: vacation DAYS: from 1 to " in out, out
        assert "error: you are not on vacation" in answer(alice, "vacation off")
        # A vacation ended at once still costs a day: start/off cycles are bounded.
        before = answer(alice, "vacation")
        left = int(before.split("; ")[-1].split(" of 14")[0])
        for _ in range(left):
            answer(alice, "vacation 1")
            assert "You are not on vacation" in answer(alice, "vacation off")
        assert "error: you have used your 14 vacation days of " in answer(alice, "vacation 1")


def test_forfeit_before_every_player_moved_has_no_result():
    """The consent rule (issue 12): a forfeit before every player has moved ends the board with
    no result and no rating change, as a resignation would; bad day counts are refused."""
    with Env(["--nagtime", "2", "--forfeittime", "3"]) as env:
        sink, server, lmtp, clock = env.sink, env.server, env.lmtp, env.clock
        assert mail_in(lmtp, A, "signup alice pw-alice-1") == 0
        assert mail_in(lmtp, B, "signup bob pw-bob-123") == 0
        sink.take(2)
        alice = server.text("alice", "pw-alice-1")
        for bad in ["-nagtime=366", "-forfeittime=-1", "-nagtime=7d"]:
            out = answer(alice, f"phutball challenge {bad} alice bob")
            assert out.startswith("error: nagtime takes a number of days from 0 (off) to 365") or \
                out.startswith("error: forfeittime takes a number of days"), out
        # A text board takes the server's --nagtime/--forfeittime (2 and 3 days).
        answer(alice, "phutball challenge alice bob")
        [m] = sink.take(1)  # bob is not connected
        check_common(m, B, "New Phutball Board 101")
        assert "nagtime 2 days; forfeittime 3 days" in answer(alice, "info 101")
        answer(alice, "move 101 H11")
        [m] = sink.take(1)
        check_common(m, B, "Phutball Board 101 bob")
        clock.set(2 * DAY_MS + HOUR_MS)
        [nag] = sink.take(1)
        check_common(nag, B, "Reminder: Phutball Board 101 bob")
        alice.expect(r"\[phutball 101\] server: Reminder: bob has not moved at phutball 101 for 2 days")
        clock.set(3 * DAY_MS + HOUR_MS)
        [m] = sink.take(1)  # the end: bob (not connected) hears of it, alice (connected) sees it
        check_common(m, B, "Phutball Board 101")
        assert "No result: bob forfeited (forfeit time) before every player had moved." in body_of(m)
        alice.expect(r"No result: bob forfeited \(forfeit time\) before every player had moved")
        standings = answer(alice, "standings phutball")
        assert "bob" not in standings and "alice" not in standings, standings  # no rating change


def test_forfeit_with_three_seats_is_a_resignation():
    """With 3+ seats a forfeit is what a resignation is there: the seat leaves the contest (the
    computer plays its pawns on), the others play to the end."""
    with Env() as env:
        alice = env.server.text("alice", "pw-alice-12", register=True)
        alice.send("biloba challenge -players=3 -nagtime=1 -forfeittime=2 alice cpu:2 cpu:3")
        alice.expect(r"^New Biloba Board 101$")
        alice.send("move 101 e7-e6#1")
        alice.expect(r"^biloba 101: 3\. R cpu:3 ")
        env.clock.set(DAY_MS + HOUR_MS)
        alice.expect(r"^\[biloba 101\] server: Reminder: alice has not moved at biloba 101 for 1 "
                     r"days\. alice forfeits on ")
        env.clock.set(2 * DAY_MS + HOUR_MS)
        alice.expect(r"^biloba 101: alice resigns; the computer plays their pawns until the game "
                     r"ends\.$")
        alice.send("queue 101 e6-e5")
        # The computers may have played the game to its end first (the engine is fast): then
        # the game is over, which refuses the move too.
        alice.expect(r"^error: (you have resigned at biloba 101|the game has ended \(biloba 101\))")
        env.sink.take(0)  # alice has no address


def test_notifications_of_a_text_game():
    with Env() as env:
        sink, server, lmtp, clock = env.sink, env.server, env.lmtp, env.clock
        assert mail_in(lmtp, A, "signup alice pw-alice-1") == 0
        assert mail_in(lmtp, B, "signup bob pw-bob-123") == 0
        sink.take(2)
        # The mail forms: the credentials inline, no board; the answer goes to the sender.
        assert mail_in(lmtp, B, "phutball notify bob pw-bob-123 every") == 0
        [m] = sink.take(1)
        check_common(m, B, "Plateau: notify every")
        assert body_of(m).startswith("notify every: a mail about each event"), body_of(m)
        assert mail_in(lmtp, B, "vacation bob pw-bob-123") == 0
        [m] = sink.take(1)
        check_common(m, B, "Plateau: vacation")
        assert "You are not on vacation; 14 of 14 vacation days left in " in body_of(m), body_of(m)
        assert mail_in(lmtp, B, "notify bob wrong-password every") == 0
        [m] = sink.take(1)
        check_common(m, B, "Plateau Error")
        alice = server.text("alice", "pw-alice-1")
        assert "notify every" in answer(alice, "notify")
        # bob is not connected: he hears of the new board and of his turn; alice, connected, not.
        assert "101" in answer(alice, "phutball challenge alice bob")
        [m] = sink.take(1)
        check_common(m, B, "New Phutball Board 101")
        answer(alice, "move 101 H11")
        [m] = sink.take(1)
        check_common(m, B, "Phutball Board 101 bob")
        # bob connects, alice leaves: alice hears of her turn.
        bob = server.text("bob", "pw-bob-123")
        alice.close()
        time.sleep(0.3)
        answer(bob, "move 101 A1")
        [m] = sink.take(1)
        check_common(m, A, "Phutball Board 101 alice")
        # Both connected: no mail at all.
        alice = server.text("alice", "pw-alice-1")
        answer(alice, "move 101 H13")
        answer(bob, "propose 101")
        sink.take(0)
        answer(alice, "reject 101")
        # notify off: no mail for bob, who leaves while it is his turn.
        assert "notify off" in answer(bob, "notify off")
        bob.close()
        time.sleep(0.3)
        answer(alice, "propose 101")
        sink.take(0)
        # notify digest: one mail a day listing the boards that wait for bob.
        bob = server.text("bob", "pw-bob-123")
        assert "notify digest" in answer(bob, "notify digest")
        answer(bob, "reject 101")
        bob.close()
        assert "error: usage: notify [every|digest|off]" in answer(alice, "notify sometimes")
        sink.take(0)
        # Ten minutes into the next UTC day, then two hours later, then a day later.
        next_day = DAY_MS - int(time.time() * 1000) % DAY_MS + 10 * 60 * 1000
        clock.set(next_day)
        [d] = sink.take(1)
        check_common(d, B, "Plateau: your move on 1 board")
        assert body_of(d).startswith("Good day, bob. One board waits for your move:\n\n"
                                     "phutball 101: your move since "), body_of(d)
        assert "(Phutball Board 101)\n" in body_of(d)
        clock.set(next_day + 2 * HOUR_MS)
        sink.take(0)  # once a day
        clock.set(next_day + DAY_MS)
        [d] = sink.take(1)
        check_common(d, B, "Plateau: your move on 1 board")


if __name__ == "__main__":
    run_tests([t for t in [test_nag_and_forfeit_at_their_days,
                           test_vacation_postpones_nag_and_forfeit,
                           test_forfeit_before_every_player_moved_has_no_result,
                           test_forfeit_with_three_seats_is_a_resignation,
                           test_notifications_of_a_text_game]
               if len(sys.argv) < 4 or t.__name__ == sys.argv[3]])
