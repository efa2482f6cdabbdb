#!/usr/bin/env bash
# Intervals at scale (issue 13): the wall clock of `assay report FILE --ci --ci-method bootstrap` on
# 10^6 rows (every interval by the bootstrap, 2000 replicates; target <= 5 s) and of
# `assay report FILE --ci` on 10^7 rows (the automatic methods; target <= 10 s), medians of RUNS runs
# (default 5), printed against the targets, on `label,score` CSVs (30% positives; the generator of
# bench/compare_sklearn.py) written once into ${TMPDIR:-/tmp}.
#
#   bench/report_ci.sh [RUNS]      (ASSAY=path/to/assay to pick the binary)
#
# Needs /usr/bin/time (Debian package `time`, installed by scripts/install-deps.sh). The machine is
# shared: the CPU time (user + system) is printed too, as it is less disturbed by other load.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
runs="${1:-5}"
assay="${ASSAY:-$here/../build/assay}"
[[ -x "$assay" ]] || { echo "report_ci: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
need_time report_ci

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# bench ROWS TARGET_S ARGS...: runs assay report on the ROWS-row file with ARGS, prints each run and
# the medians against the target.
bench() {
  local rows="$1" target="$2"
  shift 2
  local data="${TMPDIR:-/tmp}/assay_ci_${rows}.csv"
  generate_once "$here/compare_sklearn.py" "$rows" "$data"
  warm_cache "$data"
  local walls=() cpus=()
  for ((i = 1; i <= runs; i++)); do
    /usr/bin/time -v -o "$log" "$assay" report "$data" --label label --score score --format json "$@" >/dev/null
    walls+=("$(wall_s "$log")")
    cpus+=("$(cpu_s "$log")")
    echo "  run $i: wall ${walls[-1]} s, cpu ${cpus[-1]} s"
  done
  local wall cpu
  wall=$(printf '%s\n' "${walls[@]}" | median)
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
  awk -v r="$rows" -v a="$*" -v w="$wall" -v c="$cpu" -v t="$target" 'BEGIN {
    printf "%d rows, %s: median wall %.2f s (cpu %.2f s), target <= %g s: %s (%.2fx of the budget)\n",
           r, a, w, c, t, (w <= t ? "MET" : "MISSED"), w / t }'
}

echo "assay report --ci --ci-method bootstrap, 10^6 rows, 2000 replicates:"
bench 1000000 5 --ci --ci-method bootstrap
echo "assay report --ci (automatic), 10^7 rows:"
bench 10000000 10 --ci
