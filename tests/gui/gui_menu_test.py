"""The menu of the window (issue 18): a pawn per seat in the colours of the seats, the number of
players cycled 2 -> 3 -> 4 -> 2 by clicks, PLAY ! starts the game with the start position on
the board, Esc goes back to the menu, a seat's name is typed, the window scales with its size (two window sizes, and a
live resize).

usage: gui_menu_test.py BILOBA PLATEAU ARTIFACT_DIR
"""
import os
import subprocess
import sys
import tempfile
import time

from guilib import (OURS, Board, Trace, Xvfb, artifacts, board_rows, check, nearest, read_board,
                    run, start_biloba, stop)

BACKGROUND = {"-": (18, 22, 30)}


def seat_pawns(image, width, height):
    """The colour at each seat row's pawn (MenuLayout::for_window, src/gui/gui_layout.cpp)."""
    top, m, row = height // 12, max(2, height // 40), max(16, height // 15)
    y = top + m + row * 5 // 4 + m
    out = ""
    for s in range(4):
        out += nearest(image.pixel(m + row - row // 2, y + s * row + row // 2), {**OURS, **BACKGROUND})
    return out


def main():
    biloba, plateau, art = sys.argv[1], sys.argv[2], artifacts(sys.argv[3], "gui_menu")
    home = tempfile.mkdtemp(prefix="gui_menu_")
    start = board_rows(subprocess.run([plateau, "board", "biloba"], check=True, text=True,
                                      stdout=subprocess.PIPE).stdout)
    for width, height in ((800, 600), (1024, 768)):
        xvfb = Xvfb(width, height)
        trace = Trace(os.path.join(art, f"trace-{width}.txt"))
        proc = start_biloba(biloba, xvfb, trace, [], home, os.path.join(art, f"biloba-{width}.out"))
        try:
            trace.wait(r"^menu \d+$")
            shot = lambda name: xvfb.screenshot(os.path.join(art, f"{width}-{name}.png"))
            check(f"{width}x{height}: two seats, orange and blue", "OB--",
                  seat_pawns(shot("menu-2"), width, height))
            top, m, row = height // 12, max(2, height // 40), max(16, height // 15)
            players = (m + width // 4, top + m + row * 5 // 8)
            for n, expected in ((3, "OBR-"), (4, "OBRG"), (2, "OB--")):
                xvfb.click(*players)
                check(f"{width}x{height}: {n} players", expected,
                      seat_pawns(shot(f"menu-{n}"), width, height))
            # The first seat's name, typed (at most 31 bytes: the original's limit).
            seat_y = top + m + row * 5 // 4 + m + row // 2
            xvfb.click(m + row + width * 3 // 20, seat_y)
            xvfb.key("BackSpace")
            xvfb.type(" Zoe and a name much too long to keep")
            xvfb.key("Return")
            bh, bw = max(16, height // 12), (width - 4 * m) // 3
            xvfb.click(3 * m + 2 * bw + bw // 2, height - m - bh // 2)  # PLAY !
            _, seats = trace.wait(r"^seats ")
            check(f"{width}x{height}: the name typed, cut at 31 bytes",
                  "seats Player  Zoe and a name much too|Player 2", seats)
            trace.wait(r"^ready 0 0$")
            layout = Board(width, height)
            check(f"{width}x{height}: the start position", start,
                  read_board(shot("board"), layout.centre, OURS))
            if width == 800:  # a live resize: the board follows the window's new size
                subprocess.run(["xdotool", "search", "--name", "^Biloba$", "windowsize", "640",
                                "480"], env=xvfb.env, check=True)
                time.sleep(0.5)
                check("resized to 640x480: the start position", start,
                      read_board(shot("board-640x480"), Board(640, 480).centre, OURS))
                subprocess.run(["xdotool", "search", "--name", "^Biloba$", "windowsize", "800",
                                "600"], env=xvfb.env, check=True)
                time.sleep(0.5)
            xvfb.key("Escape")
            time.sleep(0.3)
            check(f"{width}x{height}: Esc is back to the menu", "OB--",
                  seat_pawns(shot("menu-again"), width, height))
            xvfb.key("ctrl+q")
            check(f"{width}x{height}: Ctrl-Q quits with status 0", 0, proc.wait(timeout=10))
        finally:
            stop(proc)
            xvfb.close()


if __name__ == "__main__":
    run(main)
