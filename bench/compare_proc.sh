#!/usr/bin/env bash
# assay's AUC inference vs R pROC 1.18 and a numpy + scikit-learn bootstrap loop (issue 4, "Speed"),
# all on the same generated `label,a,b` CSV in the same run. Prints the medians of RUNS runs of each
# and their ratios against the targets:
#   DeLong interval at 10^6, assay delong_ci vs pROC roc() + ci.auc(method = "delong")      (>= 10x)
#   paired DeLong test at 10^6, assay vs two roc() + roc.test(method = "delong")           (>= 10x)
#   2000 stratified bootstrap replicates of the AUC at 10^6 on 2 threads                   (< 10 s)
#   per replicate at 10^5: assay vs a numpy loop of sklearn roc_auc_score (SK_REPS reps)    (>= 50x)
#   and pROC ci.auc(method = "bootstrap", boot.n = 2000) at 10^5 (BOOT_RUNS runs; ~1 min each)
#
#   bench/compare_proc.sh [ROWS=1000000]
#   env: RUNS=3 BOOT_RUNS=3 SK_REPS=50 SMALL=100000 THREADS=2 TIMING=build/bench/stats_timing
# Only the computations are timed, from arrays in memory (not the CSV reading, not R's start-up).
# Needs Rscript with pROC (Debian r-cran-proc; scripts/install-deps.sh installs it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
rows="${1:-1000000}"
runs="${RUNS:-3}" boot_runs="${BOOT_RUNS:-3}" sk_reps="${SK_REPS:-50}" small="${SMALL:-100000}" threads="${THREADS:-2}"
timing="${TIMING:-$here/../build/bench/stats_timing}"
py=/usr/bin/python3
data="${TMPDIR:-/tmp}/assay_proc_${rows}.csv"

[[ -x "$timing" ]] || { echo "compare_proc: no $timing (cmake -DASSAY_BUILD_BENCH=ON; build target stats_timing)" >&2; exit 2; }
command -v Rscript >/dev/null || { echo "compare_proc: Rscript missing: run scripts/install-deps.sh" >&2; exit 2; }
Rscript -e 'suppressMessages(library(pROC))' >/dev/null 2>&1 || { echo "compare_proc: R package pROC missing: run scripts/install-deps.sh" >&2; exit 2; }
generate_once "$here/compare_proc.py" "$rows" "$data"

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
echo "assay (threads=$threads) ..."
"$timing" "$data" "$runs" 2000 "$threads" "$small" | sed 's/^/assay /' | tee -a "$out"
echo "pROC $(Rscript -e 'cat(as.character(packageVersion("pROC")))') ..."
Rscript "$here/compare_proc.R" "$data" "$runs" "$boot_runs" "$small" | sed 's/^/proc /' | tee -a "$out"
echo "numpy + scikit-learn ..."
for i in $(seq "$runs"); do
  "$py" "$here/compare_proc.py" sklearn "$data" "$small" "$sk_reps" | sed 's/^/sklearn /' | tee -a "$out"
done

# median of the 4th field of the lines matching "who what rows"
med() { awk -v w="$1" -v x="$2" -v r="$3" '$1 == w && $2 == x && $3 == r { print $4 }' "$out" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else print v[int((NR + 1) / 2)] }'; }
a_ci=$(med assay delong_ci "$rows") p_ci=$(med proc delong_ci "$rows")
a_pt=$(med assay delong_paired "$rows") p_pt=$(med proc delong_paired "$rows")
a_bb=$(med assay bootstrap_auc "$rows") a_bs=$(med assay bootstrap_auc "$small")
p_bs=$(med proc bootstrap_auc_2000 "$small") s_rep=$(med sklearn sklearn_bootstrap_auc "$small")
awk -v rows="$rows" -v small="$small" -v runs="$runs" -v br="$boot_runs" -v t="$threads" \
    -v a_ci="$a_ci" -v p_ci="$p_ci" -v a_pt="$a_pt" -v p_pt="$p_pt" -v a_bb="$a_bb" -v a_bs="$a_bs" \
    -v p_bs="$p_bs" -v s_rep="$s_rep" 'BEGIN {
  printf "\nmedians of %d runs (pROC bootstrap: %d), seconds\n", runs, br
  printf "DeLong interval, %d rows:       assay %8.4f  pROC %8.3f  ratio %7.1fx (target >= 10x)\n", rows, a_ci, p_ci, p_ci / a_ci
  printf "paired DeLong test, %d rows:    assay %8.4f  pROC %8.3f  ratio %7.1fx (target >= 10x)\n", rows, a_pt, p_pt, p_pt / a_pt
  printf "2000 bootstrap replicates, %d rows, %d threads: assay %.3f s (target < 10 s)\n", rows, t, a_bb
  printf "2000 bootstrap replicates, %d rows: assay %.3f s, pROC %.2f s, ratio %.1fx\n", small, a_bs, p_bs, p_bs / a_bs
  printf "per replicate, %d rows: assay %.3g ms, numpy+sklearn %.3g ms, ratio %.1fx (target >= 50x)\n", small,
         1000 * a_bs / 2000, 1000 * s_rep, s_rep / (a_bs / 2000)
}'
