#!/usr/bin/env python3
"""A WebSocket client (JSON events) plays against CPU seats to the end, with a text spectator:
BohnDuell against one CPU, and Biloba with 4 seats, 3 of them CPU, moves built step by step.
Usage: websocket_test.py PLATEAU_BINARY"""
import sys

from plateau_harness import Server, run_tests, TOKENS

BINARY = sys.argv[1]


def test_websocket_against_cpu():
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        replies, _ = ws.command("register wendy pw-wendy")
        assert len(replies[0].pop("token", "")) == 43, replies  # the resume token
        assert replies == [{"type": "login", "user": "wendy", "guest": False, "re": 1,
                            "text": "Welcome, wendy. Your account is created."}], replies
        replies, _ = ws.command("/open bohnduell supply=7")
        assert replies[0]["type"] == "table" and replies[0]["board"] == 101, replies
        assert replies[0]["seats"][1] == {"seat": 2, "label": "B", "kind": "free", "name": ""}
        replies, _ = ws.command("/join cpu:1 2")
        assert replies[0]["seats"][1] == {"seat": 2, "label": "B", "kind": "cpu", "name": "1"}, replies
        replies, _ = ws.command("/join 1")
        assert replies[0]["seats"][0] == {"seat": 1, "label": "A", "kind": "user",
                                          "name": "wendy"}, replies
        spectator = server.text()
        spectator.send("/watch 101")
        spectator.expect(r"You are watching bohnduell 101\.")
        replies, _ = ws.command("/option start=1")
        replies, others = ws.command("/start")
        start = replies[0]
        assert start["type"] == "start" and start["players"] == ["wendy", "cpu:1"], start
        assert start["rated"] is True
        moves = []
        over = None
        while over is None:
            # Whose turn: the latest move or start event says.
            events = [e for e in ws.events if e["type"] in ("move", "start", "gameover")]
            last = events[-1]
            if last["type"] == "gameover":
                over = last
                break
            if last.get("next_user") != "wendy":
                e = ws.recv()
                assert e is not None
                ws.events.append(e)
                continue
            ply = len([e for e in ws.events if e["type"] == "move"]) + 1
            for tok in TOKENS:
                replies, others = ws.command(f"move {tok}#{ply}")
                if replies[0]["type"] == "error":
                    assert "illegal move" in replies[0]["message"], replies
                    continue
                assert replies[0]["type"] == "move" and replies[0]["move"] == tok, replies
                assert replies[0]["user"] == "wendy" and replies[0]["ply"] == ply
                break
        all_moves = [e for e in ws.events if e["type"] == "move"]
        assert [e["ply"] for e in all_moves] == list(range(1, len(all_moves) + 1))
        assert any(e["user"] == "cpu:1" and e["auto"] for e in all_moves)
        assert over["reason"] == "rules" and over["result"] in ("1-0", "0-1", "1/2-1/2"), over
        assert len(over["ratings"]) == 2, over
        # The spectator saw every move, in order.
        for e in all_moves:
            spectator.expect(rf"^bohnduell 101: {e['ply']}\. {e['label']} {e['user']} "
                             rf"{e['move']}( \(Auto\))?$")
        replies, _ = ws.command("show")
        assert replies[0]["type"] == "board" and "Summary of BohnDuell Board 101" in replies[0]["page"]
        replies, _ = ws.command("standings bohnduell")
        players = sorted(i["player"] for i in replies[0]["items"])
        assert players == ["cpu:1", "wendy"], replies
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def wait_for_turn(ws, me):
    """Reads events until it is `me`'s turn (returns None) or the game is over (the event)."""
    while True:
        events = [e for e in ws.events if e["type"] in ("move", "start", "gameover")]
        last = events[-1]
        if last["type"] == "gameover":
            return last
        if last.get("next_user") == me:
            return None
        e = ws.recv(30)
        assert e is not None, "connection closed"
        ws.events.append(e)


def test_websocket_biloba_four_seats_three_cpu():
    server = Server(BINARY, extra=["--rate", "100000"]).start()
    try:
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        ws.command("register bianca pw-bianca")
        replies, _ = ws.command("/open biloba players=4 turn_cap=1000")
        table = replies[0]
        assert table["type"] == "table" and len(table["seats"]) == 4, table
        assert [s["label"] for s in table["seats"]] == ["O", "B", "R", "G"], table
        for seat, level in ((2, "random"), (3, "greedy"), (4, "random")):
            replies, _ = ws.command(f"/join cpu:{level} {seat}")
            assert replies[0]["type"] == "table", replies
        ws.command("/join 1")
        replies, _ = ws.command("/start")
        start = replies[0]
        assert start["type"] == "start", start
        assert start["players"] == ["bianca", "cpu:random", "cpu:greedy", "cpu:random"], start
        assert start["rated"] is False  # ratings are for two-player games
        my_moves = 0
        while True:
            over = wait_for_turn(ws, "bianca")
            if over:
                break
            # Build a move step by step: the first offered step until the prefix is complete.
            prefix = []
            while True:
                replies, _ = ws.command("steps " + " ".join(prefix))
                r = replies[0]
                assert r["type"] == "steps", r
                if r["complete"]:
                    move = r["move"]
                    break
                assert r["next"], r
                prefix.append(r["next"][0])
            ply = len([e for e in ws.events if e["type"] == "move"]) + 1
            replies, _ = ws.command(f"move {move}#{ply}")
            assert replies[0]["type"] == "move", replies
            assert replies[0]["user"] == "bianca" and replies[0]["move"] == move, replies
            my_moves += 1
        moves = [e for e in ws.events if e["type"] == "move"]
        assert [e["ply"] for e in moves] == list(range(1, len(moves) + 1))
        assert {e["label"] for e in moves} == {"O", "B", "R", "G"}
        assert my_moves == len([e for e in moves if e["user"] == "bianca"]) > 0
        # A shuffle among the bots may end it by the no-progress rule (issue 14) or the cap.
        assert over["reason"] in ("rules", "no progress", "turn cap"), over
        assert len(over["returns"]) == 4, over
        assert abs(sum(over["returns"]) - 1) < 1e-9, over
        status, record = server.http_get("/records/biloba/101")
        assert status == 200 and '[Game "biloba"]' in record, record
        assert '[Seats "bianca,cpu:random,cpu:greedy,cpu:random"]' in record, record
        assert over["result"] == record.split('[Result "')[1].split('"')[0], (over, record)
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


