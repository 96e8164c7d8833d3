"""Startup time of the biloba window to its menu (issue 18: under a second on this machine).

Starts `biloba` N times under one Xvfb and measures, from the process start, the time until
its trace says the menu's first frame is on the screen (the `menu` line, written after
SDL_RenderPresent). Prints every run and the median; the result goes into docs/PERFORMANCE.md.

usage: measure_startup.py BILOBA [N]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from guilib import Xvfb, need_tools


def main():
    need_tools()
    biloba, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20
    xvfb = Xvfb(800, 600)
    home = tempfile.mkdtemp(prefix="measure_startup_")
    times, reported = [], []
    try:
        for i in range(n):
            trace = os.path.join(home, f"trace{i}")
            open(trace, "w").close()
            start = time.monotonic()
            proc = subprocess.Popen([biloba, "--trace", trace], env=dict(xvfb.env, HOME=home),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            line = ""
            while not line.startswith("menu "):
                with open(trace) as f:
                    line = f.readline()
                if time.monotonic() - start > 10:
                    raise SystemExit("no menu within 10 s")
                time.sleep(0.001)
            times.append((time.monotonic() - start) * 1000)
            reported.append(int(line.split()[1]))
            proc.terminate()
            proc.wait()
            print(f"run {i + 1}: {times[-1]:.0f} ms (the program's own count: {reported[-1]} ms)")
    finally:
        xvfb.close()
    print(f"median {statistics.median(times):.0f} ms, min {min(times):.0f}, max {max(times):.0f} "
          f"over {n} runs (own count median {statistics.median(reported):.0f} ms)")


if __name__ == "__main__":
    main()
