#!/usr/bin/python3
"""pbmserv's rest of the command set (issue 15 item 2; specs/phutball.md §10; docs/MAIL.md) by
mail and on the text port, on a real `plateau serve --lmtp-port --smtp` and SMTP sink (mail_test's
helpers): preview (of a board and of a new one), submit/confirm, history, limit, change
password, change address, signoff and help, subscribe/unsubscribe, each with its exact answer;
and the inline-credentials form typed on the text port.
Usage: mail_commands_test.py PLATEAU_BINARY TEST_DATA_DIR [TEST_NAME]"""
import sys
import time

from mail_test import board_101, body_of, check_common, mail_in, start
from plateau_harness import answer, run_tests

A, B = "alice@example.org", "bob@example.org"
PA, PB = "pw-alice-1", "pw-bob-123"

NEW_PREVIEW = """Preview of a new Phutball board (nothing played).

Preview of a new Phutball board

This is a preview.

    Ohs (o)              Eks (x)
    Ohs                  Eks
  1 H11                2 J12

    A B C D E F G H J K L M N O P

"""


def mail_one(sink, lmtp, sender, subject, body=""):
    assert mail_in(lmtp, sender, subject, body) == 0
    [m] = sink.take(1)
    return m


def test_commands():
    sink, controller, server, lmtp = start()
    try:
        board_101(sink, lmtp)
        carol = server.text("carol", "pw-carol-12", register=True)

        # preview BOARD MOVE...: the page after the moves; nothing is played.
        m = mail_one(sink, lmtp, B, "phutball preview 101 H11 j12")
        check_common(m, B, "Phutball Board 101")
        text = answer(carol, "preview 101 H11 j12")
        assert body_of(m) == text, (body_of(m), text)
        assert text.startswith("Preview of phutball 101 after H11 j12 (nothing played).\n\n"
                               "Preview of Phutball Board 101\n\nThis is a preview.\n\n"
                               "    Ohs (o)              Eks (x)\n    alice                bob\n"
                               "  1 H11                2 J12\n\n"), text
        assert "\nPlease start the game, alice.\n" in answer(carol, "show 101")
        bad = mail_one(sink, lmtp, B, "phutball preview 101 H11 H11")
        check_common(bad, B, "Phutball Board 101 Error")
        assert body_of(bad).startswith("Error: preview: move 2 'H11' is illegal: "), body_of(bad)[:200]

        # preview new 2 [-handicap=N] MOVE...: the side names stand in for the players.
        text = answer(carol, "phutball preview new 2 H11 J12")
        assert text.startswith(NEW_PREVIEW), text
        text = answer(carol, "phutball preview new 2 -handicap=2")
        assert " 8  . . . . . . . @ . . . . . . .  8\n" in text, text
        m = mail_one(sink, lmtp, B, "phutball preview new 2 H11 J12")
        check_common(m, B, "Plateau: phutball preview new 2 H11 J12")
        assert body_of(m).startswith(NEW_PREVIEW), body_of(m)

        # submit shows the move to its sender alone; confirm plays it (one page to each player).
        m = mail_one(sink, lmtp, A, f"phutball submit 101 alice {PA} h11#1")
        check_common(m, A, "Phutball Board 101")
        assert body_of(m).startswith("Submitted H11 at phutball 101 as move #1; send confirm 101 "
                                     "to play it.\n\nPreview of Phutball Board 101\n\n"
                                     "This is a preview.\n"), body_of(m)[:300]
        assert "\nPlease start the game, alice.\n" in answer(carol, "show 101")
        assert mail_in(lmtp, A, f"phutball confirm 101 alice {PA}") == 0
        got = sink.take(2)
        check_common(got[0], A, "Phutball Board 101 bob")
        check_common(got[1], B, "Phutball Board 101 bob")
        assert "\n  1 H11\n" in body_of(got[0]), body_of(got[0])
        m = mail_one(sink, lmtp, A, f"phutball confirm 101 alice {PA}")
        check_common(m, A, "Phutball Board 101 Error")
        assert body_of(m).startswith("Error: nothing submitted at phutball 101: submit 101 MOVE "
                                     "first\n"), body_of(m)[:200]

        # signoff with a board in play is refused.
        m = mail_one(sink, lmtp, B, f"signoff bob {PB}")
        check_common(m, B, "Plateau Error")
        assert body_of(m).startswith("Error: finish or resign your open boards first: "
                                     "phutball 101\n"), body_of(m)[:200]

        # limit USERID PASSWORD N|accept|reject.
        m = mail_one(sink, lmtp, B, f"limit bob {PB} reject")
        check_common(m, B, "Plateau: limit")
        assert body_of(m) == "You accept no challenges.\n", body_of(m)
        bob = server.text("bob", PB)
        assert answer(bob, "limit") == "You accept no challenges.\n"
        assert answer(bob, "limit 3") == "You accept at most 3 open boards started by others.\n"

        # The game ends; history lists it for both players, and for anyone.
        assert mail_in(lmtp, B, f"phutball move 101 bob {PB} J12#2") == 0
        sink.take(2)
        assert answer(carol, "history alice") == "No finished games of alice.\n"
        assert mail_in(lmtp, A, f"phutball resign 101 alice {PA}") == 0
        sink.take(2)
        line = "phutball 101: alice, bob; 2 plies; Game won by bob.\n"
        assert answer(carol, "history alice") == line, answer(carol, "history alice")
        assert answer(bob, "history") == line
        assert answer(bob, "bohnduell history") == "No finished games of bob.\n"
        m = mail_one(sink, lmtp, B, "phutball history bob")
        check_common(m, B, "Plateau: phutball history bob")
        assert body_of(m) == line

        # change password USERID OLD NEW, then the old one no longer works.
        m = mail_one(sink, lmtp, B, f"change password bob {PB} pw-bob-new-1")
        check_common(m, B, "Plateau: change password")
        assert body_of(m) == "Your password is changed.\n", body_of(m)
        assert "wrong name or password" in answer(server.text(), f"login bob {PB}")
        time.sleep(0.2)  # the login back-off (0.01 s here)
        bob = server.text("bob", "pw-bob-new-1")
        assert answer(bob, f"change password wrong-old-1 {PB}") == "error: wrong name or password\n"
        time.sleep(0.2)
        assert answer(bob, "change password pw-bob-new-1 x").startswith("error: ")

        # change address USERID PASSWORD ADDRESS (the sign-up's checks); the answer goes to the
        # mail's sender, the board mail then to the new address.
        m = mail_one(sink, lmtp, B, "change address bob pw-bob-new-1 bob@localhost")
        check_common(m, B, "Plateau Error")
        assert body_of(m).startswith("Error: not a usable address: bob@localhost ("), body_of(m)
        m = mail_one(sink, lmtp, B, "change address bob pw-bob-new-1 bob2@example.org")
        check_common(m, B, "Plateau: change address")
        assert body_of(m) == "Your mail now goes to bob2@example.org.\n"
        assert answer(bob, "change address bob3@example.org") == \
            "Your mail now goes to bob3@example.org.\n"

        # signoff: the account is closed, its finished game keeps its name.
        m = mail_one(sink, lmtp, A, f"signoff alice {PA}")
        check_common(m, A, "Plateau: signoff")
        assert body_of(m) == "The account alice is closed. Its finished games keep its name.\n"
        assert "wrong name or password" in answer(server.text(), f"login alice {PA}")
        time.sleep(0.2)
        assert "the name alice is taken" in answer(server.text(), "register alice pw-alice-2")
        assert answer(carol, "history alice") == line
        m = mail_one(sink, lmtp, A, f"phutball challenge alice bob")
        check_common(m, A, "Plateau Error")  # no account has this address any more

        # help by mail: the text port's list, then the mail forms.
        m = mail_one(sink, lmtp, B, "help")
        check_common(m, B, "Plateau: help")
        assert body_of(m).endswith("  change password USERID OLD NEW  |  change address USERID "
                                   "PASSWORD ADDRESS\n  signoff USERID PASSWORD\n"), body_of(m)
        assert "\npreview BOARD MOVE ... " in body_of(m) or "preview BOARD MOVE" in body_of(m)
        assert server.alive()
    finally:
        server.stop()
        controller.stop()


