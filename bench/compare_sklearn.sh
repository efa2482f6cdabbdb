#!/usr/bin/env bash
# assay report vs pandas + scikit-learn on a 10^7-row `label,score` CSV (issue 2, "Speed").
# Prints the median of 3 runs of each (wall clock, and CPU = user + system, which a busy shared
# machine disturbs less), their ratios (target: assay >= 20x faster), and assay's peak RSS against
# the size of the columns it parses (target: <= 2x).
#
#   bench/compare_sklearn.sh [ROWS]      (default 10000000; ASSAY=path/to/assay to pick the binary)
#
# The data file is generated once into ${TMPDIR:-/tmp}. Needs /usr/bin/time (Debian package `time`,
# installed by scripts/install-deps.sh). Python's time covers read_csv + confusion_matrix +
# classification_report only (not the interpreter start or the imports); assay's is the whole process.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
rows="${1:-10000000}"
assay="${ASSAY:-$here/../build/assay}"
py=/usr/bin/python3
data="${TMPDIR:-/tmp}/assay_compare_${rows}.csv"

[[ -x "$assay" ]] || { echo "compare_sklearn: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
need_time compare_sklearn
generate_once "$here/compare_sklearn.py" "$rows" "$data"
warm_cache "$data"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
a_wall=() a_cpu=() a_rss=()
for i in 1 2 3; do
  /usr/bin/time -v -o "$log" "$assay" report "$data" --label label --score score --format json >/dev/null
  wall=$(wall_s "$log") cpu=$(cpu_s "$log") rss=$(rss_kib "$log")
  a_wall+=("$wall") a_cpu+=("$cpu") a_rss+=("$rss")
  echo "assay  run $i: wall ${wall} s, cpu ${cpu} s, peak RSS ${rss} KiB"
done
p_wall=() p_cpu=()
for i in 1 2 3; do
  read -r wall cpu < <("$py" "$here/compare_sklearn.py" run "$data")
  p_wall+=("$wall") p_cpu+=("$cpu")
  echo "python run $i: wall ${wall} s, cpu ${cpu} s"
done

aw=$(printf '%s\n' "${a_wall[@]}" | median) ac=$(printf '%s\n' "${a_cpu[@]}" | median)
pw=$(printf '%s\n' "${p_wall[@]}" | median) pc=$(printf '%s\n' "${p_cpu[@]}" | median)
rss=$(printf '%s\n' "${a_rss[@]}" | median)
# The parsed columns: the label as 4-byte class codes and the score as 8-byte doubles.
columns=$((rows * (4 + 8)))
awk -v aw="$aw" -v ac="$ac" -v pw="$pw" -v pc="$pc" -v rss="$rss" -v cols="$columns" -v rows="$rows" 'BEGIN {
  printf "\nrows: %d (medians of 3)\n", rows
  printf "                      wall       cpu\n"
  printf "assay report      %7.3f s %7.3f s\n", aw, ac
  printf "pandas + sklearn  %7.3f s %7.3f s\n", pw, pc
  printf "speed-up          %7.1fx  %7.1fx   (target >= 20x)\n", pw / aw, pc / ac
  printf "assay peak RSS: %.1f MB; parsed columns, %d x (4 B code + 8 B double): %.1f MB; ratio %.2fx (target <= 2x)\n",
         rss * 1024 / 1e6, rows, cols / 1e6, rss * 1024 / cols
}'
