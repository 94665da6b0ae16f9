#!/bin/sh
# Time the 16-case rotor-speed sweep of the NREL 5-MW blade (bench/sweep/nrel5mw_rotor_speeds.yaml)
# one after another, on MPI ranks (mpirun -n 2: a coordinator and one worker; -n 3: two workers)
# and with --jobs 2, in interleaved rounds; print each run's wall and CPU time, the medians, the
# parallel efficiencies and the coordinator's figures, and check that every way gives the same
# table. Run from the source root with a build that has rodrigues-sweep:
#   sh bench/sweep_nrel.sh build [ROUNDS]
set -u
build=${1:?usage: bench/sweep_nrel.sh BUILD_DIR [ROUNDS]}
rounds=${2:-3}
exe="$build/rodrigues"
sweep=bench/sweep/nrel5mw_rotor_speeds.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=""
if [ "$(id -u)" -eq 0 ]; then root="--allow-run-as-root"; fi

# run NAME COMMAND...: one timed sweep into a fresh directory; appends "NAME wall user+sys"
run() {
  name=$1
  shift
  rm -rf "$tmp/$name"
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" -o "$tmp/$name" >"$tmp/$name.out" 2>&1
  read -r wall user sys <"$tmp/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
  echo "$name $wall $cpu" >>"$tmp/times"
  printf '%-8s wall %7.2f s  cpu %7.2f s  %s\n' "$name" "$wall" "$cpu" \
    "$(grep -h 'ranks' "$tmp/$name.out" | sed 's/^[0-9]* ranks ([0-9]* workers): //')"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for r in $(seq "$rounds"); do
  echo "round $r"
  run serial "$exe" sweep "$sweep"
  run mpi2 mpirun $root -n 2 "$exe" sweep "$sweep"
  run mpi3 mpirun $root --oversubscribe -n 3 "$exe" sweep "$sweep"
  run jobs2 "$exe" sweep "$sweep" --jobs 2
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# the same table every way (but the wall times)
no_wall() {
  awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "wall_time") w = k }
           { out = ""; for (k = 1; k <= NF; k++) if (k != w) out = out (out == "" && k == 1 ? "" : ",") $k; print out }' "$1"
}
no_wall "$tmp/serial/sweep.csv" >"$tmp/ref.csv"
for name in mpi2 mpi3 jobs2; do
  no_wall "$tmp/$name/sweep.csv" | cmp -s - "$tmp/ref.csv" && same=same || same=DIFFERENT
  echo "$name: table $same as serial"
done

# medians and efficiencies: speed-up T1/Tp over p processes (mpi2: 2 ranks, 1 worker; mpi3: 3
# ranks, 2 workers on 2 cores; jobs2: 2 workers)
median() {
  awk -v n="$1" '$1 == n { print $2 }' "$tmp/times" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
t1=$(median serial)
for spec in "mpi2 2 1" "mpi3 3 2" "jobs2 2 2"; do
  set -- $spec
  tp=$(median "$1")
  awk -v n="$1" -v t1="$t1" -v tp="$tp" -v p="$2" -v w="$3" 'BEGIN {
    printf "%s: median wall %.2f s against %.2f s one after another: speed-up %.2f, efficiency %.2f per process, %.2f per worker\n", n, tp, t1, t1 / tp, t1 / (p * tp), t1 / (w * tp) }'
done
awk -F'"wall_time": ' 'NF > 1 { sub(/,.*/, "", $2); s += $2; n++ } END { printf "serial: %d cases, %.3f s per case on average\n", n, s / n }' "$tmp"/serial/cases/*/result.json
