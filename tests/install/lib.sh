# Helpers of the install tests (sourced): exact checks counted in $failures, a free port, a
# `plateau serve` started in the background and stopped, an HTTP GET. Needs python3 and curl.

. "$(dirname "${BASH_SOURCE[0]}")/../check.sh"

finish() {  # the summary line and the exit status
  echo "$failures failure(s)"
  [ "$failures" -eq 0 ]
}

free_port() {  # a TCP port free now, outside the kernel's ephemeral range (plateau_harness)
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import plateau_harness; print(plateau_harness.free_port())' \
    "$(dirname "${BASH_SOURCE[0]}")/../integration"
}

# start_serve LOG PLATEAU ARGS...: starts PLATEAU serve ARGS... (output in LOG), sets serve_pid.
start_serve() {
  local log=$1; shift
  "$@" >"$log" 2>&1 &
  serve_pid=$!
}

# wait_http PORT: waits (up to 10 s) until 127.0.0.1:PORT answers HTTP; 1 if it never does.
wait_http() {
  local i
  for i in $(seq 100); do
    if curl -s -o /dev/null "http://127.0.0.1:$1/" 2>/dev/null; then return 0; fi
    if ! kill -0 "$serve_pid" 2>/dev/null; then return 1; fi
    sleep 0.1
  done
  return 1
}

stop_serve() {  # SIGTERM, as systemd stops the service, and wait for the end
  if [ -n "${serve_pid:-}" ]; then
    kill -TERM "$serve_pid" 2>/dev/null
    wait "$serve_pid" 2>/dev/null
    serve_pid=
  fi
}
