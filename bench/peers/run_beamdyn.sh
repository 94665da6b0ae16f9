#!/bin/bash
# SPDX-License-Identifier: MIT
# Run OpenFAST's BeamDyn driver (built by you, outside this repository: bench/peers/README.md) on
# our beam cases, optionally interleaved with rodrigues on the same models, and print per step:
# CPU time, Newton iterations, factorizations and, with --callgrind, instructions.
#
# usage: bench/peers/run_beamdyn.sh [--rounds R] [--rodrigues] [--modified] [--callgrind]
#                                   [--stop-tol TOL] [--n-fact K] [--keep DIR] [CASE...]
#   CASE        az00 az90 rotating composite5 composite9 composite17 composite33 (default: all)
#   --rounds R  timed rounds (default 5) after one untimed round that counts Newton iterations;
#               each round runs every case and code in turn (interleaved); medians are printed
#   --rodrigues also run rodrigues on the same model (full Newton, its defaults)
#   --modified  also run rodrigues with solver.modified_newton=true (implies --rodrigues)
#   --callgrind instead of timing: instructions per step under valgrind's callgrind
#   --stop-tol  BeamDyn's stop_tol for every case (default: BeamDyn's own default, 1e-5)
#   --n-fact K  BeamDyn refactors its Jacobian every K Newton iterations, for every case
#               (default: the NREL decks as given, i.e. BeamDyn's default 5; the composites 1,
#               since with 5 BeamDyn's Newton fails at the load step from 17 nodes up)
#   --keep DIR  keep the working directories (BeamDyn decks, outputs, logs) in DIR
# environment:
#   BEAMDYN_DRIVER  the beamdyn_driver executable (required)
#   BEAMDYN_LIBRARY_PATH  prepended to LD_LIBRARY_PATH for BeamDyn's runs only, e.g.
#                   /usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack to run a driver
#                   linked to liblapack.so.3/libblas.so.3 with Debian's reference BLAS
#   RODRIGUES       the rodrigues CLI (default: build/rodrigues of the source root)
#   OPENBLAS_NUM_THREADS is set to 1 (BeamDyn's LAPACK calls, rodrigues' dense blocks)
#
# Every quantity is per step, from two run lengths of the same case (T1 and T2, e.g. 100 and
# 500 steps): (X(T2) - X(T1)) / (steps(T2) - steps(T1)), so setup, input parsing and process
# start cancel. Both codes take the same steps: BeamDyn's driver steps to t_final + dt, so
# rodrigues runs to T + dt. Newton iterations of BeamDyn are its dgetrs calls minus one per step
# (the driver's output solves for the accelerations once per step, BD_CalcForceAcc), counted
# with an LD_PRELOAD library built here; factorizations likewise (dgetrf minus one). Run from
# the source root.
set -euo pipefail
shopt -s inherit_errexit

cd "$(dirname "$0")/../.."
ROOT=$PWD
PEERS=$ROOT/bench/peers
NREL=$ROOT/tests/data/nrel5mw_blade
RODRIGUES=${RODRIGUES:-$ROOT/build/rodrigues}
export OPENBLAS_NUM_THREADS=1

# shellcheck source=bench/peers/common.sh
. "$PEERS/common.sh"

stop_tol="" n_fact=""
# extra_option ARGS...: run_beamdyn.sh's own options (parse_options)
extra_option() {
  case $1 in
    --stop-tol) stop_tol=$2; extra_shift=2 ;;
    --n-fact) n_fact=$2; extra_shift=2 ;;
  esac
}


parse_options "$@"
[ ${#cases[@]} -gt 0 ] || cases=(az00 az90 rotating composite5 composite9 composite17 composite33)
peers_setup BEAMDYN_DRIVER "OpenFAST's beamdyn_driver"


# case_params CASE: "DT T1 T2 C1 C2 RODRIGUES_DECK ROOT TIP": step, the two timed run lengths,
# the two callgrind run lengths, the rodrigues deck and its root and tip nodes
case_params() {
  case $1 in
    az00) echo "0.01 1 5 0.1 0.6 input/beam/nrel5mw_gravity_az00.yaml blade_0 blade_5" ;;
    az90) echo "0.01 1 5 0.1 0.6 input/beam/nrel5mw_gravity_az90.yaml blade_0 blade_5" ;;
    rotating) echo "0.002 0.2 1 0.02 0.12 input/beam/nrel5mw_rotating.yaml blade_0 blade_5" ;;
    composite5) echo "0.005 0.5 5 0.1 0.6 - blade_0 blade_4" ;;
    composite9) echo "0.005 0.5 5 0.1 0.6 - blade_0 blade_8" ;;
    composite17) echo "0.005 0.5 2.5 0.1 0.35 - blade_0 blade_16" ;;
    composite33) echo "0.005 0.2 1 0.05 0.15 - blade_0 blade_32" ;;
    *) echo "run_beamdyn.sh: unknown case $1" >&2; return 1 ;;
  esac
}


