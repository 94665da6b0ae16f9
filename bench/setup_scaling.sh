#!/bin/sh
# SPDX-License-Identifier: MIT
# Setup cost against model size: `rodrigues check` and a 3-step `rodrigues run` of decks written
# by bench/gen_deck.py, each size RUNS times in interleaved rounds; medians of CPU time
# (user + system, /usr/bin/time) and wall time, the peak resident memory, and the growth
# against the previous size: (time ratio) / (size ratio), 1 for linear growth; then the exponent p
# of a least-squares fit of cpu = c size^p over all sizes (1 for linear growth)
# (docs/performance.md, "Setup and large models").
#
#   bench/setup_scaling.sh BUILD_DIR [KIND [SIZES [RUNS]]]
#   bench/setup_scaling.sh build                          # chain, 1000 10000 100000, 3 runs
#   bench/setup_scaling.sh build lattice "1000 8000 32768" 1
#   bench/setup_scaling.sh build beam "10000 100000 1000000" 1
#
# KIND is chain (bodies), lattice (point masses) or beam (DOFs). Run from the source root; the
# decks go to a temporary directory, removed at the end.
set -u
build=${1:?usage: bench/setup_scaling.sh BUILD_DIR [KIND [SIZES [RUNS]]]}
kind=${2:-chain}
sizes=${3:-1000 10000 100000}
runs=${4:-3}
exe="$build/rodrigues"
[ -x "$exe" ] || { echo "setup_scaling: no $exe" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "setup_scaling: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for n in $sizes; do
  python3 bench/gen_deck.py "$kind" "$n" -o "$work/$n.yaml" || exit 1
done

# one measurement: "cpu wall peak_kib" of COMMAND, appended to FILE; the exit status kept
measure() {
  file=$1
  shift
  /usr/bin/time -f "%U %S %e %M" -o "$work/t" "$@" >/dev/null 2>"$work/err"
  st=$?
  if [ $st -ne 0 ]; then
    echo "setup_scaling: failed ($st): $*" >&2
    cat "$work/err" >&2
    exit 1
  fi
  awk '{ printf "%.3f %.3f %d\n", $1 + $2, $3, $4 }' "$work/t" >>"$file"
}

round=1
while [ $round -le "$runs" ]; do
  for n in $sizes; do
    measure "$work/check_$n" "$exe" check "$work/$n.yaml"
    measure "$work/run_$n" "$exe" run "$work/$n.yaml" -o "$work/out_$n"
    rm -rf "$work/out_$n"
  done
  round=$((round + 1))
done

# median of column COL of FILE
median() {
  sort -g -k "$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "# $kind, $runs round(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-10s %-6s %10s %10s %12s %14s\n" size what "cpu s" "wall s" "peak MiB" "growth (cpu)"
for what in check run; do
  prev_n=""
  prev_t=""
  : >"$work/fit_$what"
  for n in $sizes; do
    f="$work/${what}_$n"
    cpu=$(median "$f" 1)
    wall=$(median "$f" 2)
    peak=$(median "$f" 3)
    growth="-"
    if [ -n "$prev_n" ]; then
      growth=$(awk -v a="$cpu" -v b="$prev_t" -v n="$n" -v m="$prev_n" \
        'BEGIN { printf "%.2f", (b > 0) ? (a / b) / (n / m) : 0 }')
    fi
    printf "%-10s %-6s %10.3f %10.3f %12.1f %14s\n" "$n" "$what" "$cpu" "$wall" \
      "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "$growth"
    prev_n=$n
    prev_t=$cpu
    echo "$n $cpu" >>"$work/fit_$what"
  done
done
# least-squares slope of log(cpu) against log(size)
for what in check run; do
  awk -v w="$what" '$2 > 0 { x = log($1); y = log($2); n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
    END { if (n > 1) printf "%s: cpu ~ size^%.3f (least squares over %d sizes)\n", w,
                            (n * sxy - sx * sy) / (n * sxx - sx * sx), n }' "$work/fit_$what"
done
