#!/usr/bin/env python3
"""The table directory's one listing serialiser (issue 13, item 3): the `tables` command (its
JSON items and its text lines) and /api/tables describe a table the same way, seats as objects,
with the user to move (`next_user`).
Usage: table_listing_test.py PLATEAU_BINARY"""
import json
import sys

from plateau_harness import Server, answer, run_tests

BINARY = sys.argv[1]


def test_tables_command_and_api_agree():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        ws.command("register wendy pw-wendy")
        ws.command("/open bohnduell supply=7")
        ws.command("/join 1")
        ws.command("/join cpu:1 2")
        ws.command("/open phutball")
        expected = [
            {"game": "bohnduell", "board": 101, "status": "setup", "ply": 0,
             "seats": [{"kind": "user", "name": "wendy"}, {"kind": "cpu", "name": "1"}],
             "options": "supply=7", "kind": "table", "next_user": ""},
            {"game": "phutball", "board": 101, "status": "setup", "ply": 0,
             "seats": [{"kind": "", "name": ""}, {"kind": "", "name": ""}],
             "options": "", "kind": "table", "next_user": ""},
        ]
        replies, _ = ws.command("tables")
        assert replies[0]["what"] == "tables" and replies[0]["items"] == expected, replies
        status, body = server.http_get("/api/tables")
        assert status == 200 and json.loads(body) == expected, body
        assert replies[0]["lines"] == ["bohnduell 101 setup ply 0: wendy, cpu:1 (supply=7)",
                                       "phutball 101 setup ply 0: -, -"], replies
        text = server.text("wendy", "pw-wendy")
        assert answer(text, "tables phutball") == "phutball 101 setup ply 0: -, -\n"
        # A board number without a game finds the tables of every game that has it (one lookup
        # per game: TableDirectory::with_number).
        assert answer(text, "show 101") == ("error: board 101 exists for bohnduell and phutball; "
                                            "say which, e.g. bohnduell show 101\n")
        assert answer(text, "show 102") == "error: no board 102\n"
        # While a game runs the listing names the user to move (the browser's "your games").
        ws.command("phutball challenge wendy cpu:1")
        replies, _ = ws.command("tables phutball")
        playing = [i for i in replies[0]["items"] if i["board"] == 102]
        assert [(i["status"], i["next_user"]) for i in playing] == [("playing", "wendy")], replies
    finally:
        server.stop()


if __name__ == "__main__":
    run_tests([test_tables_command_and_api_agree])
