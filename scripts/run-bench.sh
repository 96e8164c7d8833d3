#!/usr/bin/env bash
# Runs every benchmark of a build directory (make bench); results are copied by hand into
# docs/PERFORMANCE.md with the command line and the machine. About 10 minutes on 2 cores; the
# machine should be otherwise quiet. BENCH_ONLY=micro|load|cluster runs one part.
set -euo pipefail
build=${1:-build/release}
src=$(cd "$(dirname "$0")/.." && pwd)
only=${BENCH_ONLY:-all}
part() { [ "$only" = all ] || [ "$only" = "$1" ]; }

if part micro; then
  echo "== plateau_bench (rules, search, store)"
  "$build/bench/plateau_bench" --benchmark_counters_tabular=true
fi

if part load; then
  # docs/PERFORMANCE.md "Server on PostgreSQL": the same workload on SQLite, one PostgreSQL
  # node, three nodes, three with the second player of each game elsewhere, and a node killed.
  load="$build/bench/plateau_load"
  common=(--server "$build/plateau" --connections 1000 --games 500 --seconds 15 --rate 2500)
  echo "== plateau_load: SQLite, then one node on PostgreSQL"
  "$load" "${common[@]}" --store sqlite --store postgresql
  echo "== plateau_load: three nodes"
  "$load" "${common[@]}" --store postgresql --nodes 3
  echo "== plateau_load: three nodes, the second player of each game on another node"
  "$load" "${common[@]}" --store postgresql --nodes 3 --spread
  echo "== plateau_load: three nodes, n3 killed 7 s in"
  "$load" "${common[@]}" --store postgresql --nodes 3 --kill-after 7
fi

if part cluster; then
  # docs/PERFORMANCE.md "Cluster failover": 100 boards taken over from a killed node.
  echo "== cluster_takeover.py: 100 boards, 10 moves each"
  /usr/bin/python3 "$src/bench/cluster_takeover.py" "$build/plateau" 100 10
fi
