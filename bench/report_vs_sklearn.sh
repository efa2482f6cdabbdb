#!/usr/bin/env bash
# assay report --format json against its two peers on a 10^7-row `label,score` CSV (issue 13,
# "Speed"), all in the same run, medians of RUNS runs each (wall clock, and CPU = user + system,
# which a busy shared machine disturbs less):
#   1. pandas.read_csv + confusion_matrix + classification_report   (target: assay >= 25x faster)
#   2. pandas.read_csv + roc_auc_score + average_precision_score    (target: assay >= 15x faster)
# `assay report` computes both sets of numbers (and more) in one process; its time is the whole
# process, the peers' only their work (not the interpreter start or the imports). Runs alternate
# (assay, peer 1, peer 2, assay, ...) so that a change in the machine's load hits all three alike.
#
#   bench/report_vs_sklearn.sh [ROWS] [RUNS]   (defaults 10000000 and 5; ASSAY=path/to/assay,
#                                               PYTHON=path/to/python with pandas + scikit-learn,
#                                               default the worktree's .venv)
#
# The data file (bench/compare_sklearn.py generate) goes to ${TMPDIR:-/tmp} once. Needs /usr/bin/time
# (scripts/install-deps.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
rows="${1:-10000000}"
runs="${2:-5}"
assay="${ASSAY:-$here/../build/assay}"
py="${PYTHON:-$here/../.venv/bin/python}"
data="${TMPDIR:-/tmp}/assay_compare_${rows}.csv"

[[ -x "$assay" ]] || { echo "report_vs_sklearn: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
[[ -x "$py" ]] || { echo "report_vs_sklearn: no python at $py (scripts/install-deps.sh, or set PYTHON=...)" >&2; exit 2; }
need_time report_vs_sklearn
generate_once "$here/compare_sklearn.py" "$rows" "$data"
warm_cache "$data"
"$py" -c 'import pandas, sklearn; print(f"peers: pandas {pandas.__version__}, scikit-learn {sklearn.__version__}")'

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
a_wall=() a_cpu=() r_wall=() r_cpu=() k_wall=() k_cpu=()
for ((i = 1; i <= runs; i++)); do
  /usr/bin/time -v -o "$log" "$assay" report "$data" --label label --score score --format json >/dev/null
  a_wall+=("$(wall_s "$log")") a_cpu+=("$(cpu_s "$log")")
  read -r w c < <("$py" "$here/report_vs_sklearn.py" report "$data")
  r_wall+=("$w") r_cpu+=("$c")
  read -r w2 c2 < <("$py" "$here/report_vs_sklearn.py" ranking "$data")
  k_wall+=("$w2") k_cpu+=("$c2")
  echo "run $i: assay ${a_wall[-1]} s (cpu ${a_cpu[-1]}), report peer $w s (cpu $c), ranking peer $w2 s (cpu $c2)"
done

med() { printf '%s\n' "$@" | median; }
aw=$(med "${a_wall[@]}") ac=$(med "${a_cpu[@]}")
rw=$(med "${r_wall[@]}") rc=$(med "${r_cpu[@]}")
kw=$(med "${k_wall[@]}") kc=$(med "${k_cpu[@]}")
awk -v aw="$aw" -v ac="$ac" -v rw="$rw" -v rc="$rc" -v kw="$kw" -v kc="$kc" -v rows="$rows" -v runs="$runs" 'BEGIN {
  printf "\nrows: %d (medians of %d)\n", rows, runs
  printf "                                                  wall       cpu   ratio wall  ratio cpu\n"
  printf "assay report --format json                    %7.3f s %7.3f s\n", aw, ac
  printf "read_csv + confusion_matrix + class._report   %7.3f s %7.3f s   %7.1fx   %7.1fx   (target >= 25x)\n", rw, rc, rw / aw, rc / ac
  printf "read_csv + roc_auc_score + avg_precision      %7.3f s %7.3f s   %7.1fx   %7.1fx   (target >= 15x)\n", kw, kc, kw / aw, kc / ac
}'
