# The exact-value check of the shell tests (sourced by tests/cli and tests/install): each
# `check NAME EXPECTED ACTUAL` prints ok or the difference, and counts failures in $failures.

failures=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1"; echo "--- expected"; echo "$2"; echo "--- actual"; echo "$3"
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}
