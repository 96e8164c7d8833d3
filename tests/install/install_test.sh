#!/usr/bin/env bash
# The install rules (issue 19 item 1), as a packager uses them: `cmake --install BUILD --prefix
# /usr` into a temporary DESTDIR, the exact file list, then the installed programs run: `plateau
# --version`, `plateau games`, `biloba --help`, `man --warnings -l` on each page, `systemd-analyze verify` on
# the unit, and `plateau serve` answering GET / from the installed browser client (run outside the
# source tree, so from share/plateau/web).
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
tmp=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap 'stop_serve; rm -rf "$tmp"' EXIT

root=$tmp/root
if ! DESTDIR=$root cmake --install "$build" --prefix /usr >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1
fi

expected='etc/plateau/plateau.ini
usr/bin/plateau
usr/games/biloba
usr/games/biloba-server
usr/lib/systemd/system/plateau.service
usr/share/applications/biloba.desktop
usr/share/doc/plateau/changelog.gz
usr/share/doc/plateau/copyright
usr/share/icons/hicolor/scalable/apps/biloba.svg
usr/share/man/man6/biloba-server.6.gz
usr/share/man/man6/biloba.6.gz
usr/share/man/man6/plateau-mail-in.6.gz
usr/share/man/man6/plateau-serve.6.gz
usr/share/man/man6/plateau-store.6.gz
usr/share/man/man6/plateau.6.gz'
check "installed files" "$expected" \
  "$(cd "$root" && find . ! -type d | sed 's|^\./||' | grep -v '^usr/share/plateau/web/' | LC_ALL=C sort)"
# The browser client: exactly the built web/dist (make web), when there is one.
if [ -f "$src/web/dist/index.html" ]; then
  check "installed web client (no source maps)" \
    "$(cd "$src/web/dist" && find . ! -type d ! -name "*.map" | LC_ALL=C sort)" \
    "$(cd "$root/usr/share/plateau/web" && find . ! -type d | LC_ALL=C sort)"
else
  echo "FAIL: no web/dist/index.html (the web_build test builds it)"; failures=$((failures + 1))
fi
check "man pages gzipped" "$(printf 'gzip\n%.0s' 1 2 3 4 5 6)" \
  "$(for f in "$root"/usr/share/man/man6/*.gz; do file -b --mime-type "$f" | sed 's|application/||'; done)"

cd "$tmp"  # no web/dist here: the installed plateau finds its own web client
bin=$root/usr/bin/plateau
check "plateau --version" "plateau $(sed -nE 's/^project\(plateau VERSION ([0-9.]+).*/\1/p' "$src/CMakeLists.txt")" \
  "$("$bin" --version)"
check "plateau games" "$("$build/plateau" games)" "$("$bin" games)"
check "biloba --help" "0" "$("$root/usr/games/biloba" --help >/dev/null 2>&1; echo $?)"
check "biloba-server --help" "0" "$("$root/usr/games/biloba-server" --help >/dev/null 2>&1; echo $?)"
check "serve --help web dir" "1" \
  "$("$bin" serve --help | grep -cE -- "--web-dir TEXT=$root/usr/share/plateau/web( |$)")"

# Each man page formats without a warning (man-db's man --warnings -l; groff -ww directly if
# there is no man).
for page in plateau plateau-serve plateau-mail-in plateau-store biloba biloba-server; do
  gz=$root/usr/share/man/man6/$page.6.gz
  if man --version >/dev/null 2>&1; then
    out=$(MANWIDTH=80 MAN_KEEP_FORMATTING=0 man --warnings -l -Tutf8 "$gz" 2>"$tmp/man.err" | col -b)
  else
    out=$(zcat "$gz" | groff -man -Tutf8 -ww 2>"$tmp/man.err" | col -b)
  fi
  check "man -l $page.6: no warning" "" "$(cat "$tmp/man.err")"
  check "man -l $page.6: NAME" "1" "$(printf '%s\n' "$out" | grep -c '^NAME$')"
done

# systemd accepts the unit (skipped without systemd-analyze); verify wants ExecStart's program,
# so the unit is checked with the installed plateau in place of /usr/bin/plateau (--man=no: the
# page is not in the system's man path before the package is installed).
if command -v systemd-analyze >/dev/null 2>&1; then
  sed "s|/usr/bin/plateau|$bin|" "$root/usr/lib/systemd/system/plateau.service" > "$tmp/plateau.service"
  check "systemd-analyze verify" "" "$(systemd-analyze verify --man=no "$tmp/plateau.service" 2>&1)"
else
  echo "skipped: systemd-analyze verify (no systemd-analyze)"
fi

# The installed server answers GET / with the installed index.html.
http=$(free_port)
start_serve "$tmp/serve.log" "$bin" serve --data-dir "$tmp/data" --bind 127.0.0.1 \
  --http-port "$http" --text-port "$(free_port)" --biloba-port 0
if wait_http "$http"; then
  check "GET / is the installed index.html" "$(cat "$root/usr/share/plateau/web/index.html")" \
    "$(curl -s "http://127.0.0.1:$http/")"
else
  echo "FAIL: plateau serve did not answer"; cat "$tmp/serve.log"; failures=$((failures + 1))
fi
stop_serve

finish
