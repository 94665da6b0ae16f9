# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# shared by run_beamdyn.sh and run_kynema.sh (sourced, not run): their common options and
# setup, CPU time of one process, call counts of the linear-solver routines a peer's Newton loop
# calls, callgrind totals, medians, and the tip of a rodrigues history. These only run programs
# that are already built.

# parse_options ARGS...: the options both scripts take, into rounds, with_rd, with_mod,
# callgrind, keep and cases; an option of the script's own goes to its extra_option function,
# which sets extra_shift to the number of arguments it used (0: not its option)
# shellcheck disable=SC2034
parse_options() {
  rounds=5 with_rd=0 with_mod=0 callgrind=0 keep="" cases=()
  while [ $# -gt 0 ]; do
    case $1 in
      --rounds) rounds=$2; shift 2 ;;
      --rodrigues) with_rd=1; shift ;;
      --modified) with_rd=1; with_mod=1; shift ;;
      --callgrind) callgrind=1; shift ;;
      --keep) keep=$2; shift 2 ;;
      -h|--help) awk 'NR > 2 && /^#/ {sub(/^# ?/, ""); print; next} NR > 2 {exit}' "$0"; exit 0 ;;
      -*)
        extra_shift=0
        extra_option "$@"
        if [ "$extra_shift" = 0 ]; then
          echo "${0##*/}: unknown option $1" >&2
          exit 1
        fi
        shift "$extra_shift" ;;
      *) cases+=("$1"); shift ;;
    esac
  done
}


# peers_setup VAR WHAT: check that the variable VAR names an executable (WHAT says which), make
# it and RODRIGUES absolute (the runs change directory), make the temporary folder PEERS_TMP
# (removed at exit), the call counter in it and the work folder ($keep, or one in PEERS_TMP)
peers_setup() {
  local var=$1 what=$2
  if [ -z "${!var:-}" ] || [ ! -x "${!var}" ]; then
    echo "${0##*/}: set $var to $what (bench/peers/README.md)" >&2
    exit 1
  fi
  printf -v "$var" '%s' "$(realpath "${!var}")"
  if [ "$with_rd" = 1 ]; then
    if [ ! -x "$RODRIGUES" ]; then
      echo "${0##*/}: no rodrigues at $RODRIGUES (build it, or set RODRIGUES)" >&2
      exit 1
    fi
    RODRIGUES=$(realpath "$RODRIGUES")
  fi
  PEERS_TMP=$(mktemp -d)
  trap 'rm -rf "$PEERS_TMP"' EXIT
  build_counter "$PEERS_TMP"
  work=$(realpath -m "${keep:-$PEERS_TMP/work}")
  mkdir -p "$work"
}


# cpu_time LOG CMD...: run CMD (its output to LOG), print its user + system CPU seconds
# (getrusage of the child); fails with CMD's exit status
cpu_time() {
  python3 - "$@" <<'PY'
import os, subprocess, sys
with open(sys.argv[1], "w") as log:
    p = subprocess.Popen(sys.argv[2:], stdout=log, stderr=subprocess.STDOUT)
    _, status, ru = os.wait4(p.pid, 0)
print(f"{ru.ru_utime + ru.ru_stime:.6f}")
sys.exit(os.waitstatus_to_exitcode(status))
PY
}


