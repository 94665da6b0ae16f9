#!/bin/bash
# SPDX-License-Identifier: MIT
# Run Kynema's regression-test executable (built by you, outside this repository:
# bench/peers/README.md) on the GoogleTest cases that match ours, optionally interleaved with
# rodrigues on the same models, and print per step: CPU time, Newton iterations, factorizations
# and, with --callgrind, instructions.
#
# usage: bench/peers/run_kynema.sh [--rounds R] [--rodrigues] [--modified] [--callgrind]
#                                  [--keep DIR] [CASE...]
#   CASE        heavytop       HeavyTopTest.FinalState (dt 2e-3, 400 steps, rho_inf 0.9)
#               heavytop_long  VerificationTest.Dynamic_HeavyTopSpinningUnderGravity
#                              (dt 2e-4, 10 000 steps, rho_inf 0.9)
#               composite      VerificationTest.Dynamic_ClampedCompositeBeamBending
#                              (one 5-node element, dt 0.005, 200 steps, rho_inf 0)
#               default: all three
#   --rounds R  timed rounds (default 5) after one untimed round that counts Newton iterations;
#               each round runs every case and code in turn (interleaved); medians are printed
#   --rodrigues also run rodrigues on the same model (input/heavy_top.yaml at the test's step,
#               input/beam/composite_dynamic.yaml from rest as Kynema starts, with Kynema's
#               weak form: solver.initial_acceleration=zero, virtual_rotation: interpolated)
#   --modified  also run rodrigues with solver.modified_newton=true (implies --rodrigues)
#   --callgrind instead of timing: instructions per step under valgrind's callgrind
#   --keep DIR  keep the logs and rodrigues outputs in DIR
# environment:
#   KYNEMA_REGRESSION  the kynema_fmb_regression_tests executable (required); it is run from its
#                      own directory, where it finds its input files by relative path
#   RODRIGUES          the rodrigues CLI (default: build/rodrigues of the source root)
#   KYNEMA_PROBES      optional: the folder of our probe programs linked to Kynema
#                      (composite_probe, heavy_top_probe; bench/peers/README.md, "Probes"); with
#                      --rodrigues the script then also says whether the answers match
#                      (kynema_answers.py): the composite's tip over every step from the same
#                      start, and the heavy top's error and the CPU ratio at equal accuracy
#
# Kynema's cost of one step: (CPU(--gtest_repeat=R) - CPU(--gtest_repeat=1)) / ((R - 1) steps),
# so process start and Kokkos initialization cancel (the test's own model setup is inside each
# repetition: a few steps' worth on the composite). rodrigues: two run lengths of the same deck,
# (CPU(T2) - CPU(T1)) / (steps(T2) - steps(T1)). Newton iterations of Kynema are its klu_tsolve
# calls (one per iteration), factorizations its klu_factor + klu_refactor calls, counted with an
# LD_PRELOAD library built here. Run from the source root.
set -euo pipefail
shopt -s inherit_errexit

cd "$(dirname "$0")/../.."
ROOT=$PWD
PEERS=$ROOT/bench/peers
RODRIGUES=${RODRIGUES:-$ROOT/build/rodrigues}
export OPENBLAS_NUM_THREADS=1

# shellcheck source=bench/peers/common.sh
. "$PEERS/common.sh"

# extra_option ARGS...: run_kynema.sh has no options of its own (parse_options)
extra_option() {
  :
}


