#!/usr/bin/env bash
# A throw-away PostgreSQL 15 cluster for the store tests (docs/STORE.md, issue 16).
#   pg_cluster.sh start DIR PORT   initdb in DIR/data, start it on 127.0.0.1:PORT and a unix
#                                  socket in DIR; prints the URL of its database "plateau"
#                                  (user plateau, password in the URL) on stdout
#   pg_cluster.sh stop DIR         stops it at once (-m immediate) and removes DIR
#   pg_cluster.sh pause DIR        stops the server at once (-m immediate), keeping its data
#   pg_cluster.sh resume DIR PORT  starts it again (after pause)
# PLATEAU_PG_EXTRA: more server options (plateau_load --pg-statements preloads pg_stat_statements).
# As root (CI) the server runs as the `postgres` user (PostgreSQL refuses to run as root).
# Exit 77 (skip) when the server binaries are missing and this is not root; as root (CI, where
# scripts/install-deps.sh installs postgresql-15) their absence is a failure.
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
cmd=${1:?start or stop}
dir=${2:?directory}

as_owner=()
if [ "$(id -u)" -eq 0 ]; then as_owner=(runuser -u postgres --); fi

# fsync=off: the tests kill processes (plateau, the PostgreSQL server), never the machine, so
# what PostgreSQL wrote is in the page cache either way; it spares the shared disk. A benchmark
# sets PLATEAU_PG_FSYNC=on (docs/STORE.md).
start_server() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $1 -k $dir -c listen_addresses=127.0.0.1 -c shared_buffers=16MB -c max_connections=40 -c fsync=${PLATEAU_PG_FSYNC:-off} ${PLATEAU_PG_EXTRA:-}" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
}

case "$cmd" in
start)
  port=${3:?port}
  if [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "pg_cluster: no PostgreSQL 15 server in $bin (scripts/install-deps.sh installs postgresql-15)" >&2
    if [ "$(id -u)" -ne 0 ]; then exit 77; fi
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "pg_cluster: running as root but there is no postgres user to run the server" >&2
    exit 1
  fi
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
  chmod 700 "$dir"
  password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  printf '%s\n' "$password" >"$dir/pw"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir/pw"
  "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U plateau --pwfile="$dir/pw" -E UTF8 \
    --locale=C --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  rm -f "$dir/pw"
  start_server "$port"
  "${as_owner[@]}" "$bin/createdb" -h "$dir" -p "$port" -U plateau plateau
  echo "postgresql://plateau:$password@127.0.0.1:$port/plateau"
  ;;
pause)
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
  ;;
resume)
  start_server "${3:?port}"
  ;;
stop)
  if [ -d "$dir/data" ]; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
*)
  echo "pg_cluster: unknown command $cmd" >&2
  exit 2
  ;;
esac
