#!/usr/bin/env python3
"""Issue 12 item 4: `invisible` is an access rule, not a listing filter. A stranger who names an
invisible table, by any command over the text port or WebSocket, by the table he was at before it
became invisible, or by URL, gets exactly the answer for a table number that was never used; its
players, its host and the users they /invite reach it (and the invitations survive a restart).
Only the table chief (at a `host` table) or a seated player (or the creator) may seat a CPU.
Usage: security_access_test.py PLATEAU_BINARY"""
import json
import sys
import time

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]
GHOST = 150  # a board number nobody uses


def ws_answer(ws, line):
    """The WebSocket replies to `line`, without their command ids."""
    replies, _ = ws.command(line)
    return [{k: v for k, v in r.items() if k != "re"} for r in replies]


def same_as_ghost(got, ghost, number):
    """`got` (for board `number`) equals `ghost` (for GHOST) once the number is swapped."""
    return got == ghost.replace(str(GHOST), str(number))


# Commands that name a table by number; {n} is the board.
NAMED = ["/table {n}", "/table bohnduell {n}", "bohnduell /table {n}", "/watch {n}", "show {n}",
         "show {n}#0", "bohnduell show {n}", "steps {n}", "steps {n} S4", "chat {n} hello",
         "/info {n}", "/leave {n}", "move {n} S4", "move {n} S4#1", "queue {n} S4",
         "resign {n}", "propose {n}", "undo {n}", "accept {n}", "reject {n}",
         "/invite {n} mallory", "bohnduell move {n} S4"]
# Commands that act on the current table.
CURRENT = ["/join", "/join 2", "/join cpu:random 2", "/leave", "/say hello", "show", "steps",
           "/watch", "/info", "/start", "/startnosave", "/option drawseat", "/reset",
           "/invite mallory", "move S4", "queue S4", "resign", "propose", "undo", "accept"]


def check_stranger(stranger, fresh, number):
    """The stranger's answers about `number` are those about GHOST (named) and those of a
    connection that was never at a table (current)."""
    for template in NAMED:
        got = answer(stranger, template.format(n=number))
        ghost = answer(stranger, template.format(n=GHOST))
        assert ghost.startswith("error: no "), (template, ghost)
        assert same_as_ghost(got, ghost, number), (template, got, ghost)
    for line in CURRENT:
        got = answer(stranger, line)
        expected = answer(fresh, line)
        assert got == expected == ("error: you are at no table: give a board number, or /open "
                                   "GAME, /table N\n"), (line, got, expected)


