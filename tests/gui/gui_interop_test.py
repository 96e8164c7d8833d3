"""A biloba 0.9.3 network game between Debian's original client (/usr/games/biloba) and this
window, both under Xvfb, through `plateau serve`'s legacy port (issue 18, "Done when"): the
original creates the game from its menu (CREATE NETWORK GAME, server Local, PLAY !), the
window joins it from its own (JOIN GAME, the game listed), each side plays by mouse clicks on its own screen, and after
every turn both screens show the board `plateau board` prints for the turns played; a chat
line typed in the window is sent. First, the window's menu lists a server heard on UDP 8001.

The original always uses TCP 8000, so the test runs in a private network namespace (loopback
only, `unshare -n`); it skips (77) without /usr/games/biloba or when no namespace can be made.

usage: gui_interop_test.py BILOBA PLATEAU ARTIFACT_DIR
"""
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from guilib import (ORIGINAL, OURS, SKIP, Board, Failure, Trace, Xvfb, artifacts, board_rows, check,
                    original_centre, read_board, run, square, start_biloba, stop)
from plateau_harness import Server

ORIGINAL_BILOBA = "/usr/games/biloba"
SPEC = "biloba(classic)"
ROUNDS = 2  # of the first game (one more turn each in the second)


def in_private_network():
    """Re-runs this script in a new network namespace with loopback up (or skips)."""
    if os.environ.get("PLATEAU_GUI_NETNS") == "1":
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        return
    try:
        if subprocess.run(["unshare", "-n", "true"], stderr=subprocess.DEVNULL).returncode != 0:
            raise OSError("unshare -n refused")
    except OSError as e:
        print(f"skipped: no private network namespace ({e}); the original needs TCP 8000")
        sys.exit(SKIP)
    env = dict(os.environ, PLATEAU_GUI_NETNS="1")
    sys.exit(subprocess.run(["unshare", "-n", sys.executable] + sys.argv, env=env).returncode)


def plateau(exe, what, turns):
    record = '[Game "biloba"]\n[Options "classic"]\n' + " ".join(turns) + "\n"
    return subprocess.run([exe, what, SPEC, "--record", "-"], input=record, text=True, check=True,
                          stdout=subprocess.PIPE).stdout


class Match:
    """A network game between the original (on display xa) and the window (on xb, its trace)."""

    def __init__(self, plateau_exe, xa, xb, trace, art, prefix, original_seat):
        self.plateau, self.xa, self.xb, self.trace = plateau_exe, xa, xb, trace
        self.art, self.prefix, self.original_seat = art, prefix, original_seat
        self.layout = Board(800, 600)
        self.turns, self.after, self.shots = [], 0, 0
        self.rng = random.Random(5)

    def screens_show(self, label):
        expected = board_rows(plateau(self.plateau, "board", self.turns))
        expected_original = [r.replace("*", ".") for r in expected]
        # The original animates and waits 500 ms at each turn start: allow it a moment.
        for _ in range(20):
            self.shots += 1
            name = f"{self.prefix}{self.shots:02d}"
            a = self.xa.screenshot(os.path.join(self.art, f"{name}-original-{label}.png"))
            b = self.xb.screenshot(os.path.join(self.art, f"{name}-window-{label}.png"))
            seen_a = read_board(a, original_centre, ORIGINAL)
            seen_b = read_board(b, self.layout.centre, OURS)
            if seen_a == expected_original and seen_b == expected:
                break
            time.sleep(0.3)
        n = len(self.turns)
        check(f"{self.prefix}: the original's screen after {n} turns", expected_original, seen_a)
        check(f"{self.prefix}: the window's screen after {n} turns", expected, seen_b)

    def play(self, count):
        self.trace.wait(r"^game$", timeout=20)
        self.screens_show("start")  # the original too has started the game
        time.sleep(0.7)  # and waited its 500 ms at the turn start
        for _ in range(count):
            seat = len(self.turns) % 2
            colour = "OB"[seat]
            if seat != self.original_seat:
                self.trace.wait(rf"^ready {seat} {len(self.turns)}$", timeout=20, after=self.after)
            moves = plateau(self.plateau, "moves", self.turns).split()
            token = self.rng.choice([m for m in moves if "/" not in m] or moves)
            for name in re.findall(r"[a-i][1-9]", token):
                if seat == self.original_seat:
                    self.xa.click(*original_centre(square(name)))
                    time.sleep(0.2)
                else:
                    self.xb.click(*self.layout.centre(square(name)))
            i, line = self.trace.wait(rf"^turn {len(self.turns) + 1} {colour} ", timeout=20,
                                      after=self.after)
            self.after = i + 1
            self.turns.append(colour + ":" + line.split()[3])
            who = "the original" if seat == self.original_seat else "the window"
            check(f"{self.prefix}: the turn {who} clicked", colour + ":" + token, self.turns[-1])
            self.screens_show(colour)
            time.sleep(0.7)  # the original's 500 ms at the turn start


