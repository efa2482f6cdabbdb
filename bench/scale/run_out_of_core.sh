#!/usr/bin/env bash
# Out-of-core `assay report` against the in-memory run (docs/scaling.md).
#   bench/scale/run_out_of_core.sh 10000000          # 10^7 rows (~260 MB of CSV)
#   bench/scale/run_out_of_core.sh 100000000 256M    # 10^8 rows (~2.6 GB of CSV; needs ~3 GB of RAM in memory)
#   REPS=1 BENCH_DIR=/some/dir KEEP=1 bench/scale/run_out_of_core.sh ...   # one run each, keep the CSV
# In the same run, for each of an unweighted and a weighted report: the in-memory run and the run with
# --max-memory CAP, REPS times each (default 3); prints the median wall time, the median CPU time
# (user + sys), the largest peak RSS (/usr/bin/time's %M, the "Maximum resident set size" of
# time -v), the ratio capped / in memory of the medians (issue 16's target at 10^8 rows and 256M:
# at most 2x), and checks that the JSON is byte-identical. A CSV this script generates is deleted at
# the end unless KEEP=1 (10^8 rows take 2.6 GB of disk).
set -euo pipefail
rows=${1:-10000000}
cap=${2:-256M}
reps=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
assay=${ASSAY:-$here/../../build/assay}
dir=${BENCH_DIR:-${TMPDIR:-/tmp}}
data=$dir/assay_scale_$rows.csv
if [ ! -f "$data" ]; then
  /usr/bin/python3 "$here/gen_scores.py" "$rows" "$data"
  [ "${KEEP:-0}" = 1 ] || trap 'rm -f "$data"' EXIT
fi
echo "file: $data ($(du -h "$data" | cut -f1)), cap $cap, $reps runs each, ASSAY_NUM_THREADS=${ASSAY_NUM_THREADS:-all}," \
     "$(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() {  # label, then the command; sets $wall and $cpu (medians) and prints them with the peak RSS
  local label=$1; shift
  local times=() cpus=() rss=0
  for _ in $(seq "$reps"); do
    /usr/bin/time -f "%e %U %S %M" -o "$dir/assay_time.txt" "$@" > "$dir/assay_$label.json"
    read -r t u s m < "$dir/assay_time.txt"
    times+=("$t"); cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
    [ "$m" -gt "$rss" ] && rss=$m
  done
  wall=$(median "${times[@]}")
  cpu=$(median "${cpus[@]}")
  echo "$label: wall median ${wall} s (runs: ${times[*]}), CPU median ${cpu} s (runs: ${cpus[*]})," \
       "peak RSS $((rss / 1024)) MiB; load $(cut -d' ' -f1 /proc/loadavg)"
}
for args in "--score score" "--score score --weight w"; do
  echo "== assay report --label y $args"
  run memory "$assay" report "$data" --label y $args -f json
  wm=$wall cm=$cpu
  run capped "$assay" report "$data" --label y $args -f json --max-memory "$cap"
  cmp "$dir/assay_memory.json" "$dir/assay_capped.json" && echo "JSON identical"
  awk -v a="$wall" -v b="$wm" -v c="$cpu" -v d="$cm" 'BEGIN {
    printf "ratio capped / in memory: wall %.2fx, CPU %.2fx (target: wall at most 2x)\n", a / b, c / d }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
