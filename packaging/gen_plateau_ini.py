#!/usr/bin/env python3
"""Writes the example /etc/plateau/plateau.ini (packaging/plateau.ini) from `plateau serve --help`:
every option shown there, commented out, with its help, range and default (or an example value).
Usage: packaging/gen_plateau_ini.py build/release/plateau > packaging/plateau.ini
(tests/install/config_test.sh checks that the committed file is this script's output.)"""
import re
import subprocess
import sys

HEADER = """\
# /etc/plateau/plateau.ini: the settings of `plateau serve` (the plateau service).
#
# Every option of `plateau serve --help` can be set here by its long name without "--", one
# "name = value" a line; a list is "name = [a, b]". Each line below is commented out and shows the
# default (or an example where there is none); uncomment and edit, then
# `systemctl restart plateau`. An unknown name is an error that names it; an option given on the
# command line (or in the service's ExecStart) wins over this file. See README "Installing".
"""
# Defaults as installed, and examples for the options without a default.
VALUES = {
    "data-dir": "/var/lib/plateau",
    "store": "sqlite:/var/lib/plateau/plateau.db",
    "web-dir": "/usr/share/plateau/web",
    "biloba-log": "/var/log/plateau/biloba.log",
    "tls-cert": "/etc/plateau/fullchain.pem",
    "tls-key": "/etc/plateau/privkey.pem",
    "allow-origin": "[https://games.example.org]",
    "smtp": "smtp://localhost:25",
    "mail-from": "plateau@games.example.org",
    "node-id": "a",
    "node-address": "games-a.example.org:8023",
    "node-port": "8090",
    "cluster-secret-file": "/etc/plateau/cluster-secret",
    "place-tables": "least-loaded",
}
NOTES = {
    "data-dir": "(the service passes --data-dir /var/lib/plateau, which wins: "
                "systemctl edit plateau to change it)",
    "allow-origin": "(a list: [https://a.example, https://b.example])",
}
SKIP = {"help", "help-all", "config"}


def options(help_text):
    """(name, signature, description) of each option of the help text, in its order."""
    found = []
    for line in help_text.split("\n"):
        m = re.match(r"^  (?:-\w,)?--([a-z0-9-]+)(.*)$", line)
        if m:
            parts = re.split(r"\s{2,}", m.group(2).strip(), maxsplit=1)
            found.append([m.group(1), parts[0], parts[1] if len(parts) > 1 else ""])
        elif found and line.startswith(" " * 30):
            found[-1][2] = (found[-1][2] + " " + line.strip()).strip()
    return found


def main():
    help_text = subprocess.run([sys.argv[1], "serve", "--help"], check=True,
                               capture_output=True, text=True).stdout
    out = [HEADER]
    for name, signature, description in options(help_text):
        if name in SKIP:
            continue
        default = re.search(r"=(\S+)$", signature)
        value = VALUES.get(name, default.group(1) if default else "")
        bounds = re.search(r"in \[([^\]]+)\]", signature)
        if bounds:
            description += " (" + bounds.group(1).replace(" - ", "..") + ")"
        out.append("# " + description)
        if name in NOTES:
            out.append("# " + NOTES[name])
        out.append(("# " + name + " = " + value).rstrip())
        out.append("")
    sys.stdout.write("\n".join(out[:-1]) + "\n")


main()