def test_subscribe():
    sink, controller, server, lmtp = start()
    try:
        for who, pw in (("alice", PA), ("bob", PB), ("dave", "pw-dave-12")):
            assert mail_in(lmtp, f"{who}@example.org", f"signup {who} {pw}") == 0
        sink.take(3)
        assert mail_in(lmtp, A, "phutball challenge alice bob") == 0
        sink.take(2)
        carol = server.text("carol", "pw-carol-12", register=True)
        assert answer(carol, "change address carol@example.org") == \
            "Your mail now goes to carol@example.org.\n"
        assert answer(carol, "subscribe 101") == \
            "You are subscribed to phutball 101: its pages come to you by mail as to its players.\n"
        assert answer(carol, "subscribe 101") == "error: you are already subscribed to phutball 101\n"
        m = mail_one(sink, lmtp, "dave@example.org", "phutball subscribe 101 dave pw-dave-12")
        check_common(m, "dave@example.org", "Phutball Board 101")
        assert body_of(m) == ("You are subscribed to phutball 101: its pages come to you by mail "
                              "as to its players.\n")
        m = mail_one(sink, lmtp, A, f"phutball subscribe 101 alice {PA}")
        check_common(m, A, "Phutball Board 101 Error")
        assert body_of(m).startswith("Error: you play at phutball 101: its pages come to you "
                                     "already\n"), body_of(m)[:200]
        # A subscriber gets the board's page as the players do.
        assert mail_in(lmtp, A, f"phutball move 101 alice {PA} H11#1") == 0
        got = sink.take(4)
        assert [m["rcpt"][0] for m in got] == [A, B, "carol@example.org", "dave@example.org"]
        for m in got:
            assert m["msg"]["Subject"] == "Phutball Board 101 bob"
        assert body_of(got[2]) == answer(carol, "show 101")
        # unsubscribe all (by mail: with the credentials after `all`) and unsubscribe BOARD.
        m = mail_one(sink, lmtp, "dave@example.org", "unsubscribe all dave pw-dave-12")
        check_common(m, "dave@example.org", "Plateau: unsubscribe all")
        assert body_of(m) == "You are no longer subscribed to phutball 101.\n", body_of(m)
        assert answer(carol, "unsubscribe 101") == "You are no longer subscribed to phutball 101.\n"
        assert answer(carol, "unsubscribe all") == "You are subscribed to no board.\n"
        assert mail_in(lmtp, B, f"phutball move 101 bob {PB} J12#2") == 0
        got = sink.take(2)
        assert [m["rcpt"][0] for m in got] == [A, B]
        # Subscriptions are kept with the board across a restart.
        assert answer(carol, "subscribe 101").startswith("You are subscribed")
        server.stop()
        server.start()
        assert mail_in(lmtp, A, f"phutball move 101 alice {PA} H12#3") == 0
        got = sink.take(3)
        assert [m["rcpt"][0] for m in got] == [A, B, "carol@example.org"]
    finally:
        server.stop()
        controller.stop()


