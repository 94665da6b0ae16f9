#!/bin/sh
# SPDX-License-Identifier: MIT
# Soak test of exact restarts (issue 16): a run with periodic checkpoints is killed with SIGKILL
# at random moments and resumed from its last checkpoint, again and again, until it finishes;
# its history.csv must then equal the uninterrupted run's byte for byte, and its summary.json
# too but for the wall time. After every kill the run's history is a header and complete rows.
# usage: test_soak.sh RODRIGUES_EXE SOURCE_ROOT [FINAL_TIME]
#   FINAL_TIME of the heavy top deck, default 4 (about 10 kills); docs/testing.md has a longer
#   run. SOAK_SEED fixes the random kill times (default: from the clock, printed).
exe=$1
src=$2
final=${3:-4}
case $exe in /*) ;; *) exe=$(pwd)/$exe ;; esac
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/rd_soak.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset CI
. "$src/tests/support/harness.sh"
seed=${SOAK_SEED:-$(date +%s)}
echo "soak: final time $final, seed $seed"
deck=$src/input/heavy_top.yaml
common="--set solver.final_time=$final --set output.every=10"

start=$(date +%s%N)
# shellcheck disable=SC2086
"$exe" run "$deck" -o full $common >/dev/null 2>full.err || fail "the full run failed: $(cat full.err)"
took=$(($(date +%s%N) - start))

# the kill times: after the round's first checkpoint (so that every round makes progress however
# slow the build or the machine), uniform in [0.03, 0.25) of the full run's wall time (at least
# 0.01 s), from the seed: so some four kills or more on a fast machine and a slow build alike
awk -v seed="$seed" -v took="$took" 'BEGIN { srand(seed); t = took * 1e-9
  for (i = 0; i < 1000; i++) { d = t * (0.03 + 0.22 * rand()); printf "%.3f\n", d < 0.01 ? 0.01 : d } }' >delays
kills=0
torn=0
round=0
while [ ! -f soak/summary.json ] && [ $round -lt 1000 ]; do
  round=$((round + 1))
  resume=""
  [ -f soak.ckpt ] && resume="--resume soak.ckpt"
  # shellcheck disable=SC2086
  "$exe" run "$deck" -o soak $common --checkpoint soak.ckpt --checkpoint-every 0.02 $resume \
    >/dev/null 2>>soak.err &
  pid=$!
  # wait for a new checkpoint (each one is renamed into place: a new inode) or the run's end
  before=$(stat -c %i soak.ckpt 2>/dev/null)
  n=0
  while kill -0 $pid 2>/dev/null && [ "$(stat -c %i soak.ckpt 2>/dev/null)" = "$before" ] &&
    [ $n -lt 6000 ]; do
    sleep 0.01
    n=$((n + 1))
  done
  sleep "$(sed -n "${round}p" delays)"
  if kill -KILL $pid 2>/dev/null; then
    kills=$((kills + 1))
  fi
  wait $pid 2>/dev/null
  # what a killed run leaves: complete rows only
  h=soak/incomplete/history.csv
  if [ -s $h ] && [ "$(tail -c 1 $h | od -An -c | tr -d ' ')" != '\n' ]; then
    torn=$((torn + 1))
  fi
done
echo "soak: $kills kills in $round rounds"
[ -f soak/summary.json ] && pass || fail "the soak run did not finish in $round rounds: $(tail -n 3 soak.err)"
[ $kills -ge 3 ] && pass || fail "only $kills kills: the test did not test restarts"
[ $torn -eq 0 ] && pass || fail "$torn kills left a torn last row"
cmp full/history.csv soak/history.csv && pass || fail "history.csv differs from the uninterrupted run's"
grep -v '"wall_time"' full/summary.json >a.json
grep -v '"wall_time"' soak/summary.json >b.json
cmp a.json b.json && pass || fail "summary.json differs: $(diff a.json b.json | head -n 5)"
summary
