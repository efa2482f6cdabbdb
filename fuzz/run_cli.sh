#!/usr/bin/env bash
# Long runs of the command-line mutation fuzzer (fuzz/cli_fuzz.py) against the built CLI.
#
#   fuzz/run_cli.sh [seconds] [seed] [assay binary]
#
# Defaults: 3600 s, a seed from the clock (printed, so a run can be repeated), build/assay. For
# sanitizer reports, point it at an ASan build's binary (build-asan/assay). Failing inputs are saved
# in build/cli-fuzz-failures/ (<hash>.csv and <hash>.json with the command line); replay them with
# `fuzz/cli_fuzz.py --assay build/assay --replay build/cli-fuzz-failures`, fix the cause, and keep
# each as a case in tests/cli/fuzz_regressions/ (see cases.json there).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-3600}"
seed="${2:-$(date +%s)}"
assay="${3:-build/assay}"
echo "cli_fuzz: seed $seed, $seconds s, $assay"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  nice python3 fuzz/cli_fuzz.py --assay "$assay" --seconds "$seconds" --seed "$seed" \
  --save-dir build/cli-fuzz-failures
