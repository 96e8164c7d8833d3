#!/usr/bin/env python3
"""README.md's examples, run as written by a new user (issue 19 item 4).

Every code block of README.md is one of:

* commands: a ```sh block, or any block whose lines start with `$ `. Without `$`, each line is a
  command; with `$`, the lines after `$ ` are commands (a trailing `\\` continues one) and the
  lines after a command, up to the next, are its output as README shows it (a `...` line stands
  for any lines). Each command runs through bash, in one temporary directory (in README order:
  `plateau board --record mygame.record` reads what `plateau play --save mygame.record` wrote),
  with the built `plateau` first on PATH, HOME a temporary directory and standard input empty
  (a `plateau play` then stops at once and saves its record). It must exit 0 and print README's
  output (or, where README shows none, the first line FIRST_LINE gives here);
* a text-port session (`$ nc localhost 8023`): needs a server; `>` lines are typed, the other
  lines are the first lines of the answers. Run on a real `plateau serve` (free ports, temporary
  data directory) through a socket, then once more on a second connection the way README tells
  a user who is not the server's first guest to: the name and board number the server gave;
* an HTTP command (`localhost:8080`): needs the server; run against its port;
* a game record (a block that starts with `[Game`): `plateau board GAME --record -` reads it;
* anything else (the layout) is not an example.

A command README shows that is not `plateau ...` must be in NOT_RUN with the reason, so a new
example is either run or consciously left to another test.
Usage: readme_examples_test.py PATH/TO/plateau SOURCE_DIR
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from plateau_harness import free_port  # noqa: E402

# Commands this test does not run, and why (the key is the command without its comment).
NOT_RUN = {
    "make run": "builds, then serves until stopped (README's text-port session and health "
                "check run here on a `plateau serve` of their own)",
    "make test": "the whole suite, of which this test is one",
    "make deb": "install_deb_test builds the same package (cpack -G DEB) and checks it",
    "sudo apt install ./build/release/plateau_0.1.0_amd64.deb":
        "needs root; install_test installs the same tree into a DESTDIR and runs it",
    "ctest --preset release -L browser --output-on-failure": "the web_browser test itself",
    "node web/tests/e2e/run.mjs --plateau build/release/plateau [--only phutball-vs-cpu,rules]":
        "the web_browser test itself ([--only ...] is optional)",
}

# The first line of the commands README shows without output.
FIRST_LINE = {
    "plateau play bohnduell --seats human,random --save mygame.record":
        "bohnduell: 2 seats (human,random). Type 'help' for help.",
    "plateau board bohnduell --record mygame.record": "       B1  B2  B3  B4",
    "plateau play phutball --seats human,5 --save game.record":
        "phutball: 2 seats (human,5). Type 'help' for help.",
    "plateau analyse phutball --record game.record --bot 5": "Position after 0 moves, O to move.",
    "plateau match biloba 5 classic --games 200 --threads 2 --seed 1":
        "Match biloba: 5 vs classic, 200 games, seats rotated, seed 1",
    "plateau solve bohnduell --supply 12":
        "Solving bohnduell(supply=12): 6188 side tuples, table 38291344 bytes; memory bound "
        "39.8 MB (table 38.3 MB + index 1.5 MB)",
    "printf '[Game \"phutball\"]\\n1. H11 2. J12 3. H12 4. K11 5. H14 6. H10-H13-L10\\n' "
    "| plateau board phutball --record -": "    A B C D E F G H J K L M N O P",
}
# Further lines a command must print (what README says in its comment).
ALSO_PRINTS = {
    "plateau solve bohnduell --supply 12": [
        "Start value (first player's final margin): -1",
        "Move values: S1 -7, S2 -4, S3 -3, S4 -1",
    ],
}
# Commands that run for minutes as written: their first line is checked, then they are stopped.
STOP_AFTER_FIRST_LINE = {
    "plateau match biloba 5 classic --games 200 --threads 2 --seed 1":
        "200 games of level 5 take minutes",
}
SESSION = re.compile(r"^(nc|telnet) localhost 8023$")
HTTP = "localhost:8080"

failures = []


def report(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        print(detail.rstrip())
        failures.append(name)


def key(command):
    """The command without its comment, its spaces collapsed (for the tables above)."""
    command = command.replace("\\\n", " ")
    command = re.sub(r"\s+#[^'\"]*$", "", command)
    return " ".join(command.split())


def matches(expected, actual):
    """README's output against the real one: exact, or with `...` lines standing for any lines."""
    if not any(line.strip() == "..." for line in expected):
        return expected == actual
    segments, current = [], []
    for line in expected:
        if line.strip() == "...":
            segments.append(current)
            current = []
        else:
            current.append(line)
    segments.append(current)
    first, last = segments[0], segments[-1]
    if actual[:len(first)] != first or (last and actual[-len(last):] != last):
        return False
    at = len(first)
    end = len(actual) - len(last)
    for segment in segments[1:-1]:
        while at + len(segment) <= end and actual[at:at + len(segment)] != segment:
            at += 1
        if at + len(segment) > end:
            return False
        at += len(segment)
    return at <= end


