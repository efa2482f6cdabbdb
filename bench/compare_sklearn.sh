#!/usr/bin/env bash
# assay report vs pandas + scikit-learn on a 10^7-row `label,score` CSV (issue 2, "Speed").
# Prints the median of 3 wall-clock times of each, their ratio (target: assay >= 20x faster), and
# assay's peak RSS against the size of the columns it parses (target: <= 2x).
#
#   bench/compare_sklearn.sh [ROWS]      (default 10000000; ASSAY=path/to/assay to pick the binary)
#
# The data file is generated once into ${TMPDIR:-/tmp}. Needs /usr/bin/time (Debian package `time`,
# installed by scripts/install-deps.sh). The machine may be shared: quote medians, rerun when noisy.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rows="${1:-10000000}"
assay="${ASSAY:-$here/../build/assay}"
py=/usr/bin/python3
data="${TMPDIR:-/tmp}/assay_compare_${rows}.csv"

[[ -x "$assay" ]] || { echo "compare_sklearn: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "compare_sklearn: /usr/bin/time missing: run scripts/install-deps.sh" >&2; exit 2; }
if [[ ! -s "$data" ]]; then
  echo "generating $data ($rows rows) ..."
  "$py" "$here/compare_sklearn.py" generate "$rows" "$data.part" && mv "$data.part" "$data"
fi
cat "$data" >/dev/null  # warm the page cache so that neither side pays for the disk

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
assay_times=() assay_rss=()
for i in 1 2 3; do
  /usr/bin/time -v -o "$log" "$assay" report "$data" --label label --score score --format json >/dev/null
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")
  assay_times+=("$wall") assay_rss+=("$rss")
  echo "assay run $i: ${wall} s, peak RSS ${rss} KiB"
done
py_times=()
for i in 1 2 3; do
  t=$("$py" "$here/compare_sklearn.py" run "$data")
  py_times+=("$t")
  echo "python run $i: ${t} s"
done

a=$(printf '%s\n' "${assay_times[@]}" | median)
p=$(printf '%s\n' "${py_times[@]}" | median)
rss=$(printf '%s\n' "${assay_rss[@]}" | median)
# The parsed columns: the label as 4-byte class codes and the score as 8-byte doubles.
columns=$((rows * (4 + 8)))
awk -v a="$a" -v p="$p" -v rss="$rss" -v cols="$columns" -v rows="$rows" 'BEGIN {
  printf "\nrows: %d\n", rows
  printf "assay report (median of 3):                 %.3f s\n", a
  printf "pandas + sklearn (median of 3):             %.3f s\n", p
  printf "speed-up:                                   %.1fx (target >= 20x)\n", p / a
  printf "assay peak RSS (median of 3):               %.1f MB\n", rss * 1024 / 1e6
  printf "parsed columns (rows x (4 B code + 8 B double)): %.1f MB\n", cols / 1e6
  printf "peak RSS / parsed columns:                  %.2fx (target <= 2x)\n", rss * 1024 / cols
}'