def test_inline_credentials_on_the_text_port():
    sink, controller, server, lmtp = start()
    try:
        board_101(sink, lmtp)
        t = server.text()
        # A line that is no command as it is, but is one with its credentials taken out: a login
        # as that user (no resume token), then the command.
        got = answer(t, f"phutball move 101 alice {PA} H11#1")
        assert "\nIt is bob's turn.\n" in got, got
        assert "Resume token" not in got
        assert answer(t, "limit") == "You accept all challenges.\n"  # alice's
        assert answer(t, f"limit bob {PB} reject") == "You accept no challenges.\n"
        assert answer(t, "limit") == "You accept no challenges.\n"  # now bob's
        # A wrong password is refused as a login is; other bad lines keep their own error.
        assert answer(t, f"move 101 bob wrong-pw-12 J12") == "error: wrong name or password\n"
        assert answer(t, "move 101 H11 extra") == "error: usage: move [BOARD] MOVE[#n]\n"
        assert len(sink.take(2)) == 2  # alice's move went to both players by mail
    finally:
        server.stop()
        controller.stop()


if __name__ == "__main__":
    run_tests([t for t in [test_commands, test_subscribe, test_inline_credentials_on_the_text_port] if len(sys.argv) < 4 or t.__name__ == sys.argv[3]])