# build_counter DIR: compile an LD_PRELOAD library DIR/count_calls.so that counts calls of LAPACK's
# dgetrs/dgetrf (BeamDyn: one dgetrs per Newton iteration) and KLU's solves and factorizations
# (Kynema: one klu_tsolve per Newton iteration) and writes them to $COUNT_CALLS_OUT at exit
build_counter() {
  cat > "$1/count_calls.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static long n_getrs, n_getrf, n_klu_solve, n_klu_tsolve, n_klu_factor, n_klu_refactor;

#define FORWARD(ret, name, counter, params, args) \
  ret name params { \
    static ret (*real) params; \
    if (!real) real = (ret (*) params)dlsym(RTLD_NEXT, #name); \
    counter++; \
    return real args; \
  }

typedef void* p;
FORWARD(void, dgetrs_, n_getrs, (p a, p b, p c, p d, p e, p f, p g, p h, p i, long l),
        (a, b, c, d, e, f, g, h, i, l))
FORWARD(void, dgetrf_, n_getrf, (p a, p b, p c, p d, p e, p f), (a, b, c, d, e, f))
FORWARD(int, klu_solve, n_klu_solve, (p a, p b, int c, int d, p e, p f), (a, b, c, d, e, f))
FORWARD(int, klu_tsolve, n_klu_tsolve, (p a, p b, int c, int d, p e, p f), (a, b, c, d, e, f))
FORWARD(p, klu_factor, n_klu_factor, (p a, p b, p c, p d, p e), (a, b, c, d, e))
FORWARD(int, klu_refactor, n_klu_refactor, (p a, p b, p c, p d, p e, p f), (a, b, c, d, e, f))

__attribute__((destructor)) static void report(void) {
  const char* path = getenv("COUNT_CALLS_OUT");
  FILE* f = path ? fopen(path, "w") : NULL;
  if (!f) return;
  fprintf(f, "dgetrs %ld\ndgetrf %ld\nklu_solve %ld\nklu_tsolve %ld\nklu_factor %ld\n"
          "klu_refactor %ld\n", n_getrs, n_getrf, n_klu_solve, n_klu_tsolve, n_klu_factor,
          n_klu_refactor);
  fclose(f);
}
C
  cc -O2 -shared -fPIC -o "$1/count_calls.so" "$1/count_calls.c" -ldl
}


# counted FILE LOG CMD...: run CMD with the counter preloaded, the counts to FILE
counted() {
  local out=$1 log=$2
  shift 2
  COUNT_CALLS_OUT=$out LD_PRELOAD=$PEERS_TMP/count_calls.so "$@" > "$log" 2>&1
}


# count_of FILE NAME: one count from a counter file
count_of() {
  awk -v n="$2" '$1 == n {print $2}' "$1"
}


# callgrind_ir LOG CMD...: instructions executed by CMD (callgrind's total Ir)
callgrind_ir() {
  local log=$1 out
  shift
  out=$(mktemp "$PEERS_TMP/cg.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$out" -- "$@" > "$log" 2>&1 || return 1
  awk '/^(summary|totals):/ {print $2; exit}' "$out"
  rm -f "$out"
}


# failed CODE CASE LOG: say which run failed, with the end of its log, and fail
failed() {
  echo "${0##*/}: $1 failed on case $2; the end of its log:" >&2
  tail -n 5 "$3" | grep -v '^==' >&2
  return 1
}


# measure MODE CODE CASE DIR PEER_COUNTS CMD...: one run of CMD (its output to DIR/log): MODE
# cpu prints its CPU seconds, callgrind its instructions, count "NEWTON FACTORIZATIONS" — of
# rodrigues (CODE rodrigues...) from DIR/summary.json, of a peer from the call counter through
# the script's function PEER_COUNTS, given the counter's file
measure() {
  local mode=$1 code=$2 c=$3 dir=$4 counts=$5
  shift 5
  case $mode in
    cpu) cpu_time "$dir/log" "$@" || failed "$code" "$c" "$dir/log" ;;
    callgrind) callgrind_ir "$dir/log" "$@" || failed "$code" "$c" "$dir/log" ;;
    count)
      if [[ $code == rodrigues* ]]; then
        "$@" > "$dir/log" 2>&1 || failed "$code" "$c" "$dir/log"
        rodrigues_stats "$dir" | awk '{print $2, $3}'
      else
        counted "$dir/calls" "$dir/log" "$@" || failed "$code" "$c" "$dir/log"
        "$counts" "$dir/calls"
      fi ;;
  esac
}


# median V...: the median of the numbers given
median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
    if (NR == 0) {print "nan"} else if (NR % 2) {print v[(NR + 1) / 2]}
    else {print (v[NR / 2] + v[NR / 2 + 1]) / 2}}'
}


# per_step A B NA NB [SCALE]: (B - A) / (NB - NA) * SCALE, the cost of one step with the
# setup and the process start cancelled by differencing two run lengths
per_step() {
  awk -v a="$1" -v b="$2" -v na="$3" -v nb="$4" -v s="${5:-1}" \
    'BEGIN {printf "%.6g", (b - a) / (nb - na) * s}'
}


# rodrigues_stats DIR: "STEPS NEWTON FACTORIZATIONS" from DIR/summary.json
rodrigues_stats() {
  python3 - "$1/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["statistics"]
print(s["steps"], s["newton_iterations"], s["factorizations"])
PY
}


# rodrigues_tip DIR ROOT TIP: "|u| ANGLE" at the last row of DIR/history.csv: the tip's displacement
# relative to the root's rigid motion, |(x_t - x_r) - R_r R_r0^T (x_t0 - x_r0)|, and the angle of
# the tip's rotation relative to it, (R_r R_r0^T)^T R_t R_t0^T: BeamDyn's |TipTD| and the angle of
# TipRD (both frame-invariant)
rodrigues_tip() {
  python3 - "$1/history.csv" "$2" "$3" <<'PY'
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1])))
head, first, last = rows[0], rows[1], rows[-1]
def get(row, node):
    v = {k.split(".", 1)[1]: float(x) for k, x in zip(head, row) if k.startswith(node + ".")}
    return [v["x"], v["y"], v["z"]], [v["qw"], v["qx"], v["qy"], v["qz"]]
def qmul(a, b):
    w1, x1, y1, z1 = a; w2, x2, y2, z2 = b
    return [w1*w2 - x1*x2 - y1*y2 - z1*z2, w1*x2 + x1*w2 + y1*z2 - z1*y2,
            w1*y2 - x1*z2 + y1*w2 + z1*x2, w1*z2 + x1*y2 - y1*x2 + z1*w2]
def conj(q):
    return [q[0], -q[1], -q[2], -q[3]]
def rot(q, v):
    return qmul(qmul(q, [0] + v), conj(q))[1:]
xr0, qr0 = get(first, sys.argv[2]); xt0, qt0 = get(first, sys.argv[3])
xr, qr = get(last, sys.argv[2]); xt, qt = get(last, sys.argv[3])
qroot = qmul(qr, conj(qr0))
d0 = [a - b for a, b in zip(xt0, xr0)]
u = [a - b - c for a, b, c in zip(xt, xr, rot(qroot, d0))]
qrel = qmul(conj(qroot), qmul(qt, conj(qt0)))
angle = 2 * math.atan2(math.sqrt(sum(c * c for c in qrel[1:])), abs(qrel[0]))
print(f"{math.sqrt(sum(c * c for c in u)):.9g} {angle:.9g}")
PY
}
