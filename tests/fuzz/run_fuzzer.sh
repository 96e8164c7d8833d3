#!/usr/bin/env bash
# The libFuzzer targets of tests/fuzz (README.md there), built with clang++ under ASan + UBSan.
#   run_fuzzer.sh build SOURCE_DIR OUT_DIR          configure and build every target
#   run_fuzzer.sh run SOURCE_DIR OUT_DIR TARGET SECONDS [libFuzzer flags...]
#       run fuzz_TARGET from the committed seed corpus tests/fuzz/corpus/TARGET for SECONDS
#       (the seeds are run first: every committed crash input is a regression test).
# Exits 77 (ctest: skipped) when clang++ or its libFuzzer runtime is not installed; 1 on a crash,
# a hang, a leak or a sanitizer report (the input is saved in OUT_DIR/artifacts).
set -euo pipefail
mode=$1
src=$2
out=$3
clang=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$clang" ]; then
  echo "clang++ not found: fuzzers skipped (scripts/install-deps.sh installs clang)"
  exit 77
fi

case "$mode" in
  build)
    # libFuzzer's runtime is a separate Debian package (libclang-rt-14-dev).
    probe=$(mktemp -d)
    trap 'rm -rf "$probe"' EXIT
    echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' \
      >"$probe/p.cpp"
    if ! "$clang" -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>/dev/null
    then
      echo "$clang cannot link -fsanitize=fuzzer (libclang-rt-14-dev missing): fuzzers skipped"
      exit 77
    fi
    launcher=()
    if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
    cmake -S "$src/tests/fuzz" -B "$out/build" -G Ninja -DCMAKE_BUILD_TYPE=None \
      -DCMAKE_CXX_COMPILER="$clang" "${launcher[@]}" >/dev/null
    cmake --build "$out/build" -j "${FUZZ_JOBS:-$(nproc)}"
    ;;
  run)
    target=$4
    seconds=$5
    shift 5
    bin=$out/build/fuzz_$target
    if [ ! -x "$bin" ]; then
      echo "$bin not built (the fuzz_build test builds it; was it skipped?)"
      exit 77
    fi
    # A fresh working corpus each run: libFuzzer adds what it finds there, never to the sources.
    work=$out/corpus/$target
    rm -rf "$work"
    mkdir -p "$work" "$out/artifacts"
    cp "$src/tests/fuzz/corpus/$target"/* "$work/"
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    log=$out/$target.log
    status=0
    "$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$out/artifacts/$target-" "$@" "$work" \
      >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
      # The whole report (stack, input bytes) when something was found.
      grep -v '^#[0-9]' "$log" | tail -n 80
      echo "fuzz_$target failed (exit $status); input saved under $out/artifacts/$target-*"
      exit 1
    fi
    grep -E "^(INFO: seed corpus|Done|stat::)" "$log" || true
    ;;
  *)
    echo "usage: $0 build|run SOURCE_DIR OUT_DIR [TARGET SECONDS]" >&2
    exit 2
    ;;
esac
