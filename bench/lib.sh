# shellcheck shell=bash
# Shell functions shared by the bench/compare_*.sh scripts (source it; it runs nothing by itself).
# The callers set `set -euo pipefail` and use /usr/bin/python3.

# need_time CALLER: /usr/bin/time (Debian package `time`) is needed for wall clock, CPU and peak RSS.
need_time() {
  [[ -x /usr/bin/time ]] || { echo "$1: /usr/bin/time missing: run scripts/install-deps.sh" >&2; exit 2; }
}

# generate_once GENERATOR ROWS FILE: writes FILE with `GENERATOR generate ROWS FILE.part` unless FILE
# already exists (then renames, so an interrupted run leaves no half file behind).
generate_once() {
  if [[ ! -s "$3" ]]; then
    echo "generating $3 ($2 rows) ..."
    /usr/bin/python3 "$1" generate "$2" "$3.part" && mv "$3.part" "$3"
  fi
}

# Reads a file once so that the page cache holds it and no timed run pays for the disk.
warm_cache() { cat "$1" >/dev/null; }

# The median of the numbers on standard input, one a line (the upper one of an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
max() { sort -g | tail -n 1; }

# From a `/usr/bin/time -v -o LOG` report: wall clock in seconds, CPU (user + system) in seconds, peak
# resident set size in KiB.
wall_s() {
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"
}
cpu_s() { awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$1"; }
rss_kib() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$1"; }
