#!/usr/bin/env bash
# Sliced reports at scale (issue 14): the wall clock of `assay report FILE --label label --score score
# --by slice --format json` on 10^7 rows with 1000 slices, end to end (read, parse, one pass over the
# rows, every slice's report and the slice-vs-rest tests), median of RUNS runs (default 3), printed
# against the 3 s target, next to the same report without --by (the cost of slicing is the difference).
#
#   bench/report_slices.sh [RUNS] [ROWS]      (ASSAY=path/to/assay to pick the binary)
#
# The data (bench/compare_sklearn.py generate ROWS FILE 1000) are written once into ${TMPDIR:-/tmp}. Needs /usr/bin/time. The
# machine is shared: the CPU time (user + system) is printed too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
runs="${1:-3}"
rows="${2:-10000000}"
assay="${ASSAY:-$here/../build/assay}"
[[ -x "$assay" ]] || { echo "report_slices: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
need_time report_slices

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
data="${TMPDIR:-/tmp}/assay_slices_${rows}.csv"
if [[ ! -s "$data" ]]; then  # bench/compare_sklearn.py's rows with a slice column c0 .. c999
  echo "generating $data ($rows rows) ..."
  /usr/bin/python3 "$here/compare_sklearn.py" generate "$rows" "$data.part" 1000 && mv "$data.part" "$data"
fi
warm_cache "$data"

# time_runs LABEL ARGS...: prints each run and sets `wall` and `cpu` to the medians.
time_runs() {
  local label="$1"
  shift
  local walls=() cpus=()
  for ((i = 1; i <= runs; i++)); do
    /usr/bin/time -v -o "$log" "$assay" report "$data" --label label --score score --format json "$@" >/dev/null
    walls+=("$(wall_s "$log")")
    cpus+=("$(cpu_s "$log")")
    echo "  $label run $i: wall ${walls[-1]} s, cpu ${cpus[-1]} s"
  done
  wall=$(printf '%s\n' "${walls[@]}" | median)
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
time_runs "plain" && plain_wall=$wall plain_cpu=$cpu
time_runs "--by slice" --by slice
awk -v r="$rows" -v pw="$plain_wall" -v pc="$plain_cpu" -v w="$wall" -v c="$cpu" 'BEGIN {
  printf "%d rows, 1000 slices: report without --by %.2f s (cpu %.2f s); with --by slice %.2f s (cpu %.2f s)\n", r, pw, pc, w, c
  printf "target <= 3 s end to end: %s (%.2fx of the budget); slicing adds %.2f s\n", (w <= 3 ? "MET" : "MISSED"), w / 3, w - pw }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
