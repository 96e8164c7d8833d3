"""A 2-player game Human vs CPU in the window, played by mouse clicks until the person captures
with a refill (issue 18, "Done when"): after every turn the pawns at every square centre of the
screenshot must be the board `plateau board` prints for the turns played so far.

usage: gui_play_test.py BILOBA PLATEAU ARTIFACT_DIR
"""
import os
import random
import re
import subprocess
import sys
import tempfile

from guilib import (OURS, Board, Failure, Trace, Xvfb, artifacts, board_rows, check, read_board,
                    run, square, start_biloba, stop)

SPEC = "biloba(classic)"


def record(turns):
    return '[Game "biloba"]\n[Options "classic"]\n' + " ".join(turns) + "\n"


def plateau(exe, what, turns):
    return subprocess.run([exe, what, SPEC, "--record", "-"], input=record(turns), text=True,
                          check=True, stdout=subprocess.PIPE).stdout


def main():
    biloba, plateau_exe, art = sys.argv[1], sys.argv[2], artifacts(sys.argv[3], "gui_play")
    xvfb = Xvfb(800, 600)
    layout = Board(800, 600)
    home = tempfile.mkdtemp(prefix="gui_play_")
    trace = Trace(os.path.join(art, "trace.txt"))
    # The CPU waits 1.5 s before its clicks: time for a screenshot of the person's turn.
    proc = start_biloba(biloba, xvfb, trace,
                        ["--start", "local:human,classic", "--seed", "7", "--cpu-delay", "1500"],
                        home, os.path.join(art, "biloba.out"))
    rng = random.Random(11)
    turns, shots = [], 0
    try:
        trace.wait(r"^game$")
        after = 0

        def sync_turns(upto):
            for line in trace.lines()[:upto + 1]:
                m = re.match(r"^turn (\d+) ([OB]) (\S+) ", line)
                if m and int(m.group(1)) > len(turns):
                    turns.append(m.group(2) + ":" + m.group(3))

        def completed_turns():
            return sum(1 for l in trace.lines() if l.startswith("turn "))

        def compare(label):
            """The screen shows the board after `turns`. The CPU waits 1.5 s before its
            clicks; should a loaded machine take the screenshot after the CPU's next turn, that
            screenshot cannot show this board and is not evidence: say so and skip."""
            nonlocal shots
            shots += 1
            expected = board_rows(plateau(plateau_exe, "board", turns))
            image = xvfb.screenshot(os.path.join(art, f"{shots:02d}-{label}.png"))
            seen = read_board(image, layout.centre, OURS)
            if seen != expected and completed_turns() > len(turns):
                print(f"skip - board after {len(turns)} turns: the next turn came first")
                return
            check(f"board after {len(turns)} turns ({label})", expected, seen)

        for _ in range(40):
            i, line = trace.wait(r"^(ready 0 \d+|over)", timeout=30, after=after)
            if line.startswith("over"):
                raise Failure("the game ended before a capture with a refill: " + line)
            after = i + 1
            sync_turns(i)
            check("turns played when asked", int(line.split()[2]), len(turns))
            compare("cpu" if turns else "start")
            moves = plateau(plateau_exe, "moves", turns).split()
            refills = [m for m in moves if "/" in m and not m.startswith("x")]
            token = refills[0] if refills else rng.choice(moves)
            for name in re.findall(r"[a-i][1-9]", token):
                xvfb.click(*layout.centre(square(name)))
            i, line = trace.wait(r"^turn \d+ O ", after=after)
            after = i + 1
            sync_turns(i)
            check("the turn the clicks made", "O:" + token, turns[-1])
            compare("human")
            if refills:
                before = board_rows(plateau(plateau_exe, "board", turns[:-1]))
                now = board_rows(plateau(plateau_exe, "board", turns))
                taken = sum(r.count("B") for r in before) - sum(r.count("B") for r in now)
                check("a capture happened", True, taken > 0)
                print(f"captured {taken} with the refill turn {token} after {len(turns)} turns")
                return
        raise Failure("no capture with a refill in 40 turns")
    finally:
        stop(proc)
        xvfb.close()


if __name__ == "__main__":
    run(main)