# beamdyn_decks CASE DIR T: BeamDyn's driver, primary and blade files for CASE to t_final = T
beamdyn_decks() {
  local c=$1 dir=$2 t=$3 driver
  mkdir -p "$dir"
  case $c in
    composite*)
      python3 "$PEERS/beamdyn_composite.py" "$dir" --nodes "${c#composite}" --final "$t" \
        --stop-tol "${stop_tol:-default}" --n-fact "${n_fact:-1}" ;;
    *)
      case $c in
        az00) driver=5MW_dynamic_gravity_Az00_driver.inp ;;
        az90) driver=5MW_dynamic_gravity_Az90_driver.inp ;;
        rotating) driver=5MW_dynamic_driver.inp ;;
      esac
      cp "$NREL/bd_primary.inp" "$NREL/beam_props.inp" "$dir/"
      sed "s/^ *[0-9.eE+-]* *t_final /$(printf '%11s' "$t")   t_final /" "$NREL/$driver" \
        > "$dir/bd_driver.inp"
      if [ -n "$stop_tol" ]; then
        sed -i "s/^\"DEFAULT\" *stop_tol /$(printf '%-13s' "$stop_tol") stop_tol /" \
          "$dir/bd_primary.inp"
      fi
      if [ -n "$n_fact" ]; then
        sed -i "s/^\"DEFAULT\" *n_fact /$(printf '%-13s' "$n_fact") n_fact /" "$dir/bd_primary.inp"
      fi ;;
  esac
}


# rodrigues_deck CASE DT: the rodrigues deck of CASE (composites: written next to their decks)
rodrigues_deck() {
  local c=$1 deck
  deck=$(case_params "$c" | awk '{print $6}')
  if [ "$deck" = - ]; then
    deck=$work/$c/rodrigues.yaml
    [ -f "$deck" ] || python3 "$PEERS/beamdyn_composite.py" "$work/$c/scratch" \
      --nodes "${c#composite}" --rodrigues "$deck" > /dev/null
  else
    deck=$ROOT/$deck
  fi
  echo "$deck"
}


# beamdyn_tip OUT: "|u| ANGLE" of the last row: |TipTD| and 4 atan(|TipRD| / 4)
beamdyn_tip() {
  python3 - "$1" <<'PY'
import math, sys
lines = open(sys.argv[1]).read().splitlines()
head = next(l.split() for l in lines if l.startswith("Time"))
last = lines[-1].split()
v = {k: float(x) for k, x in zip(head, last)}
u = math.sqrt(sum(v["TipTD%sr" % a] ** 2 for a in "xyz"))
c = math.sqrt(sum(v["TipRD%sr" % a] ** 2 for a in "xyz"))
print(f"{u:.9g} {4 * math.atan(c / 4):.9g}")
PY
}