def code_blocks(readme):
    """(line number, info string, [lines]) of each fenced block."""
    blocks, lines = [], readme.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if m:
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            blocks.append((start + 1, m.group(1), body))
        i += 1
    return blocks


def commands_of(line_no, info, body):
    """[(line number, command, expected output lines)] of a command block."""
    out = []
    dollar = any(line.startswith("$ ") for line in body)
    i = 0
    while i < len(body):
        line = body[i]
        if dollar and not line.startswith("$ "):
            i += 1
            continue
        start = i
        command = line[2:] if dollar else line
        while command.endswith("\\") and i + 1 < len(body):
            i += 1
            command += "\n" + body[i]
        i += 1
        expected = []
        while dollar and i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        if command.strip():
            out.append((line_no + start, command, expected))
    return out


class Server:
    """A real `plateau serve` on free ports with a temporary data directory."""

    def __init__(self, plateau, workdir):
        self.ports = [free_port(), free_port()]
        self.log = open(os.path.join(workdir, "serve.log"), "w")
        self.proc = subprocess.Popen(
            [plateau, "serve", "--config", os.devnull, "--data-dir",
             os.path.join(workdir, "serve-data"), "--bind", "127.0.0.1",
             "--http-port", str(self.ports[0]), "--text-port", str(self.ports[1]),
             "--biloba-port", "0"],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=workdir)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.http}/healthz", timeout=1) as r:
                    if r.read() == b"ok\n":
                        return
            except OSError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise SystemExit("FAIL: plateau serve did not come up; its log: "
                         + open(os.path.join(workdir, "serve.log")).read())

    http = property(lambda self: self.ports[0])
    text = property(lambda self: self.ports[1])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def read_quiet(sock, quiet=0.3, limit=10.0):
    """Everything the server sends until it has been quiet for `quiet` seconds."""
    data = b""
    deadline = time.monotonic() + limit
    sock.settimeout(quiet)
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            if data:
                break
            continue
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace").splitlines()


def read_answer(sock):
    """The answer to a command: until the server is quiet and, after a move against the
    computer, until its reply has come (the last "It is ...'s turn." is not a cpu's), so that
    the reply is not taken for the answer to the next command."""
    lines = read_quiet(sock)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        turns = [line for line in lines if re.fullmatch(r"It is \S+'s turn\.", line)]
        if not turns or not turns[-1].startswith("It is cpu:"):
            break
        lines += read_quiet(sock)
    return lines


def run_session(server, line_no, body, rename):
    """The typed lines of a session block against the text port; `rename` applies README's
    advice (the name and board number the server gave) instead of the literal text."""
    script, greeting = [], []
    for line in body[1:]:
        if line.startswith("> "):
            script.append((line[2:], []))
        elif script:
            script[-1][1].append(line)
        else:
            greeting.append(line)
    label = "needs the server; " + ("second connection, with the name and board the server gave"
                                    if rename else "as written")
    with socket.create_connection(("127.0.0.1", server.text), timeout=10) as sock:
        got = read_quiet(sock)
        report(f"README:{line_no} text port greeting ({label})", got[:len(greeting)] == greeting,
               f"--- expected\n{chr(10).join(greeting)}\n--- actual\n{chr(10).join(got[:5])}")
        names = {}
        for typed, expected in script:
            for old, new in names.items():
                typed = typed.replace(old, new)
            sock.sendall((typed + "\n").encode())
            got = read_answer(sock)
            if rename and got:  # what the server gave, as a user reads it in the answer
                m = re.match(r"Hello, (\S+) ", got[0])
                if m:
                    names["guest1"] = m.group(1)
                m = re.match(r"New \w+ Board (\d+)$", got[0])
                if m:
                    names["101"] = m.group(1)
            for old, new in names.items():
                expected = [line.replace(old, new) for line in expected]
            report(f"README:{line_no} text port `{typed}` ({label})",
                   got[:len(expected)] == expected,
                   f"--- expected\n{chr(10).join(expected)}\n--- actual\n{chr(10).join(got[:5])}")
        if rename:
            report(f"README:{line_no} second connection is another guest and board",
                   names.get("guest1", "guest1") != "guest1" and names.get("101", "101") != "101",
                   f"the server gave {names}")


