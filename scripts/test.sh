#!/usr/bin/env bash
# Runs the whole test suite: the package built and installed into .venv (scripts/build.sh), the C++
# tests added to that same Release build (so the core compiles once) and run by ctest, the Python
# tests by pytest, the installed scikit-learn's metrics tests with assay's functions
# (scripts/sklearn_suite.sh), then a Debug build with AddressSanitizer and UndefinedBehaviorSanitizer
# and ctest again. Set ASSAY_SKIP_SANITIZE=1 to skip the sanitizer build (for a quick local loop).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
# Each phase says how long it took (CI has a time budget: docs/architecture.md, "Tests").
phase_start=$SECONDS
phase() {
  echo "   (took $((SECONDS - phase_start)) s; $SECONDS s in all)"
  phase_start=$SECONDS
  echo "$1"
}

echo "== Build and install the package (C++ core, CLI, Python extension) into .venv"
scripts/build.sh

phase "== Release C++ tests"
cmake -S . -B build -DASSAY_BUILD_TESTS=ON -DASSAY_BUILD_BENCH=ON >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

phase "== Python tests"
# On every core (pytest-xdist), a test file's tests in one process (--dist loadfile), so that each
# file's Spark, Dask or Ray session starts once; the tests share no files or ports.
(cd python/tests && ../../.venv/bin/python -m pytest -q -p no:cacheprovider -n "$jobs" --dist loadfile .)

phase "== scikit-learn's own metrics tests, as shipped and with assay's functions (docs/sklearn-compatibility.md)"
scripts/sklearn_suite.sh

if [[ "${ASSAY_SKIP_SANITIZE:-0}" != 1 ]]; then
  phase "== Debug + ASan + UBSan build and tests"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DASSAY_SANITIZE=ON -DASSAY_BUILD_BENCH=OFF >/dev/null
  cmake --build build-asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs"
fi
phase "== done"
