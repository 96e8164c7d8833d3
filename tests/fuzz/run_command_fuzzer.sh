#!/usr/bin/env bash
# Builds the command-parser fuzzer with clang's libFuzzer (plus ASan/UBSan) and runs it for a
# few seconds from the seed corpus. Exits 77 (ctest: skipped) when clang++ is not installed.
# Usage: run_command_fuzzer.sh SOURCE_DIR BUILD_DIR [SECONDS]
set -euo pipefail
src=$1
out=$2
seconds=${3:-5}
clang=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$clang" ]; then
  echo "clang++ not found: fuzzer skipped"
  exit 77
fi
mkdir -p "$out/corpus"
cp -n "$src"/tests/fuzz/corpus/* "$out/corpus/" 2>/dev/null || true
bin=$out/command_parser_fuzz
if [ ! -x "$bin" ] || [ -n "$(find "$src/src/server/command.cpp" "$src/src/server/command.h" \
      "$src/src/core/text.cpp" "$src/tests/fuzz/command_parser_fuzz.cpp" -newer "$bin")" ]; then
  "$clang" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$src/src" "$src/tests/fuzz/command_parser_fuzz.cpp" "$src/src/server/command.cpp" \
    "$src/src/core/text.cpp" -o "$bin"
fi
"$bin" -max_total_time="$seconds" -max_len=5000 -timeout=5 -print_final_stats=1 \
  "$out/corpus" 2>&1 | tail -n 15
