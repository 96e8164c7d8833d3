#!/usr/bin/env python3
"""Bad input over every transport gets an error and changes nothing: malformed commands,
moves for another seat, out of turn or by strangers, illegal moves, wrong #n, oversize lines and
messages, control characters, floods, bad HTTP. The game record is compared before and after.
Usage: bad_input_test.py PLATEAU_BINARY"""
import json
import socket
import sys
import time

from plateau_harness import Server, run_tests

BINARY = sys.argv[1]


def test_bad_input_changes_nothing():
    server = Server(BINARY, extra=["--rate", "20"]).start()
    try:
        alice = server.text("alice", "pw-alice", register=True)
        bob = server.text("bob", "pw-bobby", register=True)
        mallory = server.text("mallory", "pw-mallory", register=True)
        alice.send("bohnduell challenge alice bob")
        alice.expect(r"^New BohnDuell Board 101$")
        alice.send("move 101 S4")
        alice.expect(r"^bohnduell 101: 1\. A alice S4$")
        _, before = server.http_get("/records/bohnduell/101")

        cases = [
            # (client, line, expected error)
            (alice, "frobnicate", r"unknown command 'frobnicate'"),
            (alice, "move", r"usage: move \[BOARD\] MOVE\[#n\]"),
            (alice, "move 101", r"usage: move"),
            (alice, "move 101 S4 S3", r"usage: move"),
            (alice, "move 999 S4", r"no board 999"),
            (alice, "phutbal move 101 S4", r"unknown game 'phutbal'; games are: .*bohnduell"),
            (alice, "bohnduell move 102 S4", r"no bohnduell board 102"),
            (alice, "move 101 S4", r"it is not your turn: it is bob's turn"),
            (mallory, "move 101 S1", r"you do not play at bohnduell 101"),
            (mallory, "resign 101", r"you do not play at bohnduell 101"),
            (mallory, "undo 101", r"you do not play at bohnduell 101"),
            (bob, "move 101 S1#1", r"move #1 does not match: the next move is #2"),
            (bob, "move 101 S1#x", r"bad ply number after '#' 'x'"),
            (bob, "move 101 H2", r"illegal move 'H2': "),
            (bob, "move 101 Z9", r"illegal move 'Z9': "),
            (bob, "move 101 " + "S" * 300, r"illegal move"),
            (bob, "accept 101", r"there is no draw offer or undo request to answer"),
            (bob, "/join cpu:random 1", r"you are at no table"),
            (bob, "/table 101", None),
            (bob, "/join cpu:random 1", r"the game is running; seats cannot change"),
            (bob, "/join 1", r"seat 1 belongs to alice"),
            (bob, "/option supply=3", r"options can change only before the start"),
            (bob, "/start", r"the game is already running"),
            (bob, "/reset", r"boards cannot be reset"),
            (mallory, "/open bohnduell", None),
            (mallory, "/join cpu:nosuchbot 2", r"bad CPU level: .*nosuchbot"),
            # Biloba's own player does not play BohnDuell: refused when seated, not at its turn.
            (mallory, "/join cpu:classic 2",
             r"bad CPU level: 'classic' does not play bohnduell; its computer players are "
             r"random, greedy, 1, 2, 3, 4, 5 \(or level1\.\.level5\)$"),
            (mallory, "/join cpu:random", r"usage: /join cpu:LEVEL SEAT"),
            (mallory, "/join 3", r"no seat '3'; seats are 1..2"),
            (mallory, "/option supply=99", r"supply"),
            (mallory, "/option clock=fast", r"bad clock 'fast'"),
            (mallory, "/option colour=red", r"unknown option 'colour' for bohnduell"),
            (mallory, "/move S4", r"the game at bohnduell 102 has not started"),
            (bob, "bohnduell challenge -supply=0 alice bob", r"supply"),
            (bob, "bohnduell challenge alice", r"usage: GAME challenge"),
            (bob, "bohnduell challenge alice carol", r"no user named 'carol'"),
            (bob, "bohnduell challenge bob cpu:classic", r"'classic' does not play bohnduell"),
            (bob, "biloba challenge bob alice cpu:2",
             r"biloba needs 2 players, got 3; for 3 players add -players=3$"),
            (bob, "bohnduell challenge alice mallory", r"you must be one of the players"),
            (bob, "nosuchgame challenge alice bob", r"unknown game 'nosuchgame'"),
            (bob, "bohnduell challenge -bogus=1 alice bob", r"unknown option 'bogus'"),
            (bob, "bohnduell challenge -clock=fast alice bob", r"bad clock 'fast'"),
            (bob, "register x y", r"bad user name"),
            (bob, "login bob wrong-password", r"wrong name or password"),
            (bob, "show 101#7", r"no ply 7 at bohnduell 101"),
            (bob, "standings", r"usage: standings GAME"),
            (bob, "say", r"usage: /say TEXT"),
            (bob, "move 101 S1\x07", r"control character 7"),
        ]
        for client, line, error in cases:
            client.send(line)
            if error is None:
                client.send("ping")
                client.expect(r"^pong$")
            else:
                client.expect(r"^error: .*" + error)
        # A stranger who is not logged in.
        anon = server.text()
        anon.send("move 101 S1")
        anon.expect(r"^error: log in first")
        anon.send("/say hi")
        anon.expect(r"^error: you are at no table")
        # An oversize line: error, skipped to its end, and the connection still works.
        bob.send_raw(b"move 101 " + b"S" * 5000 + b"\nping\n")
        bob.expect(r"^error: line too long: at most 4096 bytes; line ignored$")
        bob.expect(r"^pong$")
        # Invalid UTF-8 is refused at the edge (security_input_test.py): nothing is relayed.
        bob.send_raw(b"/say caf\xc3 \xff\n/say cafe\n")
        bob.expect(r"^error: invalid UTF-8 at byte 8; line ignored$")
        alice.expect(r"^\[bohnduell 101\] bob: cafe$")
        # A flood: the rate limit drops commands with an error; too much queued input closes.
        flood = server.text()
        flood.send_raw(b"ping\n" * 60)
        flood.expect(r"^error: too many commands: at most 20 per second; command dropped$")
        flood2 = server.text()
        flood2.send_raw(b"who\n" * 5000)
        flood2.expect(r"too many commands waiting; closing the connection")
        assert flood2.wait_closed(), "a flooding connection must be closed"
        # WebSocket: bad JSON, binary, an oversize message (closed with 1009 "message too big").
        ws = server.ws()
        assert ws.recv()["type"] == "welcome"
        ws.send_frame(b'{"cmd": 5}')
        assert ws.recv()["message"].startswith("bad JSON command")
        ws.send_frame(b"\x00\x01", opcode=2)
        assert ws.recv()["message"].startswith("binary messages are not accepted")
        ws.send_frame(json.dumps({"cmd": "move 101 S1", "id": 3}).encode())
        e = ws.recv()
        assert e["type"] == "error" and e["re"] == 3 and "log in first" in e["message"], e
        ws.send_frame(b"x" * 70000)
        while ws.recv() is not None:
            pass
        assert ws.close_code == 1009, ws.close_code
        # HTTP: unknown paths, bad records, oversize requests.
        assert server.http_get("/nope")[0] == 404
        assert server.http_get("/records/bohnduell/abc")[0] == 404
        assert server.http_get("/records/bohnduell/999")[0] == 404
        s = socket.create_connection(("127.0.0.1", server.http_port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n")
        s.settimeout(5)
        reply = s.recv(1000)
        assert b" 413 " in reply.split(b"\r\n")[0] or reply == b"", reply
        s.close()

        # Nothing changed, and the game goes on.
        _, after = server.http_get("/records/bohnduell/101")
        assert after == before, (before, after)
        time.sleep(1.2)  # let bob's rate bucket refill
        bob.send("move 101 S1#2")
        bob.expect(r"^bohnduell 101: 2\. B bob S1$")
        assert server.http_get("/healthz") == (200, "ok\n")
        assert server.stop() == 0


    finally:
        if server.alive():
            server.kill()

def test_idle_connections_are_closed():
    server = Server(BINARY, extra=["--idle-timeout", "1"]).start()
    try:
        c = server.text()
        c.send("guest")
        c.expect(r"^Hello, guest1")
        c.expect(r"^Idle timeout: goodbye\.$", timeout=5)
        assert c.wait_closed(), "an idle connection must be closed"
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


run_tests([test_bad_input_changes_nothing, test_idle_connections_are_closed])
