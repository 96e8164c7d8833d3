#!/usr/bin/env bash
# `plateau serve --config FILE` (issue 19 item 3): an option set in the INI file takes effect, a
# flag overrides it, an unknown key or a bad value is an error naming it, a --config that does not
# exist is an error, and the example packaging/plateau.ini names every option of `plateau serve`
# (it is packaging/gen_plateau_ini.py's output), sets none, and is valid uncommented.
# Usage: config_test.sh PATH/TO/plateau SOURCE_DIR
set -u
plateau=$1
src=$2
tmp=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap 'stop_serve; rm -rf "$tmp"' EXIT

# An option from the file: the HTTP port.
http=$(free_port); text=$(free_port)
cat > "$tmp/a.ini" <<INI
# comment
http-port = $http
text-port = $text
biloba-port = 0
bind = 127.0.0.1
data-dir = $tmp/data
INI
start_serve "$tmp/a.log" "$plateau" serve --config "$tmp/a.ini"
if wait_http "$http"; then echo "ok: http-port from the file"; else
  echo "FAIL: http-port from the file"; cat "$tmp/a.log"; failures=$((failures + 1)); fi
check "data-dir from the file" "yes" "$([ -f "$tmp/data/plateau.db" ] && echo yes || echo no)"
stop_serve

# A flag overrides the file; the [serve] section is the same as the top of the file.
other=$(free_port)
{ echo "[serve]"; cat "$tmp/a.ini"; } > "$tmp/b.ini"
start_serve "$tmp/b.log" "$plateau" serve --config "$tmp/b.ini" --http-port "$other"
if wait_http "$other"; then echo "ok: the flag overrides the file"; else
  echo "FAIL: the flag overrides the file"; cat "$tmp/b.log"; failures=$((failures + 1)); fi
check "file's port unused" "closed" \
  "$(curl -s -o /dev/null "http://127.0.0.1:$http/" && echo open || echo closed)"
stop_serve

printf 'http-port = 8080\ncolour = red\n' > "$tmp/c.ini"
check "unknown key" "plateau: unknown key 'colour' in $tmp/c.ini (try --help)
2" \
  "$("$plateau" serve --config "$tmp/c.ini" 2>&1; echo $?)"
printf '[lobby]\nthreads = 2\n' > "$tmp/d.ini"
check "unknown section" "plateau: unknown section 'lobby' in $tmp/d.ini (try --help)
2" \
  "$("$plateau" serve --config "$tmp/d.ini" 2>&1; echo $?)"
printf 'threads = 0\n' > "$tmp/e.ini"
check "bad value in the file" "$("$plateau" serve --threads 0 2>&1; echo $?)" \
  "$("$plateau" serve --config "$tmp/e.ini" 2>&1; echo $?)"
# A repeated key adds to the option, and every value is checked (the second origin is refused).
printf 'allow-origin = https://a.example\nallow-origin = nope\n' > "$tmp/r.ini"
check "repeated key" "$("$plateau" serve --allow-origin https://a.example --allow-origin nope 2>&1; echo $?)" \
  "$("$plateau" serve --config "$tmp/r.ini" 2>&1; echo $?)"
printf 'allow-origin = [https://a.example, nope]\n' > "$tmp/s.ini"
check "list value" "$("$plateau" serve --allow-origin https://a.example --allow-origin nope 2>&1; echo $?)" \
  "$("$plateau" serve --config "$tmp/s.ini" 2>&1; echo $?)"
printf 'tls-cert = %s\n' "$tmp/a.ini" > "$tmp/h.ini"
check "needs across file and flags" "plateau: --tls-cert requires --tls-key (try --help)
2" "$("$plateau" serve --config "$tmp/h.ini" 2>&1; echo $?)"
printf 'config = /etc/passwd\n' > "$tmp/f.ini"
check "config is no key" "plateau: unknown key 'config' in $tmp/f.ini (try --help)
2" \
  "$("$plateau" serve --config "$tmp/f.ini" 2>&1; echo $?)"
check "missing --config file" "plateau: $tmp/none.ini was not readable (missing?) (try --help)
2" "$("$plateau" serve --config "$tmp/none.ini" 2>&1; echo $?)"

# The example file names every option of `plateau serve` (commented out), and nothing else.
options=$("$plateau" serve --help | grep -oE '^ +--[a-z-]+' | sed 's/^ *--//' |
  grep -vxE 'help|help-all|config|version' | sort)
example=$(grep -oE '^# ?[a-z-]+ =' "$src/packaging/plateau.ini" | sed -E 's/^# ?//; s/ =$//' | sort)
check "example names every option" "$options" "$example"
check "example is gen_plateau_ini.py's output (rerun it after changing an option)" \
  "$(cat "$src/packaging/plateau.ini")" "$(python3 "$src/packaging/gen_plateau_ini.py" "$plateau")"
check "example sets nothing" "" "$(grep -vE '^(#|;|$)' "$src/packaging/plateau.ini")"
# Uncommented, the example's values are the defaults: a valid file (ports and data moved aside).
sed -E 's/^# ?([a-z-]+ =)/\1/' "$src/packaging/plateau.ini" |
  grep -vE '^(tls-cert|tls-key|allow-origin|smtp|mail-from|biloba-log|store|node-[a-z]+|cluster-secret-file|place-tables) =' \
  > "$tmp/g.ini"
http=$(free_port)
start_serve "$tmp/g.log" "$plateau" serve --config "$tmp/g.ini" --http-port "$http" \
  --text-port "$(free_port)" --biloba-port 0 --lmtp-port 0 --data-dir "$tmp/g"
if wait_http "$http"; then echo "ok: the example uncommented is valid"; else
  echo "FAIL: the example uncommented is valid"; cat "$tmp/g.log"; failures=$((failures + 1)); fi
stop_serve

finish