def test_websocket_spectators_and_clocks():
    """Spectators are listed (table, board, spectators events) and clocked tables report the
    time each seat has left, the seat to move running."""
    server = Server(BINARY, extra=["--rate", "1000"]).start()
    try:
        alice = server.ws()
        assert alice.recv()["type"] == "welcome"
        alice.command("register alice pw-alice")
        replies, _ = alice.command("/open bohnduell clock=fischer:300+5 start=1")
        # The creator watches the table she opened until she sits down.
        assert replies[0]["spectators"] == ["alice"] and replies[0]["clock"] == "fischer:300+5", replies
        bob = server.ws()
        assert bob.recv()["type"] == "welcome"
        bob.command("register bob pw-bobby")
        replies, _ = alice.command("/join 1")
        assert replies[0]["spectators"] == [], replies
        replies, _ = bob.command("/table bohnduell 101")
        assert replies[0]["spectators"] == ["bob"], replies
        replies, _ = bob.command("/join 2")
        assert replies[0]["spectators"] == [], replies  # seated, no longer a spectator
        replies, _ = alice.command("/start")
        start = replies[0]
        assert start["type"] == "start" and start["spectators"] == [], start
        clocks = start["clocks"]
        assert [(c["label"], c["user"], c["running"]) for c in clocks] == \
            [("A", "alice", True), ("B", "bob", False)], clocks
        assert 295000 <= clocks[0]["left_ms"] <= 300000 and clocks[1]["left_ms"] == 300000, clocks
        # A spectator comes: everyone at the table hears of it; the players are never listed.
        carol = server.ws()
        assert carol.recv()["type"] == "welcome"
        carol.command("register carol pw-carol")
        seen = max(e.get("seq", 0) for e in alice.events)  # the last table event told
        replies, _ = carol.command("/watch 101")
        board = replies[0]
        assert board["type"] == "board" and board["spectators"] == ["carol"], board
        assert board["clocks"][0]["running"] and not board["clocks"][1]["running"], board
        # The reply carries the table's last seq, and the event the /watch itself numbers (carol
        # is watching) comes after it, one above.
        assert board["last_seq"] == seen == 4, (board, seen)
        assert [(r["type"], r.get("seq")) for r in replies[1:]] == [("spectators", 5)], replies
        e = alice.recv()
        # Table events carry their seq: /join 1, bob's watching, /join 2, /start, then this.
        assert e == {"type": "spectators", "game": "bohnduell", "board": 101, "seq": 5,
                     "spectators": ["carol"], "text": "carol is watching bohnduell 101."}, e
        replies, _ = carol.command("/watch 101")  # again: no news
        assert replies[0]["last_seq"] == 5 and len(replies) == 1, replies
        replies, _ = alice.command("move S4#1")
        move = replies[0]
        assert move["type"] == "move", move
        assert [(c["user"], c["running"]) for c in move["clocks"]] == \
            [("alice", False), ("bob", True)], move
        assert move["clocks"][0]["left_ms"] == move["clock_ms"][0] > 300000 - 5000, move
        assert 295000 <= move["clocks"][1]["left_ms"] <= 300000, move
        replies, _ = carol.command("/leave")
        assert replies[0]["type"] == "ok", replies
        e = alice.recv()
        while e["type"] != "spectators":  # the text of the move reached alice first
            e = alice.recv()
        assert e["spectators"] == [] and e["text"] == "carol stopped watching bohnduell 101.", e
        replies, _ = alice.command("show")
        assert replies[0]["spectators"] == [], replies
        # A spectator whose connection closes leaves the list at once, not at the next move.
        replies, _ = carol.command("/watch 101")
        assert replies[0]["spectators"] == ["carol"], replies
        e = alice.recv()
        assert e["type"] == "spectators" and e["spectators"] == ["carol"], e
        carol.close()
        e = alice.recv()
        assert e == {"type": "spectators", "game": "bohnduell", "board": 101, "spectators": [],
                     "seq": 9, "text": "carol stopped watching bohnduell 101 (disconnected)."}, e
        replies, _ = alice.command("show")
        assert replies[0]["spectators"] == [], replies
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_websocket_against_cpu, test_websocket_biloba_four_seats_three_cpu,
           test_websocket_spectators_and_clocks])
