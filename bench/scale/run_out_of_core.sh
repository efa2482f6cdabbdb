#!/usr/bin/env bash
# Out-of-core `assay report` against the in-memory run (docs/scaling.md).
#   bench/scale/run_out_of_core.sh 10000000          # 10^7 rows (~260 MB of CSV)
#   bench/scale/run_out_of_core.sh 100000000 256M    # 10^8 rows (~2.6 GB of CSV; needs ~3 GB of RAM in memory)
#   REPS=1 BENCH_DIR=/some/dir KEEP=1 bench/scale/run_out_of_core.sh ...   # one run each, keep the CSV
#   BASE=/path/to/older/assay bench/scale/run_out_of_core.sh ...   # also the capped run of an older build
# In the same run, for each of an unweighted and a weighted report: REPS rounds (default 3), each
# round the in-memory run, the run with --max-memory CAP and, with BASE, the capped run of the build
# BASE (rounds, so that a change of the machine's load falls on all of them alike); prints each run's
# wall and CPU time (user + sys), peak RSS (/usr/bin/time's %M, the "Maximum resident set size" of
# time -v) and the load average before it, then the median wall and CPU times, the largest peak RSS,
# the ratio capped / in memory of the medians (issue 16's target at 10^8 rows and 256M: at most 2x),
# and checks that the JSON is byte-identical. A CSV this script generates is deleted at the end
# unless KEEP=1 (10^8 rows take 2.6 GB of disk).
set -euo pipefail
rows=${1:-10000000}
cap=${2:-256M}
reps=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
assay=${ASSAY:-$here/../../build/assay}
base=${BASE:-}
dir=${BENCH_DIR:-${TMPDIR:-/tmp}}
data=$dir/assay_scale_$rows.csv
if [ ! -f "$data" ]; then
  /usr/bin/python3 "$here/gen_scores.py" "$rows" "$data"
  [ "${KEEP:-0}" = 1 ] || trap 'rm -f "$data"' EXIT
fi
echo "file: $data ($(du -h "$data" | cut -f1)), cap $cap, $reps rounds, ASSAY_NUM_THREADS=${ASSAY_NUM_THREADS:-all}," \
     "$(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A times cpus rss
once() {  # label, then the command: one run, its figures appended to the label's lists
  local label=$1; shift
  local l0; l0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o "$dir/assay_time.txt" "$@" > "$dir/assay_$label.json"
  read -r t u s m < "$dir/assay_time.txt"
  local c; c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
  times[$label]="${times[$label]:-} $t"; cpus[$label]="${cpus[$label]:-} $c"
  [ "$m" -gt "${rss[$label]:-0}" ] && rss[$label]=$m
  echo "  $label: wall $t s, CPU $c s, peak RSS $((m / 1024)) MiB, load before $l0"
}
summary() {  # label: sets $wall and $cpu (medians) and prints them
  # shellcheck disable=SC2086
  wall=$(median ${times[$1]}); cpu=$(median ${cpus[$1]})
  echo "$1: wall median ${wall} s (runs:${times[$1]}), CPU median ${cpu} s (runs:${cpus[$1]})," \
       "peak RSS $((${rss[$1]} / 1024)) MiB"
}
for args in "--score score" "--score score --weight w"; do
  echo "== assay report --label y $args"
  times=(); cpus=(); rss=()
  for r in $(seq "$reps"); do
    once memory "$assay" report "$data" --label y $args -f json
    once capped "$assay" report "$data" --label y $args -f json --max-memory "$cap"
    cmp "$dir/assay_memory.json" "$dir/assay_capped.json"
    if [ -n "$base" ]; then
      once base "$base" report "$data" --label y $args -f json --max-memory "$cap"
      cmp "$dir/assay_memory.json" "$dir/assay_base.json"
    fi
    echo "  round $r: JSON identical"
  done
  summary memory; wm=$wall cm=$cpu
  summary capped
  awk -v a="$wall" -v b="$wm" -v c="$cpu" -v d="$cm" 'BEGIN {
    printf "ratio capped / in memory: wall %.2fx, CPU %.2fx (target: wall at most 2x)\n", a / b, c / d }'
  if [ -n "$base" ]; then
    summary base
    awk -v a="$wall" -v b="$wm" -v c="$cpu" -v d="$cm" 'BEGIN {
      printf "ratio base capped / in memory: wall %.2fx, CPU %.2fx\n", a / b, c / d }'
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
