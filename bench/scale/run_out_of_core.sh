#!/usr/bin/env bash
# Out-of-core `assay report` against the in-memory run (docs/scaling.md).
#   bench/scale/run_out_of_core.sh 10000000          # 10^7 rows (~260 MB of CSV)
#   bench/scale/run_out_of_core.sh 100000000 256M    # 10^8 rows (~2.6 GB of CSV; needs ~3 GB of RAM in memory)
# Prints wall time and peak RSS of each run (median of REPS runs, default 3) and checks the JSON is identical.
set -euo pipefail
rows=${1:-10000000}
cap=${2:-256M}
reps=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
assay=${ASSAY:-$here/../../build/assay}
dir=${BENCH_DIR:-${TMPDIR:-/tmp}}
data=$dir/assay_scale_$rows.csv
[ -f "$data" ] || /usr/bin/python3 "$here/gen_scores.py" "$rows" "$data"
echo "file: $data ($(du -h "$data" | cut -f1)), cap $cap, $reps runs each"
run() {  # label, then the command; prints the median seconds and the largest peak RSS
  local label=$1; shift
  local times=() rss=0
  for _ in $(seq "$reps"); do
    /usr/bin/time -f "%e %M" -o "$dir/assay_time.txt" "$@" > "$dir/assay_$label.json"
    read -r t m < "$dir/assay_time.txt"
    times+=("$t"); [ "$m" -gt "$rss" ] && rss=$m
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$label: median ${median} s, peak RSS $((rss / 1024)) MiB (runs: ${times[*]})"
}
for args in "--score score" "--score score --weight w"; do
  echo "== assay report --label y $args"
  run memory "$assay" report "$data" --label y $args -f json
  run capped "$assay" report "$data" --label y $args -f json --max-memory "$cap"
  cmp "$dir/assay_memory.json" "$dir/assay_capped.json" && echo "JSON identical"
done
