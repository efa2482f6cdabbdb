#!/usr/bin/env bash
# `mpirun -n N assay report` against one rank (docs/scaling.md, "MPI"). For each configuration,
# REPS runs (default 3): the median wall time, and the median CPU time (user + sys) of the busiest
# process, i.e. of the critical path; the JSON is checked identical to the one-process run, and
# the load average is printed (the machine is shared: wall times without it mean little).
#   bench/mpi_scaling.sh                   # 10^7 rows (~250 MB of CSV), distinct scores
#   bench/mpi_scaling.sh 100000000         # 10^8 rows (~2.5 GB)
#   LEVELS=1000 bench/mpi_scaling.sh       # scores with ~1000 distinct values (small states)
#   THREADS=1 bench/mpi_scaling.sh         # ASSAY_NUM_THREADS per process (default 1: one core per rank)
#   SETSID=1 bench/mpi_scaling.sh          # every process in its own session (see below)
#   STATES=1 bench/mpi_scaling.sh          # also 2 ranks on the merged states (ASSAY_MPI_RANGES=0)
#   MPIRUN_ARGS="--mca pml ob1" bench/mpi_scaling.sh  # more mpirun options: with Open MPI 4.1 on one
#                                          # machine, the UCX PML's start-up is about 0.2 s of every run
# With distinct scores, 2 ranks run the range-partitioned report (docs/scaling.md, "MPI");
# ASSAY_MPI_RANGES=0 sends them through the merged states instead (the path before session 25).
# Configurations: one process (make_report); the per-part path on one rank (ASSAY_REPORT_BY_PARTS=1,
# what each rank runs, on the whole file); 2 ranks.
# With the kernel's autogroup scheduling (/proc/sys/kernel/sched_autogroup_enabled = 1), all the
# processes of one session share one session's CPU share: on a machine busy with other sessions, 2
# ranks then get no more CPU than 1 process and their wall time cannot drop. SETSID=1 starts every
# measured process (the one-process runs too) with setsid, one session each, as separate jobs would.
# Needs the CLI built with MPI (build/assay; ASSAY=... to use another) and numpy for gen_scores.py.
set -euo pipefail
rows=${1:-10000000}
reps=${REPS:-3}
levels=${LEVELS:-0}
threads=${THREADS:-1}
here=$(cd "$(dirname "$0")" && pwd)
assay=${ASSAY:-$here/../build/assay}
dir=${BENCH_DIR:-${TMPDIR:-/tmp}}
data=$dir/assay_mpi_${rows}_${levels}.csv
mpirun=${MPIRUN:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
wrap=()
[ "${SETSID:-0}" = 1 ] && wrap=(setsid -w)
[ -f "$data" ] || /usr/bin/python3 "$here/scale/gen_scores.py" "$rows" "$data" --levels "$levels"
echo "file: $data ($(du -hL "$data" | cut -f1)), $reps runs each, ASSAY_NUM_THREADS=$threads per process," \
     "$(nproc) cores, autogroup $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo '?'), SETSID=${SETSID:-0}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Every measured process runs under /usr/bin/time, writing "user sys" to $dir/assay_mpi_cpu.<rank>.
timed=(sh -c 'exec /usr/bin/time -f "%U %S" -o "$0.${OMPI_COMM_WORLD_RANK:-0}" "$@"' "$dir/assay_mpi_cpu")
run() {  # label, ranks (0: no mpirun), then the assay arguments; sets $wall and $cpu (medians)
  local label=$1 ranks=$2; shift 2
  local walls=() cpus=()
  for _ in $(seq "$reps"); do
    rm -f "$dir"/assay_mpi_cpu.*
    local cmd=("${timed[@]}" "${wrap[@]}" "$assay" "$@")
    if [ "$ranks" -gt 0 ]; then
      # shellcheck disable=SC2206
      cmd=("$mpirun" --allow-run-as-root --oversubscribe --bind-to none ${MPIRUN_ARGS:-} -n "$ranks" -x ASSAY_NUM_THREADS="$threads"
           ${BY_PARTS:+-x ASSAY_REPORT_BY_PARTS=1} ${NO_RANGES:+-x ASSAY_MPI_RANGES=0} "${cmd[@]}")
    fi
    local t0 t1
    t0=$(date +%s.%N)
    ASSAY_NUM_THREADS="$threads" "${cmd[@]}" > "$dir/assay_mpi_$label.json"
    t1=$(date +%s.%N)
    walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')")
    cpus+=("$(cat "$dir"/assay_mpi_cpu.* | awk '{ c = $1 + $2; if (c > m) m = c } END { printf "%.2f", m }')")
  done
  wall=$(median "${walls[@]}")
  cpu=$(median "${cpus[@]}")
  echo "$label: wall median ${wall} s (runs: ${walls[*]}), CPU of the busiest process median ${cpu} s" \
       "(runs: ${cpus[*]}); load $(cut -d' ' -f1 /proc/loadavg)"
}
for args in "--score score" "--score score --weight w"; do
  echo "== assay report --label y $args"
  run one 0 report "$data" --label y $args -f json
  w1=$wall c1=$cpu
  BY_PARTS=1 run parts1 1 report "$data" --label y $args -f json
  wp=$wall cp=$cpu
  run ranks2 2 report "$data" --label y $args -f json
  w2=$wall c2=$cpu
  if [ "${STATES:-0}" = 1 ]; then
    NO_RANGES=1 run states2 2 report "$data" --label y $args -f json
    cmp "$dir/assay_mpi_one.json" "$dir/assay_mpi_states2.json" && echo "JSON of 2 ranks on the merged states identical to one process"
    awk -v w1="$w1" -v ws="$wall" -v c1="$c1" -v cs="$cpu" 'BEGIN {
      printf "ratio, merged states: one process / 2 ranks %.2fx wall, %.2fx CPU of the critical path\n", w1 / ws, c1 / cs }'
  fi
  cmp "$dir/assay_mpi_one.json" "$dir/assay_mpi_ranks2.json" && echo "JSON of 2 ranks identical to one process"
  cmp "$dir/assay_mpi_one.json" "$dir/assay_mpi_parts1.json" && echo "JSON of the per-part path identical to one process"
  awk -v w1="$w1" -v wp="$wp" -v w2="$w2" -v c1="$c1" -v cp="$cp" -v c2="$c2" 'BEGIN {
    printf "ratio, wall: one process / 2 ranks %.2fx, per-part path 1 rank / 2 ranks %.2fx\n", w1 / w2, wp / w2
    printf "ratio, CPU of the critical path: one process / 2 ranks %.2fx, per-part path 1 rank / 2 ranks %.2fx\n", c1 / c2, cp / c2 }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
