#!/usr/bin/env bash
# Builds the libFuzzer target for the CSV reader and runs it.
#
#   ASSAY_WITH_FUZZ=1 scripts/install-deps.sh   # clang and libclang-rt-14-dev
#   fuzz/run.sh [seconds] [extra libFuzzer flags...]
#
# Builds in build-fuzz/ (clang++, -fsanitize=fuzzer,address,undefined), then fuzzes for `seconds`
# (default 600) at low priority, starting from the seed corpus in fuzz/corpus/ and keeping what it
# learns in build-fuzz/corpus/ (the committed seeds are never modified). A crash is written to
# build-fuzz/crash-*; replay one with `build-fuzz/fuzz/assay_csv_fuzz build-fuzz/crash-<hash>`, fix the
# reader, and copy the file into tests/io/fuzz_regressions/ (tests/io/fuzz_regressions_test.cpp
# replays every file there through the same check, csv_fuzz_check.hpp).
# To collect many failures in one run instead of stopping at the first: fuzz/run.sh 300 -fork=1 -ignore_crashes=1
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true

cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DASSAY_BUILD_FUZZ=ON -DASSAY_BUILD_TESTS=OFF -DASSAY_BUILD_BENCH=OFF -DASSAY_BUILD_CLI=OFF >/dev/null
nice cmake --build build-fuzz --target assay_csv_fuzz -j2

mkdir -p build-fuzz/corpus
# detect_leaks=1: a leak is a failure too.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  nice build-fuzz/fuzz/assay_csv_fuzz build-fuzz/corpus fuzz/corpus \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix=build-fuzz/ -print_final_stats=1 "$@"
