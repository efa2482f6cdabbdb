#!/usr/bin/env bash
# Runs the whole test suite: a Release build, then a Debug build with AddressSanitizer and
# UndefinedBehaviorSanitizer; ctest runs every test in both. Set ASSAY_SKIP_SANITIZE=1 to run the
# Release build only (for a quick local loop).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

echo "== Release build and tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

if [[ "${ASSAY_SKIP_SANITIZE:-0}" != 1 ]]; then
  echo "== Debug + ASan + UBSan build and tests"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DASSAY_SANITIZE=ON -DASSAY_BUILD_BENCH=OFF >/dev/null
  cmake --build build-asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs"
fi