parse_options "$@"
[ ${#cases[@]} -gt 0 ] || cases=(heavytop heavytop_long composite)
peers_setup KYNEMA_REGRESSION "Kynema's kynema_fmb_regression_tests"


# case_params CASE: "TEST STEPS R RC DT T1 T2 DECK SETS": the GoogleTest name, its steps per
# repetition, the repetitions timed (and under callgrind), and rodrigues' step, two run lengths,
# deck and extra --set values (comma-separated; - for none). The composite's long run goes to
# t = 10 (2000 steps, about 60 ms of CPU): to t = 2 it took 12 ms, and its per-step medians
# scattered by a quarter between runs of 21 rounds (2.82-3.60x Kynema on the same code)
case_params() {
  case $1 in
    heavytop) echo "HeavyTopTest.FinalState 400 21 3 0.002 0.8 8 input/heavy_top.yaml -" ;;
    heavytop_long) echo "VerificationTest.Dynamic_HeavyTopSpinningUnderGravity 10000 3 2 0.0002 0.4 2 input/heavy_top.yaml -" ;;
    composite) echo "VerificationTest.Dynamic_ClampedCompositeBeamBending 200 21 3 0.005 0.2 10 input/beam/composite_dynamic.yaml solver.initial_acceleration=zero,elements.beam.virtual_rotation=interpolated" ;;
    *) echo "run_kynema.sh: unknown case $1" >&2; return 1 ;;
  esac
}


# run_code CODE CASE N MODE: CODE kynema with --gtest_repeat=N, or rodrigues / rodrigues_mod to
# t = N; MODE cpu prints the CPU seconds, count the Newton and factorization counts, callgrind Ir
run_code() {
  local code=$1 c=$2 n=$3 mode=$4 test dt deck sets dir cmd
  read -r test _ _ _ dt _ _ deck sets <<< "$(case_params "$c")"
  dir=$work/$c/$code-$n
  mkdir -p "$dir"
  if [ "$code" = kynema ]; then
    cd "$(dirname "$KYNEMA_REGRESSION")"  # it reads its inputs by relative path (run in $(...))
    cmd=("$KYNEMA_REGRESSION" "--gtest_filter=$test"
      "--gtest_repeat=$n")
  else
    cmd=("$RODRIGUES" run "$ROOT/$deck" -o "$dir" --set "solver.time_step=$dt"
      --set "solver.final_time=$n" --set output.every=1000000000)
    if [ "$sets" != - ]; then
      local kv
      IFS=, read -ra kv <<< "$sets"
      for x in "${kv[@]}"; do
        cmd+=(--set "$x")
      done
    fi
    [ "$code" = rodrigues_mod ] && cmd+=(--set solver.modified_newton=true)
  fi
  measure "$mode" "$code" "$c" "$dir" kynema_counts "${cmd[@]}"
}


# kynema_counts FILE: "SOLVES FACTORIZATIONS" (klu_tsolve, klu_factor + klu_refactor) from the
# call counter's FILE
kynema_counts() {
  echo "$(count_of "$1" klu_tsolve)" \
    "$(( $(count_of "$1" klu_factor) + $(count_of "$1" klu_refactor) ))"
}


# run_pair CODE CASE MODE: "A B NA NB": MODE's value at the short and the long run and their steps
run_pair() {
  local code=$1 c=$2 mode=$3 steps r rc dt t1 t2 n1 n2 a b
  read -r _ steps r rc dt t1 t2 _ <<< "$(case_params "$c")"
  [ "$mode" = callgrind ] && r=$rc
  if [ "$code" = kynema ]; then
    n1=$steps
    n2=$((steps * r))
    a=$(run_code "$code" "$c" 1 "$mode")
    b=$(run_code "$code" "$c" "$r" "$mode")
  else
    n1=$(awk -v t="$t1" -v h="$dt" 'BEGIN {printf "%d", t / h + 0.5}')
    n2=$(awk -v t="$t2" -v h="$dt" 'BEGIN {printf "%d", t / h + 0.5}')
    a=$(run_code "$code" "$c" "$t1" "$mode")
    b=$(run_code "$code" "$c" "$t2" "$mode")
  fi
  echo "$a|$b|$n1|$n2"
}


for c in "${cases[@]}"; do
  case_params "$c" > /dev/null
done

codes=(kynema)
[ $with_rd = 1 ] && codes+=(rodrigues)
[ $with_mod = 1 ] && codes+=(rodrigues_mod)
declare -A cpu newton fact

