"""Helpers of the relay attack tests (relay_attack_test.py, relay_host_attack_test.py): the
biloba 0.9.3 wire's LISTGAME and its first answer, an authenticated peer on a node's link that
opens legacy relays (docs/CLUSTER.md "The biloba 0.9.3 port"), clients of a relaying port."""
import base64
import json
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from link_test import SECRET, Link, blake  # noqa: E402

NUMP = b"\x05NUMP\0"  # the answer to LISTGAME


def message(payload):
    return bytes([len(payload)]) + payload


LISTGAME = message(b"LISTGAME\0")


class Peer(Link):
    """An authenticated link connection as node `me`, sending requests and notes."""

    def __init__(self, port, me="x"):
        super().__init__(port)
        _, _, (self.c2s, self.s2c, _, _, _) = self.handshake(SECRET, me)
        self.recv()  # the proof
        self.sent = self.got = 0
        self.next_id = 0

    def frame(self, fields):
        body = json.dumps(fields).encode()
        self.send(blake(self.c2s, struct.pack(">Q", self.sent), body) + body)
        self.sent += 1

    def open(self, sid, address="10.0.0.1"):
        self.next_id += 1
        self.frame({"t": "req", "id": self.next_id, "legacy": "open", "sid": sid,
                    "address": address})
        return self.next_id

    def served(self, sid, address="10.0.0.1"):
        """Opens relay `sid`; asserts the host serves it (its first event, "alive")."""
        rid = self.open(sid, address)
        assert self.answer() == {"t": "ev", "id": rid, "ka": 1}
        return rid

    def data(self, sid, raw):
        self.frame({"t": "note", "legacy": "data", "sid": sid,
                    "d": base64.b64encode(raw).decode()})

    def answer(self):
        raw = self.recv()
        assert raw[:32] == blake(self.s2c, struct.pack(">Q", self.got), raw[32:]), raw
        self.got += 1
        return json.loads(raw[32:])


def relayed(port, count):
    """`count` clients of `port` past LISTGAME's first answer: each one a relay served."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(LISTGAME)
        socks.append(s)
    for s in socks:
        assert s.recv(16) == NUMP
    return socks


def closed_within(socks, seconds):
    """True when every socket reads its end within `seconds` in all."""
    deadline = time.time() + seconds
    for s in socks:
        s.settimeout(max(0.01, deadline - time.time()))
        try:
            if s.recv(16) != b"":
                return False
        except ConnectionResetError:
            pass
        except socket.timeout:
            return False
    return True
