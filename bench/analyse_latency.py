#!/usr/bin/env python3
"""How long `analyse BOARD#n LEVEL` takes on a real `plateau serve` (issue 17 item 7): for each
game, a board whose moves are the server's own level-1 choices (each ply's `best`), analysed at
plies 2, 6, 10, 14 and 18 at every level; prints the median and the worst of the search time
the server reports (`ms`) and of the round trip over WebSocket. Each analysis comes from a fresh
guest (the per-user bound is 10 in a row). Results: docs/PERFORMANCE.md.
Usage: bench/analyse_latency.py build/release/plateau"""
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))

from plateau_harness import Server  # noqa: E402

PLIES = [2, 6, 10, 14, 18]
GAMES = [("bohnduell", ""), ("phutball", ""), ("biloba", ""), ("biloba", "-players=4")]


def guest(server):
    ws = server.ws()
    ws.recv()
    ws.command("guest")
    return ws


def one(server, line):
    for _ in range(100):
        ws = guest(server)
        t0 = time.perf_counter()
        replies, _ = ws.command(line, timeout=30)
        rtt = (time.perf_counter() - t0) * 1000
        ws.close()
        a = replies[0]
        if a["type"] == "analysis":
            return a, rtt
        if "no ply" not in a.get("message", ""):
            raise RuntimeError(f"{line}: {a}")
        time.sleep(0.05)  # the move before it is not played yet
    raise RuntimeError(f"{line}: the ply never came")


def main():
    server = Server(sys.argv[1], extra=["--rate", "1000"]).start()
    try:
        for game, options in GAMES:
            players = 4 if "players=4" in options else 2
            names = [f"p{game[:3]}{players}{i}" for i in range(players)]
            clients = [server.text(n, "bench-pass", register=True) for n in names]
            clients[0].send(f"{game} challenge {options} {' '.join(names)}")
            m = clients[0].expect(r"^New \S+ Board (\d+)$")
            board = int(m.group(1))
            ply = 0
            while ply < max(PLIES):
                a, _ = one(server, f"{game} analyse {board}#{ply} 1")
                # The side to move is a seat label; its player is found by trying each.
                for c in clients:
                    c.send(f"{game} move {board} {a['best']}#{ply + 1}")
                ply += 1
            print(f"{game} {options or ''}".strip())
            for level in "12345":
                ms, rtts = [], []
                for p in PLIES:
                    a, rtt = one(server, f"{game} analyse {board}#{p} {level}")
                    ms.append(a["ms"])
                    rtts.append(rtt)
                print(f"  level {level}: search median {statistics.median(ms):.0f} ms, worst "
                      f"{max(ms)} ms; round trip median {statistics.median(rtts):.0f} ms, worst "
                      f"{max(rtts):.0f} ms")
        assert server.stop() == 0
    finally:
        if server.alive():
            server.kill()


if __name__ == "__main__":
    main()