if [ $callgrind = 1 ]; then
  command -v valgrind > /dev/null || { echo "run_kynema.sh: valgrind is not installed" >&2; exit 1; }
  for c in "${cases[@]}"; do
    for code in "${codes[@]}"; do
      pair=$(run_pair "$code" "$c" callgrind)
      IFS='|' read -r a b n1 n2 <<< "$pair"
      printf '%-14s %-14s Ir/step %12.0f   (steps %d and %d: Ir %s and %s)\n' "$c" "$code" \
        "$(per_step "$a" "$b" "$n1" "$n2")" "$n1" "$n2" "$a" "$b"
    done
  done
  exit 0
fi

# round 0: untimed, counts the Newton iterations and factorizations, checks Kynema's verdict
for c in "${cases[@]}"; do
  for code in "${codes[@]}"; do
      pair=$(run_pair "$code" "$c" count)
      IFS='|' read -r a b n1 n2 <<< "$pair"
    read -r i1 f1 <<< "$a"
    read -r i2 f2 <<< "$b"
    newton[$c.$code]=$(per_step "$i1" "$i2" "$n1" "$n2")
    fact[$c.$code]=$(per_step "$f1" "$f2" "$n1" "$n2")
  done
done

for _ in $(seq 1 "$rounds"); do
  for c in "${cases[@]}"; do
    for code in "${codes[@]}"; do
      pair=$(run_pair "$code" "$c" cpu)
      IFS='|' read -r a b n1 n2 <<< "$pair"
      cpu[$c.$code]="${cpu[$c.$code]:-} $(per_step "$a" "$b" "$n1" "$n2" 1e6)"
    done
  done
done

printf '# %d rounds; CPU us/step = median over rounds; steps of the short and the long run\n' "$rounds"
printf '%-14s %-14s %13s %11s %10s %9s  %s\n' case code steps us/step newton/st fact/st verdict
for c in "${cases[@]}"; do
  read -r test steps r _ <<< "$(case_params "$c")"
  for code in "${codes[@]}"; do
    # shellcheck disable=SC2086
    m=$(median ${cpu[$c.$code]})
    cpu[$c.$code.median]=$m
    if [ "$code" = kynema ]; then
      verdict=$(grep -q '^\[  PASSED  \] 1 test' "$work/$c/kynema-$r/log" && echo "test passed" \
        || echo "test FAILED")
      n="$steps/$((steps * r))"
    else
      verdict=$(rodrigues_stats "$work/$c/$code-$(case_params "$c" | awk '{print $7}')" | \
        awk '{print $1 " steps"}')
      n=-
    fi
    printf '%-14s %-14s %13s %11.3f %10.3f %9.3f  %s\n' "$c" "$code" "$n" "$m" \
      "${newton[$c.$code]}" "${fact[$c.$code]}" "$verdict"
  done
  for code in "${codes[@]:1}"; do
    printf '%-14s %-14s Kynema / %s CPU per step: %.2f\n' "$c" ratio "$code" \
      "$(awk -v a="${cpu[$c.kynema.median]}" -v b="${cpu[$c.$code.median]}" 'BEGIN {print a / b}')"
  done
done

# the answers (probes): the composite's tip from the same start; the heavy top at equal accuracy
if [ $with_rd = 1 ] && [ -n "${KYNEMA_PROBES:-}" ]; then
  probes=$(realpath "$KYNEMA_PROBES")
  for c in "${cases[@]}"; do
    case $c in
      composite)
        python3 "$PEERS/kynema_answers.py" composite --rodrigues "$RODRIGUES" \
          --probe "$probes/composite_probe" ;;
      heavytop_long)
        python3 "$PEERS/kynema_answers.py" heavytop --rodrigues "$RODRIGUES" \
          --probe "$probes/heavy_top_probe" --kynema-us "${cpu[$c.kynema.median]}" \
          --rodrigues-us "${cpu[$c.rodrigues.median]}" ;;
    esac
  done
fi