# run_code CODE CASE T MODE: one run of CODE (beamdyn, rodrigues, rodrigues_mod) on CASE to T;
# MODE cpu prints the CPU seconds, count the Newton and factorization counts, callgrind the Ir
run_code() {
  local code=$1 c=$2 t=$3 mode=$4 dt dir deck cmd
  dt=$(case_params "$c" | awk '{print $1}')
  dir=$work/$c/$code-$t
  mkdir -p "$dir"
  cd "$dir"  # BeamDyn reads its files relative to the working directory (run_code runs in $(...))
  if [ "$code" = beamdyn ]; then
    [ -f "$dir/bd_driver.inp" ] || beamdyn_decks "$c" "$dir" "$t"
    cmd=("$BEAMDYN_DRIVER" bd_driver.inp)
    if [ -n "${BEAMDYN_LIBRARY_PATH:-}" ]; then
      export LD_LIBRARY_PATH=$BEAMDYN_LIBRARY_PATH${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fi
  else
    deck=$(rodrigues_deck "$c")
    cmd=("$RODRIGUES" run "$deck" -o "$dir" --set "solver.final_time=$(awk -v t="$t" -v h="$dt" \
      'BEGIN {printf "%.10g", t + h}')" --set output.every=1000000000)
    [ "$code" = rodrigues_mod ] && cmd+=(--set solver.modified_newton=true)
  fi
  measure "$mode" "$code" "$c" "$dir" beamdyn_counts "${cmd[@]}"
}


# beamdyn_counts FILE: "SOLVES FACTORIZATIONS" (dgetrs, dgetrf) from the call counter's FILE
beamdyn_counts() {
  echo "$(count_of "$1" dgetrs) $(count_of "$1" dgetrf)"
}


# tip_of CODE CASE T: "|u| ANGLE" at the end of the run to T
tip_of() {
  local dir=$work/$2/$1-$3 nodes
  if [ "$1" = beamdyn ]; then
    beamdyn_tip "$dir/bd_driver.out"
  else
    nodes=$(case_params "$2" | awk '{print $7, $8}')
    # shellcheck disable=SC2086
    rodrigues_tip "$dir" $nodes
  fi
}


for c in "${cases[@]}"; do
  case_params "$c" > /dev/null
done

codes=(beamdyn)
[ $with_rd = 1 ] && codes+=(rodrigues)
[ $with_mod = 1 ] && codes+=(rodrigues_mod)
declare -A cpu steps1 steps2 newton fact

for c in "${cases[@]}"; do
  read -r dt t1 t2 g1 g2 _ <<< "$(case_params "$c")"
  steps1[$c]=$(awk -v t="$t1" -v h="$dt" 'BEGIN {printf "%d", t / h + 1.5}')
  steps2[$c]=$(awk -v t="$t2" -v h="$dt" 'BEGIN {printf "%d", t / h + 1.5}')
done

if [ $callgrind = 1 ]; then
  command -v valgrind > /dev/null || { echo "run_beamdyn.sh: valgrind is not installed" >&2; exit 1; }
  for c in "${cases[@]}"; do
    read -r dt _ _ g1 g2 _ <<< "$(case_params "$c")"
    n1=$(awk -v t="$g1" -v h="$dt" 'BEGIN {printf "%d", t / h + 1.5}')
    n2=$(awk -v t="$g2" -v h="$dt" 'BEGIN {printf "%d", t / h + 1.5}')
    for code in "${codes[@]}"; do
      a=$(run_code "$code" "$c" "$g1" callgrind)
      b=$(run_code "$code" "$c" "$g2" callgrind)
      printf '%-12s %-14s Ir/step %12.0f   (steps %d and %d: Ir %s and %s)\n' "$c" "$code" \
        "$(per_step "$a" "$b" "$n1" "$n2")" "$n1" "$n2" "$a" "$b"
    done
  done
  exit 0
fi

# round 0: untimed, counts the Newton iterations and factorizations
for c in "${cases[@]}"; do
  read -r dt t1 t2 _ <<< "$(case_params "$c")"
  for code in "${codes[@]}"; do
    out1=$(run_code "$code" "$c" "$t1" count)
    out2=$(run_code "$code" "$c" "$t2" count)
    read -r i1 f1 <<< "$out1"
    read -r i2 f2 <<< "$out2"
    off=0
    [ "$code" = beamdyn ] && off=1
    newton[$c.$code]=$(awk -v a="$i1" -v b="$i2" -v n="${steps1[$c]}" -v m="${steps2[$c]}" \
      -v o=$off 'BEGIN {printf "%.3f", (b - a) / (m - n) - o}')
    fact[$c.$code]=$(awk -v a="$f1" -v b="$f2" -v n="${steps1[$c]}" -v m="${steps2[$c]}" \
      -v o=$off 'BEGIN {printf "%.3f", (b - a) / (m - n) - o}')
  done
done

# timed rounds, interleaved: every case and code in turn
for _ in $(seq 1 "$rounds"); do
  for c in "${cases[@]}"; do
    read -r dt t1 t2 _ <<< "$(case_params "$c")"
    for code in "${codes[@]}"; do
      a=$(run_code "$code" "$c" "$t1" cpu)
      b=$(run_code "$code" "$c" "$t2" cpu)
      cpu[$c.$code]="${cpu[$c.$code]:-} $(per_step "$a" "$b" "${steps1[$c]}" "${steps2[$c]}" 1e3)"
    done
  done
done

printf '# %d rounds; CPU ms/step = median over rounds of (CPU(T2) - CPU(T1)) / (steps(T2) - steps(T1))\n' "$rounds"
printf '%-12s %-14s %11s %11s %9s %9s %13s %12s\n' case code steps ms/step newton/st fact/st \
  "tip |u| (m)" "tip angle"
for c in "${cases[@]}"; do
  read -r dt t1 t2 _ <<< "$(case_params "$c")"
  for code in "${codes[@]}"; do
    # shellcheck disable=SC2086
    m=$(median ${cpu[$c.$code]})
    read -r u ang <<< "$(tip_of "$code" "$c" "$t2")"
    printf '%-12s %-14s %5d/%-5d %11.4f %9s %9s %13.6e %12.6e\n' "$c" "$code" "${steps1[$c]}" \
      "${steps2[$c]}" "$m" "${newton[$c.$code]}" "${fact[$c.$code]}" "$u" "$ang"
    cpu[$c.$code.median]=$m
  done
  for code in "${codes[@]:1}"; do
    printf '%-12s %-14s BeamDyn / %s CPU per step: %.2f\n' "$c" ratio "$code" \
      "$(awk -v a="${cpu[$c.beamdyn.median]}" -v b="${cpu[$c.$code.median]}" 'BEGIN {print a / b}')"
  done
done