def test_invisible_table_is_unreachable():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice-1", register=True)
        mallory = server.text("mallory", "pw-mallory", register=True)
        nobody = server.text("nobody", "pw-nobody", register=True)
        anonymous = server.text()
        for name in ("invitee", "later"):
            server.text(name, "pw-" + name, register=True).close()
        alice.send("/open bohnduell start=1")
        alice.expect(r"^Table bohnduell 101 is open")
        assert answer(alice, "/join 1") == "alice takes seat 1.\n"
        # mallory comes while the table is visible: he is at it and watches it.
        assert answer(mallory, "/table 101").startswith("You are at bohnduell 101.")
        alice.expect(r"^mallory is watching bohnduell 101\.$")
        assert answer(alice, "/option invisible") == "alice sets invisible.\n"
        assert answer(alice, "/option host") == "alice sets host.\n"
        assert "alice sets" not in mallory.buf, mallory.buf

        # Every command, by number or by the table he was at, answers as for no table.
        check_stranger(mallory, nobody, 101)
        # A connection that is not logged in, and a guest on the WebSocket, likewise.
        for template in ["/table {n}", "/watch {n}", "show {n}", "steps {n}", "/info {n}"]:
            got = answer(anonymous, template.format(n=101))
            assert same_as_ghost(got, answer(anonymous, template.format(n=GHOST)), 101), got
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        ws_answer(ws, "guest")
        for template in NAMED:
            got = ws_answer(ws, template.format(n=101))
            ghost = ws_answer(ws, template.format(n=GHOST))
            assert ghost[0]["type"] == "error", ghost
            assert same_as_ghost(json.dumps(got), json.dumps(ghost), 101), (template, got, ghost)

        # Listings: the table is not there for strangers; its host sees it.
        assert answer(mallory, "tables") == "No tables.\n"
        assert answer(mallory, "bohnduell tables") == "No tables.\n"
        assert answer(alice, "tables") == "bohnduell 101 setup ply 0: alice, - (start=1)\n"
        assert server.http_get("/api/tables") == (200, "[]\n")

        # Chat at the table does not reach the stranger who was watching it.
        alice.send("/say secret plans")
        alice.expect(r"^\[bohnduell 101\] alice: secret plans$")

        # /invite: exact answers, a notice to the invitee, who then reaches the table.
        assert answer(alice, "/invite nosuchuser") == "error: no user named 'nosuchuser'\n"
        invitee = server.ws()
        assert invitee.recv()["type"] == "welcome"
        ws_answer(invitee, "login invitee pw-invitee")
        assert answer(alice, "/invite invitee") == "You invited invitee to bohnduell 101.\n"
        notice = invitee.recv()
        assert notice == {"type": "invite", "game": "bohnduell", "board": 101, "by": "alice",
                          "text": "alice invites you to bohnduell 101: /table bohnduell 101 to "
                                  "go there."}, notice
        assert answer(alice, "/invite invitee") == "invitee can already reach bohnduell 101.\n"
        assert answer(alice, "/invite alice") == "alice can already reach bohnduell 101.\n"
        assert answer(alice, "/invite later") == "You invited later to bohnduell 101.\n"
        got = ws_answer(invitee, "/table 101")
        assert got[0]["type"] == "table" and got[0]["board"] == 101, got
        assert got[0]["spectators"] == ["invitee"], got  # mallory was dropped
        key_path = got[0]["record"]
        assert key_path.startswith("/records/bohnduell/101?key=") and len(key_path) == 59, key_path
        alice.expect(r"^invitee is watching bohnduell 101\.$")
        # The invitee may not seat a CPU at the host's table; he may sit down.
        got = ws_answer(invitee, "/join cpu:random 2")
        assert got == [{"type": "error", "message": "only the table chief (alice) may seat a "
                                                    "computer player"}], got
        got = ws_answer(invitee, "/join 2")
        assert got[0]["text"] == "invitee takes seat 2.", got
        alice.send("/say hello invitee")
        alice.expect(r"^\[bohnduell 101\] alice: hello invitee$")
        alice.send("/startnosave")
        alice.expect(r"^Game bohnduell 101 starts: alice vs invitee \(unrated\)\.$")
        got = ws_answer(invitee, "steps 101")
        assert got[0]["type"] == "steps" and got[0]["ply"] == 0, got
        got = ws_answer(invitee, "show 101")
        assert got[0]["type"] == "board" and got[0]["record"] == key_path, got
        assert "secret" not in mallory.buf and "hello invitee" not in mallory.buf

        # HTTP: without the key (or with a wrong one) the record is exactly a missing one.
        ghost = server.http_get(f"/records/bohnduell/{GHOST}")
        assert ghost == (404, "no such record\n"), ghost
        for path in ["/records/bohnduell/101", "/records/bohnduell/101.txt",
                     "/records/bohnduell/101?key=", "/records/bohnduell/101?key=" + "0" * 32,
                     key_path[:-1] + ("0" if key_path[-1] != "0" else "1")]:
            assert server.http_get(path) == ghost, path
        status, record = server.http_get(key_path)
        assert status == 200 and '[Board "101"]' in record, (status, record)
        # Once started the stranger still gets the ghost's answers.
        check_stranger(mallory, nobody, 101)

        # Invitations and the key survive a restart.
        assert server.stop() == 0
        server.start()
        later = server.text("later", "pw-later")
        assert answer(later, "/table 101").startswith("You are at bohnduell 101.")
        mallory = server.text("mallory", "pw-mallory")
        nobody = server.text("nobody", "pw-nobody")
        check_stranger(mallory, nobody, 101)
        assert server.http_get(key_path)[0] == 200
        assert server.http_get("/records/bohnduell/101") == ghost
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_who_may_seat_a_cpu():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.text("alice", "pw-alice-1", register=True)
        mallory = server.text("mallory", "pw-mallory", register=True)
        # A `host` table: only its chief seats a computer player.
        alice.send("/open bohnduell")
        alice.expect(r"^Table bohnduell 101 is open")
        assert answer(alice, "/option host") == "alice sets host.\n"
        answer(mallory, "/table 101")
        alice.expect(r"^mallory is watching bohnduell 101\.$")
        assert answer(mallory, "/join cpu:random 2") == (
            "error: only the table chief (alice) may seat a computer player\n")
        assert answer(mallory, "/join 2") == "mallory takes seat 2.\n"
        alice.expect(r"^mallory takes seat 2\.$")
        assert answer(mallory, "/join cpu:random 1") == (
            "error: only the table chief (alice) may seat a computer player\n")
        assert answer(alice, "/join cpu:random 1") == "cpu:random takes seat 1.\n"
        # Without `host`: the creator or a seated player, not a passer-by.
        alice.send("/open bohnduell")
        alice.expect(r"^Table bohnduell 102 is open")
        answer(mallory, "/table 102")
        assert answer(mallory, "/join cpu:random 2") == (
            "error: sit down first (/join) to seat a computer player\n")
        assert answer(mallory, "/join 1") == "mallory takes seat 1.\n"
        assert answer(mallory, "/join cpu:random 2") == "cpu:random takes seat 2.\n"
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_invitations_are_bounded():
    # 50 users invited to one table at most: the list is kept in the table's snapshot and read
    # on every reach, so a host with many accounts to name cannot grow it for ever.
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        names = [f"inv{i:02d}" for i in range(51)]
        for name in names:
            server.text(name, "pw-" + name, register=True).close()
        alice = server.text("alice", "pw-alice-1", register=True)
        alice.send("/open bohnduell start=1")
        alice.expect(r"^Table bohnduell 101 is open")
        assert answer(alice, "/option invisible") == "alice sets invisible.\n"
        for name in names[:50]:
            assert answer(alice, f"/invite {name}") == f"You invited {name} to bohnduell 101.\n"
        assert answer(alice, f"/invite {names[50]}") == (
            "error: bohnduell 101 has 50 invitations already, the most a table may have\n")
        # Those invited still reach it after a restart; the 51st does not.
        server.stop()
        server.start()
        assert answer(server.text(names[49], "pw-" + names[49]), "/table 101").startswith(
            "You are at bohnduell 101.")
        assert answer(server.text(names[50], "pw-" + names[50]), "/table 101").startswith("error: ")
    finally:
        server.stop()


run_tests([test_invisible_table_is_unreachable, test_who_may_seat_a_cpu,
           test_invitations_are_bounded])
