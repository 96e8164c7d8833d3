"""A biloba 0.9.3 network game between Debian's original client (/usr/games/biloba) and this
window, both under Xvfb, through `plateau serve`'s legacy port (issue 18, "Done when"): the
original creates the game from its menu (CREATE NETWORK GAME, server Local, PLAY !), the
window joins it (--start join:ID), each side plays by mouse clicks on its own screen, and after
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
ROUNDS = 3


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
        trace = Trace(os.path.join(art, "trace.txt"))
        ours = start_biloba(biloba, xb, trace, ["127.0.0.1", "--start", "join:" + game_id,
                                                "--name", "Window"], home,
                            os.path.join(art, "biloba.out"))
        procs.append(ours)
        layout = Board(800, 600)
        turns, after, shots = [], 0, 0
        rng = random.Random(5)

        def both_screens_show(label):
            nonlocal shots
            expected = board_rows(plateau(plateau_exe, "board", turns))
            expected_original = [r.replace("*", ".") for r in expected]
            # The original animates and waits 500 ms at each turn start: allow it a moment.
            for attempt in range(20):
                shots += 1
                a = xa.screenshot(os.path.join(art, f"{shots:02d}-original-{label}.png"))
                b = xb.screenshot(os.path.join(art, f"{shots:02d}-window-{label}.png"))
                seen_a = read_board(a, original_centre, ORIGINAL)
                seen_b = read_board(b, layout.centre, OURS)
                if seen_a == expected_original and seen_b == expected:
                    break
                time.sleep(0.3)
            check(f"the original's screen after {len(turns)} turns", expected_original, seen_a)
            check(f"the window's screen after {len(turns)} turns", expected, seen_b)

        trace.wait(r"^game$", timeout=20)
        both_screens_show("start")  # the original too has started the game
        time.sleep(0.7)  # and waited its 500 ms at the turn start
        for _ in range(ROUNDS):
            # Orange: the original's seat, clicked on its screen.
            moves = plateau(plateau_exe, "moves", turns).split()
            token = rng.choice([m for m in moves if "/" not in m] or moves)
            for name in re.findall(r"[a-i][1-9]", token):
                xa.click(*original_centre(square(name)))
                time.sleep(0.2)
            i, line = trace.wait(rf"^turn {len(turns) + 1} O ", timeout=20, after=after)
            after = i + 1
            turns.append("O:" + line.split()[3])
            check("the window received the original's turn", "O:" + token, turns[-1])
            both_screens_show("orange")
            # Blue: this window's seat.
            trace.wait(rf"^ready 1 {len(turns)}$", timeout=20, after=after)
            moves = plateau(plateau_exe, "moves", turns).split()
            token = rng.choice([m for m in moves if "/" not in m] or moves)
            for name in re.findall(r"[a-i][1-9]", token):
                xb.click(*layout.centre(square(name)))
            i, line = trace.wait(rf"^turn {len(turns) + 1} B ", timeout=20, after=after)
            after = i + 1
            turns.append("B:" + line.split()[3])
            check("the window played its turn", "B:" + token, turns[-1])
            both_screens_show("blue")
            time.sleep(0.7)  # the original's 500 ms at the turn start
        xb.type("good game")
        xb.key("Return")
        trace.wait(r"^chat Window: good game$")
        check("both clients still running", [None, None], [p.poll() for p in procs])
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
