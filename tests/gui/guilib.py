"""Helpers of the Xvfb tests of the graphical biloba (issue 18).

Each test starts its own Xvfb on a free display, runs `biloba` with the hidden test options
(--trace FILE: what the window showed, one line per event, gui_app.cpp; --geometry; --start),
clicks with xdotool, reads pixels of screenshots taken with ImageMagick's `import`, and saves
the screenshots in its artifact directory. The board geometry mirrors BoardLayout::for_window
(src/gui/gui_layout.cpp) and the colours those of src/gui/gui_screens.h.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77

# Our palette (gui_screens.h) and Debian's biloba 0.9.3 (measured on its screen).
OURS = {"O": (245, 130, 20), "B": (40, 90, 220), "R": (215, 35, 35), "G": (40, 165, 70),
        ".": (222, 196, 150), "*": (160, 110, 60)}
ORIGINAL = {"O": (248, 156, 32), "B": (56, 52, 136), ".": (232, 232, 232)}


def need_tools():
    missing = [t for t in ("Xvfb", "xdotool", "import", "convert") if shutil.which(t) is None]
    if missing:
        print("skipped: missing " + ", ".join(missing) + " (xvfb, xdotool, imagemagick)")
        sys.exit(SKIP)


class Failure(Exception):
    pass


def check(what, expected, actual):
    if expected != actual:
        raise Failure(f"{what}: expected {expected!r}, got {actual!r}")
    print(f"ok - {what}")


class Xvfb:
    """An Xvfb of its own: it picks a free display itself (-displayfd), so that tests run side
    by side never share one."""

    def __init__(self, width=800, height=600):
        self.width, self.height = width, height
        read_end, write_end = os.pipe()
        self.proc = subprocess.Popen(
            # -noreset: by default the server resets when its last client leaves, and a
            # window started at that moment waits (a quit window, then a new one).
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp", "-noreset"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_end,))
        os.close(write_end)
        number = b""
        with os.fdopen(read_end, "rb") as f:
            while not number.endswith(b"\n"):
                chunk = f.read(1)
                if not chunk:
                    raise Failure("Xvfb did not start")
                number += chunk
        self.display = ":" + number.decode().strip()
        self.env = dict(os.environ, DISPLAY=self.display, SDL_AUDIODRIVER="dummy")
        self.env.pop("WAYLAND_DISPLAY", None)
        # Ready once a client gets an answer.
        for _ in range(250):
            if subprocess.run(["xdotool", "getmouselocation"], env=self.env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
                break
            time.sleep(0.02)
        else:
            raise Failure("Xvfb did not answer")

    def click(self, x, y):
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=self.env,
                       check=True)
        time.sleep(0.05)

    def key(self, *keys):
        subprocess.run(["xdotool", "key"] + list(keys), env=self.env, check=True)

    def type(self, text):
        subprocess.run(["xdotool", "type", "--delay", "20", text], env=self.env, check=True)

    def screenshot(self, path):
        subprocess.run(["import", "-window", "root", path], env=self.env, check=True)
        return Image(path, self.width, self.height)

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


class Image:
    def __init__(self, path, width, height):
        self.path, self.width = path, width
        self.data = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], check=True,
                                   stdout=subprocess.PIPE).stdout
        if len(self.data) != width * height * 3:
            raise Failure(f"{path}: {len(self.data)} bytes of pixels")

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.data[i:i + 3])


def nearest(colour, palette, limit=60):
    """The palette letter nearest to `colour`, or '?' when none is within `limit`."""
    best, dist = "?", None
    for letter, c in palette.items():
        d = sum((a - b) ** 2 for a, b in zip(colour, c)) ** 0.5
        if dist is None or d < dist:
            best, dist = letter, d
    return best if dist <= limit else "?"


class Board:
    """BoardLayout::for_window (src/gui/gui_layout.cpp)."""

    def __init__(self, width, height):
        top, m = height // 12, max(2, height // 40)
        side = min(height - top - 2 * m, width * 2 // 3 - 2 * m)
        side = max(9, side - side % 9)
        self.cell = side // 9
        self.x, self.y = m, top + m
        px = self.x + side + 2 * m
        bh = max(14, height // 16)
        bw = max(20, (max(1, width - px - m) - m) // 2)
        self.menu_button = (px + bw // 2, self.y + side - bh + bh // 2)
        self.save_button = (px + bw + m + bw // 2, self.menu_button[1])
        icon = max(16, top * 7 // 10)
        gap = icon // 4
        self.help_icon = (width - gap - icon + icon // 2, (top - icon) // 2 + icon // 2)
        self.lang_icon = (self.help_icon[0] - gap - icon, self.help_icon[1])

    def centre(self, square):
        x, y = square
        return self.x + x * self.cell + self.cell // 2, self.y + y * self.cell + self.cell // 2


def original_centre(square):
    """Debian's biloba 0.9.3 draws 50-pixel cells with a9's centre at (175, 75)."""
    x, y = square
    return 175 + 50 * x, 75 + 50 * y


def square(name):
    """'e7' -> (4, 2): file a..i = x, rank 9 = the top row (y = 0)."""
    return ord(name[0]) - ord("a"), 9 - int(name[1])


def read_board(image, centre, palette):
    """The 9 rows of the board as letters, playable squares only ('#' elsewhere)."""
    rows = []
    for y in range(9):
        row = ""
        for x in range(9):
            if not playable(x, y):
                row += "#"
                continue
            px, py = centre((x, y))
            row += nearest(image.pixel(px, py), palette)
        rows.append(row)
    return rows


def playable(x, y):
    edge_x, edge_y = x in (0, 8), y in (0, 8)
    near_x, near_y = x <= 1 or x >= 7, y <= 1 or y >= 7
    return not ((edge_x and edge_y) or (edge_x and near_y) or (edge_y and near_x))


def board_rows(plateau_board_text, centre_letter="*"):
    """The 9 rows of `plateau board biloba` (its §8 print-out) as letters, '#' off the board;
    the centre e5 as `centre_letter` when empty."""
    rows = []
    for line in plateau_board_text.splitlines():
        m = re.match(r"^([1-9])  (.*)  \1$", line)
        if m:
            cells = m.group(2).split(" ")
            rows.append("".join("*" if c == "*" else c for c in cells))
    if len(rows) != 9:
        raise Failure("not a board:\n" + plateau_board_text)
    return [r.replace("*", centre_letter) for r in rows]


class Trace:
    def __init__(self, path):
        self.path = path
        open(path, "w").close()

    def lines(self):
        with open(self.path) as f:
            return [l.rstrip("\n") for l in f]

    def wait(self, pattern, timeout=20, after=0):
        """The first line matching `pattern` (a regex) at index >= after; returns (index, line)."""
        end = time.time() + timeout
        rx = re.compile(pattern)
        while time.time() < end:
            lines = self.lines()
            for i in range(after, len(lines)):
                if rx.search(lines[i]):
                    return i, lines[i]
            time.sleep(0.03)
        raise Failure(f"timed out waiting for {pattern!r}; trace:\n" + "\n".join(self.lines()))


def window_env(xvfb, home):
    """The window's environment. In the sanitizer pass of `make test` the leak checker is off
    for the window only: SDL, Xlib, fontconfig and the GL drivers keep allocations until exit
    that are not ours (the model's code is leak-checked by gui_model_test)."""
    env = dict(xvfb.env, HOME=home)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
    return env


def start_biloba(biloba, xvfb, trace, args, home, stdout_path):
    return subprocess.Popen(
        [biloba, "--trace", trace.path, "--geometry", f"{xvfb.width}x{xvfb.height}"] + args,
        env=window_env(xvfb, home), stdout=open(stdout_path, "w"), stderr=subprocess.STDOUT)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def artifacts(argv_dir, name):
    d = os.path.join(argv_dir, name)
    os.makedirs(d, exist_ok=True)
    return d


def run(main):
    """Runs main(); prints the failure and exits 1 on Failure."""
    need_tools()
    try:
        main()
    except Failure as e:
        print("FAIL - " + str(e))
        sys.exit(1)
    print("PASS")
