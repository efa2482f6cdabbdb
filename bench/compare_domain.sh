#!/usr/bin/env bash
# assay detection and assay text bleu against pure-Python reference implementations
# (bench/compare_domain.py), timed in the same run (issue 7, "Speed"):
#   - COCO bbox evaluation of 5,000 images x 100 detections over 80 classes (synthetic, seed 1);
#     target: assay >= 10x faster than the Python reference of the same procedure;
#   - corpus BLEU (13a, exp smoothing) of 10^5 sentence pairs (synthetic, seed 1); target < 1 s.
# Prints the median of 3 runs of each side (wall clock, and CPU = user + system, which a busy shared
# machine disturbs less), the ratios, and both sides' numbers (they must agree).
#
#   bench/compare_domain.sh [RUNS]      (default 3; ASSAY=path/to/assay to pick the binary)
#
# Data files are generated once into ${TMPDIR:-/tmp}/assay_domain. Python's times cover reading the
# files and evaluating (not the interpreter start); assay's are the whole process.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
runs="${1:-3}"
assay="${ASSAY:-$here/../build/assay}"
py=/usr/bin/python3
dir="${TMPDIR:-/tmp}/assay_domain"

[[ -x "$assay" ]] || { echo "compare_domain: no assay binary at $assay (build it, or set ASSAY=...)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "compare_domain: /usr/bin/time missing: run scripts/install-deps.sh" >&2; exit 2; }
mkdir -p "$dir"
[[ -s "$dir/coco_dt.json" ]] || { echo "generating COCO data in $dir ..."; "$py" "$here/compare_domain.py" gen-coco "$dir" 1; }
[[ -s "$dir/hyp.txt" ]] || { echo "generating text data in $dir ..."; "$py" "$here/compare_domain.py" gen-text "$dir" 100000 1; }
cat "$dir"/* >/dev/null  # warm the page cache

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
log="$(mktemp)" out="$(mktemp)"
trap 'rm -f "$log" "$out"' EXIT

# time_assay NAME ARGS...: appends "wall cpu" to the array named NAME
time_assay() {
  local -n acc=$1
  shift
  /usr/bin/time -v -o "$log" "$assay" "$@" >"$out"
  local wall cpu
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$log")
  acc+=("$wall $cpu")
}

coco_a=() coco_p=() bleu_a=() bleu_p=()
for i in $(seq "$runs"); do
  time_assay coco_a detection --gt "$dir/coco_gt.json" --dt "$dir/coco_dt.json" --format json
  a_ap=$("$py" -c 'import json,sys; s=json.load(open(sys.argv[1]))["stats"]; print("%.12f %.12f %.12f" % (s["AP"], s["AP50"], s["AR100"]))' "$out")
  echo "assay  detection run $i: wall/cpu ${coco_a[-1]}  AP AP50 AR100 = $a_ap"
  read -r w c p_ap p_ap50 p_ar < <("$py" "$here/compare_domain.py" run-coco "$dir/coco_gt.json" "$dir/coco_dt.json")
  coco_p+=("$w $c")
  echo "python detection run $i: wall/cpu $w $c  AP AP50 AR100 = $p_ap $p_ap50 $p_ar"
  time_assay bleu_a text bleu --hyp "$dir/hyp.txt" --ref "$dir/ref.txt" --format json
  a_bleu=$("$py" -c 'import json,sys; print("%.10f" % json.load(open(sys.argv[1]))["bleu"])' "$out")
  echo "assay  bleu run $i: wall/cpu ${bleu_a[-1]}  BLEU = $a_bleu"
  read -r w c p_bleu < <("$py" "$here/compare_domain.py" run-bleu "$dir/hyp.txt" "$dir/ref.txt")
  bleu_p+=("$w $c")
  echo "python bleu run $i: wall/cpu $w $c  BLEU = $p_bleu"
done

col() { local -n arr=$1; printf '%s\n' "${arr[@]}" | awk -v k="$2" '{ print $k }' | median; }
caw=$(col coco_a 1) cac=$(col coco_a 2) cpw=$(col coco_p 1) cpc=$(col coco_p 2)
baw=$(col bleu_a 1) bac=$(col bleu_a 2) bpw=$(col bleu_p 1) bpc=$(col bleu_p 2)
awk -v caw="$caw" -v cac="$cac" -v cpw="$cpw" -v cpc="$cpc" -v baw="$baw" -v bac="$bac" -v bpw="$bpw" -v bpc="$bpc" \
    -v runs="$runs" 'BEGIN {
  printf "\nmedians of %d runs                       wall       cpu\n", runs
  printf "COCO 5000 img x 100 det, 80 classes\n"
  printf "  assay detection                   %7.3f s %7.3f s\n", caw, cac
  printf "  Python reference                  %7.3f s %7.3f s\n", cpw, cpc
  printf "  speed-up                          %7.1fx  %7.1fx   (target >= 10x)\n", cpw / caw, cpc / cac
  printf "corpus BLEU, 10^5 sentence pairs\n"
  printf "  assay text bleu                   %7.3f s %7.3f s   (target < 1 s)\n", baw, bac
  printf "  Python reference                  %7.3f s %7.3f s\n", bpw, bpc
  printf "  speed-up                          %7.1fx  %7.1fx\n", bpw / baw, bpc / bac
}'
