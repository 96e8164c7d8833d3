#!/usr/bin/env python3
"""The man pages in step with `plateau --help` (issue 19 item 5).

For every subcommand that `plateau --help` lists (and their own subcommands, `store copy`), runs
`plateau SUB --help`, takes the option names of its "Options:" and the names of its
"Positionals:", and checks the man pages document exactly those options, in the right page:

* docs/man/plateau-SUB.6 when that page exists (serve, mail-in, store), else plateau.6;
* in that page, an option is the tag of a `.TP` paragraph (the line after `.TP`, e.g.
  `.BI \\-\\-record " FILE"`) in the part of the subcommand: from a heading `.SS "plateau SUB"`
  (or, in plateau-SUB.6, from the start) to the next `.SS "plateau ..."` heading;
  a `.SH` goes back to the page's own command. The options of `plateau` itself are those of
  plateau.6's OPTIONS section;
* each positional (GAME, DEPTH, BOTS) is named, as a word, in its subcommand's part or the
  page's SYNOPSIS;
* the reverse: an option tag in a page that `--help` does not list for that subcommand fails;
* each range and default that `--help` shows (`INT:INT in 1 to 64=2`) is in the option's
  paragraph (`1 to 64`, `default 2`);
* every subcommand has a `.SS "plateau SUB"` part in plateau.6 (its summary), and every page is
  installed (packaging/install.cmake) and formats without a warning (`man --warnings -l`).

Usage: man_options_test.py PATH/TO/plateau SOURCE_DIR
Prints one line per check; exit status 1 on any failure, each naming the option and the page.
"""
import os
import re
import shutil
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def run_help(plateau, path):
    """The text of `plateau PATH... --help` (its exit status must be 0)."""
    out = subprocess.run([plateau, *path, "--help"], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise SystemExit(f"FAIL: plateau {' '.join(path)} --help exited {out.returncode}: "
                         f"{out.stderr.strip()}")
    return out.stdout


def help_sections(text):
    """{"Options": [lines], "Positionals": [...], "Subcommands": [...]} of a CLI11 help text."""
    sections, current = {}, None
    for line in text.splitlines():
        m = re.fullmatch(r"(Options|Positionals|Subcommands):", line)
        if m:
            current = sections.setdefault(m.group(1), [])
        elif not line.strip():
            current = None
        elif current is not None:
            current.append(line)
    return sections


HELP_TYPE = re.compile(r"(?:[A-Z]+(?::[A-Z]+)?)(?: in (?P<lo>\S+) to (?P<hi>[^=\s]+))?"
                       r"(?:=(?P<default>\S+))?")


def help_options(lines):
    """{option name: (range or None, default or None)} of the "Options:" lines:
    `  --games INT:INT in 1 to 1000000=100  Number of games` gives --games: ("1 to 1000000",
    "100"); `  -h,--help  ...` gives -h and --help."""
    names = {}
    for line in lines:
        if line.startswith("  ") and line[2:3] == "-":
            first = line.strip().split("  ")[0].split(" ", 1)
            m = HELP_TYPE.match(first[1]) if len(first) > 1 else None
            bounds = f"{m.group('lo')} to {m.group('hi')}" if m and m.group("lo") else None
            default = m.group("default") if m else None
            for name in OPTION.findall(first[0]):
                names[name] = (bounds, default)
    return names


def help_entries(lines):
    """First words of entry lines (positionals, subcommands): `  analyse, analyze  ...` ->
    analyse. Continuation lines (indented further) are skipped."""
    return [line.split()[0].rstrip(",") for line in lines
            if line.startswith("  ") and not line.startswith("   ")]


def collect_help(plateau):
    """{(): opts, ("moves",): opts, ("store", "copy"): opts, ...} and the positionals per path."""
    options, positionals = {}, {}
    todo = [()]
    while todo:
        path = todo.pop(0)
        sections = help_sections(run_help(plateau, list(path)))
        options[path] = help_options(sections.get("Options", []))
        positionals[path] = help_entries(sections.get("Positionals", []))
        todo.extend(path + (sub,) for sub in help_entries(sections.get("Subcommands", [])))
    return options, positionals


def unescape(troff):
    """A man source line as text: \\- is -, font escapes and quotes go."""
    text = troff.replace("\\-", "-").replace("\\e", "\\")
    text = re.sub(r"\\f[BIRP]|\\c|\\&", "", text)
    return text.replace('"', " ")


def parse_page(path, own):
    """{command path: ({option tag: its paragraph as text}, [lines of text])} of one man page;
    `own` is the
    command path the page starts with (() for plateau.6, ("serve",) for plateau-serve.6)."""
    parts = {}
    current = own
    in_synopsis = False
    lines = open(path, encoding="utf-8").read().splitlines()
    synopsis = []
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            current = own
            in_synopsis = line.split(None, 1)[1:] == ["SYNOPSIS"]
            continue
        if in_synopsis:
            synopsis.append(unescape(line))
        m = re.fullmatch(r'\.SS "?plateau ([^"]+)"?', line)
        if m:
            current = tuple(unescape(m.group(1)).split())
        tags, text = parts.setdefault(current, ({}, []))
        text.append(unescape(line))
        if line == ".TP" and i + 1 < len(lines):
            tag = lines[i + 1]
            if re.match(r"\.(B|BI|BR|I|IR|IB)\b", tag):
                paragraph = []
                for body in lines[i + 2:]:
                    if re.match(r"\.(TP|SS|SH|PP)\b", body):
                        break
                    paragraph.append(re.sub(r"^\.[A-Z]{1,2}\b", "", unescape(body)))
                text_of = " ".join(" ".join(paragraph).split())
                for name in OPTION.findall(unescape(tag.split(None, 1)[1] if " " in tag else "")):
                    tags[name] = text_of
    return parts, synopsis


def main():
    plateau, src = sys.argv[1], sys.argv[2]
    mandir = os.path.join(src, "docs", "man")
    failures = []

    def check(name, ok, message=""):
        print(("ok: " if ok else "FAIL: ") + name + ("" if ok else ": " + message))
        if not ok:
            failures.append(name)

    options, positionals = collect_help(plateau)
    pages = {(): "plateau.6"}
    for path in options:
        if len(path) == 1 and os.path.exists(os.path.join(mandir, f"plateau-{path[0]}.6")):
            pages[path] = f"plateau-{path[0]}.6"
    check("subcommands with a page of their own", True)
    print("   " + ", ".join(sorted(pages.values())))

    parsed = {page: parse_page(os.path.join(mandir, page), own)
              for own, page in pages.items()}

    def page_of(path):  # the page that documents this command's options
        return pages.get(path[:1], "plateau.6") if path else "plateau.6"

    # Options every subcommand inherits from `plateau` (CLI11's help flags): documented with
    # `plateau`'s own in plateau.6, and again in each page of its own (whose reader may not
    # have read plateau.6).
    inherited = set.intersection(*(set(opts) for path, opts in options.items() if path))
    check("inherited options", inherited == {"-h", "--help", "--help-all"},
          f"expected -h --help --help-all, --help lists {sorted(inherited)}")

    for path, opts in sorted(options.items()):
        name = " ".join(("plateau",) + path)
        page = page_of(path)
        tag_text, text = parsed[page][0].get(path, ({}, []))
        tags = set(tag_text)
        # plateau.6 documents the inherited options once, in its OPTIONS section.
        required = set(opts) - inherited if path and page == "plateau.6" else set(opts)
        where = f" under .SS \"{name}\"" if (path and page == "plateau.6") or len(path) > 1 else ""
        for option in sorted(required - tags):
            check(f"{name} {option} documented", False,
                  f"`{name} --help` lists {option}; {page} has no .TP tag for it{where}")
        for option in sorted(tags - set(opts)):
            check(f"{name} {option} exists", False,
                  f"{page} documents {option} for `{name}`, which its --help does not list")
        check(f"{name}: options documented in {page} exactly ({len(required)})",
              required <= tags <= set(opts), "see above")
        # Each range and default of --help is in the option's paragraph ("1 to 64", "default
        # 2"), but the default of --web-dir, which --help computes where it runs.
        for option in sorted(tags & set(opts)):
            bounds, default = opts[option]
            paragraph = tag_text[option]
            if bounds and bounds not in paragraph:
                check(f"{name} {option} range", False,
                      f"--help says {bounds}; {page} says: {paragraph}")
            if default and option != "--web-dir" and \
                    f"default {default}".lower() not in paragraph.lower():
                check(f"{name} {option} default", False,
                      f"--help says the default is {default}; {page} says: {paragraph}")
        synopsis = " ".join(parsed[page][1])
        for positional in positionals[path]:
            words = set(re.findall(r"[A-Z][A-Z0-9_]*", " ".join(text) + " " + synopsis))
            check(f"{name} {positional} named", positional in words,
                  f"positional {positional} of `{name} --help` is not named in {page}")
        # Every subcommand has its summary in plateau.6, and no option is documented in a page
        # other than its own.
        if path:
            check(f"{name}: summary in plateau.6", path[:1] in parsed["plateau.6"][0],
                  f"plateau.6 has no .SS \"plateau {path[0]}\"")
        for other, (other_parts, _) in parsed.items():
            if other != page and other_parts.get(path, (set(),))[0]:
                check(f"{name}: options only in {page}", False,
                      f"{other} documents {sorted(other_parts[path][0])} for `{name}`; they "
                      f"belong in {page}")
    for page, (parts, _) in parsed.items():
        for path in parts:
            if path not in options:
                check(f"{page}: .SS \"plateau {' '.join(path)}\" is a subcommand", False,
                      f"`plateau {' '.join(path)}` is not a subcommand of plateau --help")

    # Installed like the others, and no formatting warning.
    install_rules = open(os.path.join(src, "packaging", "install.cmake"), encoding="utf-8").read()
    for page in sorted(parsed):
        stem = page[:-2]
        check(f"{page} installed", re.search(rf"foreach\(page [^)]*\b{re.escape(stem)}\b",
                                              install_rules) is not None,
              f"packaging/install.cmake's man page list does not name {stem}")
        if shutil.which("man"):
            out = subprocess.run(["man", "--warnings", "-l", os.path.join(mandir, page)],
                                 capture_output=True, text=True, timeout=60,
                                 env={**os.environ, "MANWIDTH": "80", "MANPAGER": "cat",
                                      "PAGER": "cat"})
            check(f"man --warnings -l {page}: no warning", out.stderr == "" and out.returncode == 0,
                  out.stderr.strip())
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