def lan_servers_listed(biloba, xvfb, art, home):
    """The menu lists a server heard on UDP 8001 (a biloba 0.9.3 announcement: "Biloba", a
    number right-aligned in 32 characters, NUL) and a click on it makes it the menu's server."""
    trace = Trace(os.path.join(art, "trace-lan.txt"))
    proc = start_biloba(biloba, xvfb, trace, [], home, os.path.join(art, "biloba-lan.out"))
    datagram = b"Biloba" + b"12345".rjust(32) + b"\0"
    check("an announcement is 39 bytes", 39, len(datagram))
    try:
        trace.wait(r"^menu ")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _ in range(40):
                s.sendto(datagram, ("127.0.0.1", 8001))
                if any(l.startswith("lan ") for l in trace.lines()):
                    break
                time.sleep(0.25)
        _, line = trace.wait(r"^lan ", timeout=5)
        check("the LAN server listed", "lan localhost", line)
        xvfb.screenshot(os.path.join(art, "lan-menu.png"))
        height, width = 600, 800
        top, m, row = height // 12, max(2, height // 40), max(16, height // 15)
        y = top + m + row * 5 // 4 + m + 4 * row + m + row + m // 2 + row * 3 // 4
        xvfb.click(m + row + 20, y + (row * 3 // 4) // 2)  # the first LAN row
        _, line = trace.wait(r"^server ", timeout=5)
        check("a click on it chooses it", "server localhost", line)
        xvfb.key("ctrl+q")
        check("Ctrl-Q", 0, proc.wait(timeout=10))
    finally:
        stop(proc)


def main():
    biloba, plateau_exe, art = sys.argv[1], sys.argv[2], artifacts(sys.argv[3], "gui_interop")
    server = Server(plateau_exe).start(biloba_port=8000)
    xa, xb = Xvfb(800, 600), Xvfb(800, 600)
    home = tempfile.mkdtemp(prefix="gui_interop_")
    procs = []
    try:
        lan_servers_listed(biloba, xb, art, home)
        original = subprocess.Popen([ORIGINAL_BILOBA], env=dict(xa.env, HOME=home),
                                    stdout=open(os.path.join(art, "original.out"), "w"),
                                    stderr=subprocess.STDOUT)
        procs.append(original)
        time.sleep(2)  # its menu: no trace to wait for
        xa.screenshot(os.path.join(art, "00-original-menu.png"))
        xa.click(150, 525)   # CREATE NETWORK GAME
        xa.click(430, 370)   # the server chooser
        xa.click(190, 388)   # Local
        xa.screenshot(os.path.join(art, "01-original-create.png"))
        xa.click(650, 525)   # PLAY !
        game_id = None
        for _ in range(100):
            listing = subprocess.run([biloba, "--text", "127.0.0.1", "--list"], text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
            m = re.search(r"^\s+(\d+)\s+New game$", listing, re.M)
            if m:
                game_id = m.group(1)
                break
            time.sleep(0.1)
        if game_id is None:
            raise Failure("the original did not create its game; listing: " + listing)
        # The window joins from its menu: JOIN GAME lists the server's games; click the first.
        trace = Trace(os.path.join(art, "trace.txt"))
        ours = start_biloba(biloba, xb, trace, ["127.0.0.1", "--name", "Window"], home,
                            os.path.join(art, "biloba.out"))
        procs.append(ours)
        trace.wait(r"^menu ")
        m, bh = max(2, 600 // 40), max(16, 600 // 12)
        bw = (800 - 4 * m) // 3
        xb.click(2 * m + bw + bw // 2, 600 - m - bh // 2)  # JOIN GAME
        time.sleep(1)
        xb.screenshot(os.path.join(art, "a-window-list.png"))
        row = max(16, 600 // 12)
        xb.click(400, 600 // 12 + row + m + row // 2)  # the first game listed
        match = Match(plateau_exe, xa, xb, trace, art, "a", original_seat=0)
        match.play(2 * ROUNDS)
        xb.type("good game")
        xb.key("Return")
        trace.wait(r"^chat Window: good game$")
        check("both clients still running", [None, None], [p.poll() for p in procs])
        xb.key("ctrl+q")
        check("the window quits with Ctrl-Q", 0, ours.wait(timeout=10))
        stop(original)

        # The other way round: the window creates the game from its menu (server typed,
        # CREATE NETWORK GAME), the original joins it from its own (JOIN GAME, Local, the game,
        # PLAY !).
        trace = Trace(os.path.join(art, "trace-create.txt"))
        ours = start_biloba(biloba, xb, trace, [], home, os.path.join(art, "biloba-create.out"))
        procs.append(ours)
        trace.wait(r"^menu ")
        top, m, row = 600 // 12, max(2, 600 // 40), max(16, 600 // 15)
        server_y = top + m + row * 5 // 4 + m + 4 * row + m + row // 2
        xb.click(400, server_y)
        xb.type("127.0.0.1")
        xb.key("Return")
        xb.click(m + (800 - 4 * m) // 6, 600 - m - max(16, 600 // 12) // 2)  # CREATE NETWORK GAME
        trace.wait(r"^game$")
        original = subprocess.Popen([ORIGINAL_BILOBA], env=dict(xa.env, HOME=home),
                                    stdout=open(os.path.join(art, "original-join.out"), "w"),
                                    stderr=subprocess.STDOUT)
        procs.append(original)
        time.sleep(2)
        xa.click(400, 525)   # JOIN GAME
        xa.click(430, 370)   # the server chooser
        xa.click(190, 388)   # Local
        time.sleep(1.5)      # the list of games comes from the server
        xa.screenshot(os.path.join(art, "b-original-join.png"))
        xa.click(650, 170)   # the first game
        xa.click(650, 525)   # PLAY !
        match = Match(plateau_exe, xa, xb, trace, art, "b", original_seat=1)
        match.play(2)
        check("both clients still running", [None, None], [p.poll() for p in procs[-2:]])
    finally:
        xa.screenshot(os.path.join(art, "zz-original-last.png"))
        xb.screenshot(os.path.join(art, "zz-window-last.png"))
        for p in procs:
            stop(p)
        xa.close()
        xb.close()
        server.stop()


if __name__ == "__main__":
    if not os.path.exists(ORIGINAL_BILOBA):
        print("skipped: Debian's biloba (/usr/games/biloba) is not installed")
        sys.exit(SKIP)
    in_private_network()
    run(main)
