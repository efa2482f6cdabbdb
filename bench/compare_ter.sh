#!/usr/bin/env bash
# assay text ter against sacreBLEU's TER (sacrebleu.metrics.TER, default options), timed in the
# same run (issue 30, "Speed": TER on 10^5 sentence pairs, target >= 20x sacreBLEU).
# Prints the median of RUNS runs of each side (wall clock, and CPU = user + system, which a busy
# shared machine disturbs less), the ratios, and both scores (they must agree).
#
#   bench/compare_ter.sh [N] [RUNS]   (default 100000 pairs, 3 runs; ASSAY=path/to/assay,
#                                      PYTHON=python with sacrebleu, default .venv/bin/python)
#
# Data are generated once into ${TMPDIR:-/tmp}/assay_ter_N (bench/compare_ter.py gen). sacreBLEU's
# times cover reading the files and scoring (not the interpreter start); assay's are the whole process.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
n="${1:-100000}"
runs="${2:-3}"
assay="${ASSAY:-$here/../build/assay}"
py="${PYTHON:-$here/../.venv/bin/python}"
dir="${TMPDIR:-/tmp}/assay_ter_$n"

[[ -x "$assay" ]] || { echo "compare_ter: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "compare_ter: /usr/bin/time missing" >&2; exit 2; }
"$py" -c "import sacrebleu" 2>/dev/null || { echo "compare_ter: $py has no sacrebleu (set PYTHON=...)" >&2; exit 2; }
mkdir -p "$dir"
[[ -s "$dir/hyp.txt" ]] || { echo "generating $n sentence pairs in $dir ..."; "$py" "$here/compare_ter.py" gen "$dir" "$n" 1; }
cat "$dir"/* >/dev/null  # warm the page cache

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
log="$(mktemp)" out="$(mktemp)"
trap 'rm -f "$log" "$out"' EXIT

a_wall=() a_cpu=() p_wall=() p_cpu=()
for ((r = 0; r < runs; r++)); do
  /usr/bin/time -v -o "$log" "$assay" text ter --hyp "$dir/hyp.txt" --ref "$dir/ref.txt" --format json >"$out"
  a_wall+=("$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")")
  a_cpu+=("$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$log")")
  a_score=$("$py" -c "import json,sys; print('%.10f' % json.load(open(sys.argv[1]))['ter'])" "$out")
  read -r w c p_score version < <("$py" "$here/compare_ter.py" run "$dir/hyp.txt" "$dir/ref.txt")
  p_wall+=("$w") p_cpu+=("$c")
done
aw=$(printf '%s\n' "${a_wall[@]}" | median) ac=$(printf '%s\n' "${a_cpu[@]}" | median)
pw=$(printf '%s\n' "${p_wall[@]}" | median) pc=$(printf '%s\n' "${p_cpu[@]}" | median)
echo "TER of $n sentence pairs, median of $runs runs ($(nproc) cores)"
printf '  %-22s wall %8.3f s   cpu %8.3f s   TER %s\n' "assay text ter" "$aw" "$ac" "$a_score"
printf '  %-22s wall %8.3f s   cpu %8.3f s   TER %s\n' "sacreBLEU $version" "$pw" "$pc" "$p_score"
awk -v aw="$aw" -v ac="$ac" -v pw="$pw" -v pc="$pc" \
  'BEGIN { printf "  ratio (sacreBLEU / assay): wall %.1fx, cpu %.1fx (target 20x)\n", pw / aw, pc / ac }'
[[ "$a_score" == "$p_score" ]] || { echo "compare_ter: the scores differ" >&2; exit 1; }