def run_command(workdir, env, line_no, command, expected, server):
    k = key(command)
    name = f"README:{line_no} `{k}`"
    if HTTP in command:
        command = command.replace(HTTP, f"127.0.0.1:{server.http}")
        name += " (needs the server: on its HTTP port)"
    if k in STOP_AFTER_FIRST_LINE:
        proc = subprocess.Popen(["bash", "-c", command], cwd=workdir, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        first = proc.stdout.readline().rstrip("\n")
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        report(f"{name} (first line, then stopped: {STOP_AFTER_FIRST_LINE[k]})",
               first == FIRST_LINE[k], f"--- expected\n{FIRST_LINE[k]}\n--- actual\n{first}")
        return
    r = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=120)
    actual = r.stdout.splitlines()
    if r.returncode != 0:
        report(name, False, f"exit status {r.returncode}\n{r.stderr}")
        return
    if expected:
        report(name, matches(expected, actual),
               "--- expected\n" + "\n".join(expected) + "\n--- actual\n" + r.stdout)
    elif k in FIRST_LINE:
        report(f"{name} (first line)", actual[:1] == [FIRST_LINE[k]],
               f"--- expected\n{FIRST_LINE[k]}\n--- actual\n{r.stdout[:400]}")
    else:
        report(name, False, "README shows no output and FIRST_LINE has none for it")
    for line in ALSO_PRINTS.get(k, []):
        report(f"{name} prints {line!r}", line in actual, r.stdout)


def main():
    plateau, src = os.path.abspath(sys.argv[1]), sys.argv[2]
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    workdir = tempfile.mkdtemp(prefix="readme-examples-")
    bindir = os.path.join(workdir, "bin")
    os.mkdir(bindir)
    os.symlink(plateau, os.path.join(bindir, "plateau"))
    home = os.path.join(workdir, "home")
    os.mkdir(home)
    run_dir = os.path.join(workdir, "run")
    os.mkdir(run_dir)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLATEAU_")}
    env.update(PATH=bindir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"), HOME=home)
    server = None
    seen = set()
    try:
        for line_no, info, body in code_blocks(readme):
            if body and body[0].startswith("[Game "):
                game = re.match(r'\[Game "([^"]+)"\]', body[0]).group(1)
                r = subprocess.run([plateau, "board", game, "--record", "-"],
                                   input="\n".join(body) + "\n", capture_output=True, text=True)
                report(f"README:{line_no} record of {game} loads", r.returncode == 0, r.stderr)
                continue
            if info != "sh" and not any(line.startswith("$ ") for line in body):
                print(f"not an example: README:{line_no} ({body[0][:40] if body else ''}...)")
                continue
            for cmd_line, command, expected in commands_of(line_no, info, body):
                k = key(command)
                seen.add(k)
                if k in NOT_RUN:
                    print(f"not run: README:{cmd_line} `{k}`: {NOT_RUN[k]}")
                    continue
                needs_server = SESSION.match(k) or HTTP in k
                if needs_server and server is None:
                    server = Server(plateau, workdir)
                if SESSION.match(k):
                    run_session(server, cmd_line, [command] + expected, rename=False)
                    run_session(server, cmd_line, [command] + expected, rename=True)
                elif k.split()[0] in ("plateau", "printf", "curl"):
                    run_command(run_dir, env, cmd_line, command, expected, server)
                else:
                    report(f"README:{cmd_line} `{k}`", False,
                           "neither run here nor listed in NOT_RUN with a reason")
        for k in list(NOT_RUN) + list(FIRST_LINE):
            report(f"`{k}` is still in README", k in seen,
                   "the tables of this test name an example README no longer has")
    finally:
        if server:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
