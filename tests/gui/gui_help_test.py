"""The help behind the "?" icon (issue 18): a click on the icon opens page 1, a click anywhere
turns the page through the six pages, and the click after the last one goes back to the menu,
drawn exactly as before; the French pages differ from the English ones. Ctrl-Q quits (status 0)
from the menu, from a help page and while two bots play.

usage: gui_help_test.py BILOBA ARTIFACT_DIR
"""
import hashlib
import os
import sys
import tempfile

from guilib import Board, Trace, Xvfb, artifacts, check, run, start_biloba, stop


def main():
    biloba, art = sys.argv[1], artifacts(sys.argv[2], "gui_help")
    xvfb = Xvfb(800, 600)
    icons = Board(800, 600)
    home = tempfile.mkdtemp(prefix="gui_help_")
    procs = []
    try:
        trace = Trace(os.path.join(art, "trace.txt"))
        procs.append(start_biloba(biloba, xvfb, trace, ["--lang", "en"], home,
                                  os.path.join(art, "biloba.out")))
        trace.wait(r"^menu ")
        menu = xvfb.screenshot(os.path.join(art, "00-menu.png"))
        xvfb.click(*icons.help_icon)
        after = 0
        digests = []
        for page in range(1, 7):
            i, _ = trace.wait(rf"^help {page}$", after=after)
            after = i + 1
            image = xvfb.screenshot(os.path.join(art, f"{page:02d}-help.png"))
            digests.append(hashlib.sha256(image.data).hexdigest())
            xvfb.click(400, 300)  # anywhere
        check("six different help pages", 6, len(set(digests)))
        check("none of them is the menu", False, hashlib.sha256(menu.data).hexdigest() in digests)
        back = xvfb.screenshot(os.path.join(art, "07-back.png"))
        check("after page 6 the menu is back, pixel for pixel", True, back.data == menu.data)
        check("no page 7", [], [l for l in trace.lines() if l == "help 7"])
        xvfb.key("ctrl+q")
        check("Ctrl-Q quits with status 0", 0, procs[0].wait(timeout=10))

        trace_fr = Trace(os.path.join(art, "trace-fr.txt"))
        procs.append(start_biloba(biloba, xvfb, trace_fr, ["--lang", "fr", "--start", "help"], home,
                                  os.path.join(art, "biloba-fr.out")))
        trace_fr.wait(r"^help 1$")
        trace_fr.wait(r"^menu ")
        fr = xvfb.screenshot(os.path.join(art, "08-help-fr.png"))
        check("the French page 1 is not the English one", True,
              hashlib.sha256(fr.data).hexdigest() != digests[0])
        xvfb.key("ctrl+q")
        check("Ctrl-Q quits from a help page", 0, procs[1].wait(timeout=10))

        # Ctrl-Q while two bots play on the game's thread: a clean exit all the same.
        trace_bots = Trace(os.path.join(art, "trace-bots.txt"))
        procs.append(start_biloba(biloba, xvfb, trace_bots,
                                  ["--start", "local:random,random", "--cpu-delay", "0"], home,
                                  os.path.join(art, "biloba-bots.out")))
        trace_bots.wait(r"^turn 5 ")
        xvfb.key("ctrl+q")
        check("Ctrl-Q quits while bots play", 0, procs[2].wait(timeout=10))
    finally:
        for p in procs:
            stop(p)
        xvfb.close()


if __name__ == "__main__":
    run(main)
