"""SAVE LAST GAME from the window (issue 18): two people play two turns by clicks, "Save game"
writes $HOME/Biloba-DATE.blb, byte for byte the original's format (specs/biloba.md §13), and
so does the menu's SAVE LAST GAME once the game is left;
`biloba FILE.blb` replays its turns, in the terminal and in a window.

usage: gui_save_test.py BILOBA ARTIFACT_DIR
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

from guilib import (OURS, Board, Trace, Xvfb, artifacts, check, read_board, run, square,
                    start_biloba, stop)

CLICKS = [(0, "b6"), (0, "b5"), (1, "c3"), (1, "c2")]


def main():
    biloba, art = sys.argv[1], artifacts(sys.argv[2], "gui_save")
    xvfb = Xvfb(800, 600)
    layout = Board(800, 600)
    home = tempfile.mkdtemp(prefix="gui_save_")
    trace = Trace(os.path.join(art, "trace.txt"))
    proc = start_biloba(biloba, xvfb, trace, ["--start", "local:human,human"], home,
                        os.path.join(art, "biloba.out"))
    try:
        trace.wait(r"^ready 0 0$")
        xvfb.click(*layout.save_button)  # nothing to save yet: no file
        for _, name in CLICKS:
            xvfb.click(*layout.centre(square(name)))
        _, last = trace.wait(r"^turn 2 B ")
        check("the turns clicked", ["turn 1 O b6-b5", "turn 2 B c3-c2"],
              [" ".join(l.split()[:4]) for l in trace.lines() if l.startswith("turn")])
        xvfb.click(*layout.save_button)
        _, saved = trace.wait(r"^saved ")
        xvfb.screenshot(os.path.join(art, "saved.png"))
        path = saved.split(" ", 1)[1]
        check("saved in $HOME (no Desktop there)", home, os.path.dirname(path))
        check("named Biloba-DATE.blb", True,
              re.fullmatch(r"Biloba-\d{4}-\d\d-\d\d-\d{4}\.\d\d\.blb", os.path.basename(path)) is not None)
        expected = b"Biloba-game-dump" + struct.pack("<ii", 1, 2)
        for name in ("Player 1", "Player 2"):
            expected += struct.pack("<i", len(name)) + name.encode()
        for seat, name in CLICKS:
            expected += struct.pack("<iii", seat, *square(name))
        with open(path, "rb") as f:
            check("the .blb bytes", expected.hex(), f.read().hex())
        check("one save only (the first click had nothing to save)", 1,
              sum(1 for l in trace.lines() if l.startswith("saved")))
        # Back in the menu, SAVE LAST GAME writes the game just left: the same bytes.
        time.sleep(1.1)  # the file name has the second: a new one
        xvfb.key("Escape")
        xvfb.click(660, 495)  # SAVE LAST GAME (MenuLayout::for_window(800, 600).save_last)
        _, saved_again = trace.wait(r"^saved ", after=[i for i, l in enumerate(trace.lines())
                                                        if l.startswith("saved")][0] + 1)
        path_again = saved_again.split(" ", 1)[1]
        check("SAVE LAST GAME: another file", True, path_again != path)
        with open(path_again, "rb") as f:
            check("SAVE LAST GAME: the same bytes", expected.hex(), f.read().hex())
        replay = subprocess.run([biloba, "--text", path, "--replay-delay", "0", "-q"],
                                env=dict(os.environ, HOME=home), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
        # The file ends mid-game: the replay plays both turns, then the original's "leaves".
        check("the replay plays the window's turns", ["O: b6-b5", "B: c3-c2", "Player 1 leaves"],
              replay.stdout.strip().splitlines()[1:4])
        # The same file in a window: the same turns, then the original's "leaves".
        stop(proc)
        trace2 = Trace(os.path.join(art, "trace-replay.txt"))
        proc = start_biloba(biloba, xvfb, trace2, [path, "--replay-delay", "50"], home,
                            os.path.join(art, "biloba-replay.out"))
        trace2.wait(r"^over ")
        image = xvfb.screenshot(os.path.join(art, "replay.png"))
        empty = ["##.....##", "#.......#", ".........", ".........", "....*....", ".........",
                 ".........", "#.......#", "##.....##"]
        check("a player left: every pawn removed, as the original does", empty,
              read_board(image, layout.centre, OURS))
        check("the window's replay", ["turn 1 O b6-b5", "turn 2 B c3-c2", "over Player 1 leaves"],
              [" ".join(l.split()[:4]) for l in trace2.lines() if l.startswith(("turn", "over"))])
    finally:
        stop(proc)
        xvfb.close()


if __name__ == "__main__":
    run(main)
