#!/usr/bin/env bash
# Issue 12 item 10, end to end: `plateau analyse` on an 8×8 Phutball block (the ball on H10
# inside men on D6..L13) answers with a legal move for level 5, greedy and random under
# --movetime 500. Legality is checked by replaying the move from a record (load_record
# validates it); a bot that ignores its cap is caught by ctest's TIMEOUT, not by timing here.
# Usage: dense_cli_test.sh PATH/TO/plateau
set -u
plateau=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
men=""
for row in 6 7 8 9 10 11 12 13; do
  for col in D E F G H J K L; do
    [ "$col$row" = "H10" ] && continue
    men="$men${men:+,}$col$row"
  done
done
position="ball=H10 men=$men turn=O ply=0"
printf '[Game "phutball"]\n[Position "%s"]\n\n' "$position" > "$tmp/block.record"
for bot in 5 greedy random; do
  out=$("$plateau" analyse phutball --record "$tmp/block.record" --bot "$bot" --movetime 500 2>&1)
  move=$(printf '%s\n' "$out" | sed -n 's/^Best move: //p')
  if [ -z "$move" ]; then
    echo "FAIL: bot $bot gave no move"; printf '%s\n' "$out"; failures=$((failures + 1)); continue
  fi
  printf '[Game "phutball"]\n[Position "%s"]\n1. %s\n' "$position" "$move" > "$tmp/after.record"
  if "$plateau" board phutball --record "$tmp/after.record" > /dev/null 2> "$tmp/err"; then
    echo "ok: bot $bot played $move"
  else
    echo "FAIL: bot $bot played $move, which does not replay:"; cat "$tmp/err"
    failures=$((failures + 1))
  fi
done
exit $((failures > 0))
