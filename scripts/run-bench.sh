#!/usr/bin/env bash
# Runs every benchmark of a build directory; results are copied by hand into
# docs/PERFORMANCE.md with the command line and the machine.
set -euo pipefail
build=${1:-build/release}
"$build/bench/plateau_bench" --benchmark_counters_tabular=true
