#!/usr/bin/env bash
# Curves at 10^7 rows against scikit-learn (issue 3, "Speed"), ratios measured in the same run:
#  1. in memory, on the same arrays: our ROC curve + AUC + PR curve + AP from one sort
#     (bench_curves file/all_curves) vs scikit-learn's roc_auc_score + average_precision_score
#     (target >= 20x), and vs one boost float_sort of the scores (file/floor_float_sort; target <= 1.5x);
#  2. end to end vs pandas.read_csv + roc_curve + roc_auc_score (target >= 15x): the same curve is
#     `assay curve roc FILE --drop-intermediate > /dev/null` (roc_curve drops intermediate points by
#     default; both give the same 1.4 million points at 10^7 rows); assay's default full curve (one
#     point per distinct score, 10^7 points, ~670 MB of text) is timed too. With assay's peak RSS
#     (target: <= ~24 bytes per row beyond the parsed columns).
# Medians of 3 runs each.
#
#   bench/compare_curves.sh [ROWS]   (default 10000000; ASSAY=path/to/assay, BENCH=path/to/bench_curves)
#   BASELINE=path/to/older/assay bench/compare_curves.sh   also times an older build's end-to-end run,
#     just before each of ours (issue 12's "no regression", measured in one run rather than against a
#     ratio from another day: the peer's own time moves with the machine)
#
# The `label,score` CSV (bench/compare_sklearn.py generate) and the arrays file go to ${TMPDIR:-/tmp}.
# Needs /usr/bin/time (scripts/install-deps.sh). Python's times cover the work only, not the
# interpreter start or the imports; assay's end-to-end time is the whole process.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
rows="${1:-10000000}"
assay="${ASSAY:-$here/../build/assay}"
bench="${BENCH:-$here/../build/bench/bench_curves}"
py=/usr/bin/python3
data="${TMPDIR:-/tmp}/assay_compare_${rows}.csv"
bin="${TMPDIR:-/tmp}/assay_curves_${rows}.bin"

[[ -x "$assay" ]] || { echo "compare_curves: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
[[ -x "$bench" ]] || { echo "compare_curves: no bench_curves at $bench (-DASSAY_BUILD_BENCH=ON, or set BENCH=...)" >&2; exit 2; }
need_time compare_curves
generate_once "$here/compare_sklearn.py" "$rows" "$data"
warm_cache "$data"

echo "== in memory: scikit-learn roc_auc_score + average_precision_score (3 runs) =="
mapfile -t sk < <("$py" "$here/compare_curves.py" arrays "$data" "$bin")
printf '  %s s\n' "${sk[@]}"
echo "== in memory: bench_curves on the same arrays (3 repetitions) =="
bench_csv="$(ASSAY_BENCH_CURVES_DATA="$bin" "$bench" --benchmark_filter='^file/' --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null)"
ms_of() { echo "$bench_csv" | awk -F, -v name="\"file/$1/real_time_median\"" '$1 == name { print $3 }'; }
ours_ms=$(ms_of all_curves) floor_ms=$(ms_of floor_float_sort)
echo "  all_curves ${ours_ms} ms, floor_float_sort ${floor_ms} ms (medians)"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "== end to end: assay curve roc FILE --drop-intermediate > /dev/null (3 runs; scikit-learn's points) =="
a_wall=() a_rss=() b_wall=()
for i in 1 2 3; do
  if [[ -n "${BASELINE:-}" ]]; then  # an older build, run just before ours: "no regression" in one run
    /usr/bin/time -v -o "$log" "$BASELINE" curve roc "$data" --label label --score score --drop-intermediate >/dev/null
    b_wall+=("$(wall_s "$log")")
    echo "  run $i: baseline wall ${b_wall[-1]} s"
  fi
  /usr/bin/time -v -o "$log" "$assay" curve roc "$data" --label label --score score --drop-intermediate >/dev/null
  wall=$(wall_s "$log") rss=$(rss_kib "$log")
  a_wall+=("$wall") a_rss+=("$rss")
  echo "  run $i: wall ${wall} s, peak RSS ${rss} KiB"
done
echo "== end to end: assay curve roc FILE > /dev/null (3 runs; every distinct score) =="
f_wall=()
for i in 1 2 3; do
  /usr/bin/time -v -o "$log" "$assay" curve roc "$data" --label label --score score >/dev/null
  wall=$(wall_s "$log") rss=$(rss_kib "$log")
  f_wall+=("$wall") a_rss+=("$rss")
  echo "  run $i: wall ${wall} s, peak RSS ${rss} KiB"
done
echo "== end to end: pandas.read_csv + roc_curve + roc_auc_score (3 runs) =="
p_wall=()
for i in 1 2 3; do
  read -r w points < <("$py" "$here/compare_curves.py" e2e "$data")
  p_wall+=("$w")
  echo "  run $i: ${w} s (${points} points)"
done
# The same curve: roc_curve's points (origin included) = assay's rows after the header.
lines=$("$assay" curve roc "$data" --label label --score score --drop-intermediate | wc -l)
ours=$((lines - 1))
[[ "$ours" == "$points" ]] || { echo "compare_curves: assay wrote $ours points, roc_curve gave $points" >&2; exit 1; }
echo "  same number of points: $points"

skm=$(printf '%s\n' "${sk[@]}" | median)
aw=$(printf '%s\n' "${a_wall[@]}" | median) pw=$(printf '%s\n' "${p_wall[@]}" | median)
fw=$(printf '%s\n' "${f_wall[@]}" | median)
rss=$(printf '%s\n' "${a_rss[@]}" | max)
bw=0
[[ -n "${BASELINE:-}" ]] && bw=$(printf '%s\n' "${b_wall[@]}" | median)
awk -v skm="$skm" -v ours="$ours_ms" -v floor="$floor_ms" -v aw="$aw" -v fw="$fw" -v pw="$pw" -v rss="$rss" -v rows="$rows" -v bw="$bw" 'BEGIN {
  printf "\nrows: %d (medians of 3)\n", rows
  printf "in memory   sklearn roc_auc_score + average_precision_score  %8.3f s\n", skm
  printf "            assay ROC + AUC + PR + AP (one sort)              %8.3f s   speed-up %5.1fx (target >= 20x)\n", ours / 1000, skm * 1000 / ours
  printf "            one float_sort of the scores (floor)              %8.3f s   assay / floor %4.2fx (target <= 1.5x)\n", floor / 1000, ours / floor
  printf "end to end  pandas.read_csv + roc_curve + roc_auc_score       %8.3f s\n", pw
  printf "            assay curve roc FILE --drop-intermediate          %8.3f s   speed-up %5.1fx (target >= 15x)\n", aw, pw / aw
  printf "            assay curve roc FILE (a point per distinct score) %7.3f s   speed-up %5.1fx\n", fw, pw / fw
  if (bw > 0) printf "            baseline (BASELINE) --drop-intermediate           %8.3f s   speed-up %5.1fx; this build / baseline %4.2fx\n", bw, pw / bw, aw / bw
  printf "            assay peak RSS (largest run) %.1f MB = %.1f bytes/row; beyond the parsed columns (12 bytes/row): %.1f bytes/row (target <= ~24)\n",
         rss * 1024 / 1e6, rss * 1024 / rows, rss * 1024 / rows - 12
}'
