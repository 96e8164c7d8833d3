#!/bin/sh
# `biloba` in the terminal (issue 18 items 3): without a display it says so and plays there;
# --text plays there even with one; an illegal move says why and clears the selection; a
# forced take is announced. Exact lines.
# usage: gui_terminal_test.sh BILOBA CHECK_SH
biloba=$1
. "$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$(printf 'quit\n' | env -u DISPLAY -u WAYLAND_DISPLAY "$biloba" --cpu-delay 0 2>&1 >/dev/null)
check "no display: said on stderr" \
  "biloba: no display (DISPLAY and WAYLAND_DISPLAY are unset): playing in the terminal" "$out"
out=$(printf 'quit\n' | env DISPLAY=":x" "$biloba" --text --cpu-delay 0 2>&1 >/dev/null)
check "--text: no window, nothing on stderr" "" "$out"

# A display that cannot be reached: said at once, and the terminal game instead.
out=$(printf 'quit\n' | env DISPLAY=":x" "$biloba" --cpu-delay 0 2>&1 >/dev/null | grep '^biloba:')
check "an unreachable display: the terminal game" \
  "biloba: cannot open a window (x11,wayland not available): playing in the terminal" "$out"

# e7-e5 is illegal (a jump never lands on the centre); e7 then e6 drops the selection; b6-b5 plays.
printf 'e7-e5\ne7\ne6\nb6-b5\nquit\n' | env -u DISPLAY "$biloba" --seats human,cpu --cpu-delay 0 \
  --seed 3 > "$tmp/out" 2>&1
check "illegal move: why, nothing played" \
  "Orange> Illegal: e7-e5: e5 is not a legal target of e7 (it can go to c5, g5)." \
  "$(grep -F 'Illegal: e7-e5' "$tmp/out")"
check "a selection shown with its targets" "Up to Player 1 (selected e7, targets c5, g5)" \
  "$(grep -F '(selected e7' "$tmp/out")"
check "another pawn: why, and the selection is cleared" \
  "Orange> Illegal: e6: e6 is not a legal target of e7 (it can go to c5, g5). Selection cleared." \
  "$(grep -F 'Illegal: e6' "$tmp/out")"
check "then a legal turn plays" "Orange> O: b6-b5" "$(grep -F 'O: b6-b5' "$tmp/out")"

# Blue steps between two orange pawns (c4-c5, between b5 and d5): Orange's next turn starts
# with the forced take, announced, and its refill typed (b5-c5).
printf 'b6-b5\nh4-i5\nd6-d5\nc4-c5\nb5-c5\nquit\n' | env -u DISPLAY "$biloba" --seats human,human \
  > "$tmp/forced" 2>&1
check "forced take announced" "O: x/b5-c5
  Player 1 takes at the start of the turn (forced)
  Player 1 took 1 pawn(s)" "$(grep -A2 -F 'O: x/' "$tmp/forced" | sed 's/^Orange> //')"

# The window's options are checked before anything opens (with or without a display).
bad() {  # bad NAME EXPECTED ARGS...
  name=$1 expected=$2
  shift 2
  out=$(env -u DISPLAY "$biloba" "$@" 2>&1 </dev/null)
  status=$?
  check "$name" "$expected (status 2)" "$out (status $status)"
}
bad "--lang" "biloba: --lang must be en or fr" --lang de
bad "--geometry" "biloba: --geometry must be WIDTHxHEIGHT, 320x240 to 8192x8192" --geometry 10x10
bad "--geometry junk" "biloba: --geometry must be WIDTHxHEIGHT, 320x240 to 8192x8192" --geometry 800x600x
bad "--start" "biloba: --start: 'play' is not local:SEATS, create:NAME, join:ID or help" --start play
bad "--start join without a server" "biloba: --start join:1 needs a SERVER argument" --start join:1

[ "$failures" -eq 0 ] || exit 1
echo "PASS"
