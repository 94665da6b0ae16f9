#!/bin/sh
# SPDX-License-Identifier: MIT
# The reproducers of issue 16 through the rodrigues program: inputs that hung or crashed the
# reader, results a failed run destroyed, two runs into one directory, signals that were not
# heard, checkpoints of another model. Each fails on the code before the fix.
# usage: test_reliability.sh RODRIGUES_EXE SOURCE_ROOT
exe=$1
src=$2
case $exe in /*) ;; *) exe=$(pwd)/$exe ;; esac
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/rd_reliability.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset CI
. "$src/tests/support/harness.sh"
top=$src/input/heavy_top.yaml
mass=$src/tests/cli/point_mass.yaml

# run COMMAND... with a time limit: status in $rc, stderr in err.txt
run() {
  timeout 60 "$@" >out.txt 2>err.txt
  rc=$?
}

expect() {  # expect STATUS PATTERN WHAT: the status, and PATTERN in stderr ("": nothing there)
  if [ -z "$2" ]; then
    said=$([ ! -s err.txt ] && echo yes)
  else
    said=$(grep -Eq "$2" err.txt && echo yes)
  fi
  if [ "$rc" -eq "$1" ] && [ "$said" = yes ]; then pass; else
    fail "$3: exit $rc (want $1), stderr: $(cat err.txt)"
  fi
}

# --- finding 1: a 2-byte deck made libfyaml's directive scanner loop forever
printf '%%\377' >hang1.yaml
printf '%%YAML\377' >hang2.yaml
run "$exe" check hang1.yaml
expect 2 'hang1.yaml:1:2: invalid deck: not UTF-8' "%\\377 deck"
run "$exe" check hang2.yaml
expect 2 'hang2.yaml:1:6: invalid deck: not UTF-8' "%YAML\\377 deck"

# --- finding 2: decks through a pipe (a duplicate key crashed the stream reader), a large deck
# through a pipe, an endless stream
printf 'title: x\ntitle: y\n' | timeout 60 "$exe" check /dev/stdin >out.txt 2>err.txt
rc=$?
expect 2 '/dev/stdin:2:1: invalid YAML: duplicate key' "duplicate key through a pipe"
{
  echo "nodes:"
  i=0
  while [ $i -lt 2500 ]; do
    echo "  - {name: n$i, position: [$i, 0, 0]}"
    i=$((i + 1))
  done
  echo "elements:"
  i=0
  while [ $i -lt 2500 ]; do
    echo "  - {type: rigid_body, name: b$i, node: n$i, mass: 1, inertia: [1, 1, 1]}"
    i=$((i + 1))
  done
} >big.yaml
timeout 60 "$exe" check /dev/stdin <big.yaml >out.txt 2>err.txt
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'nodes *2500' out.txt; then pass; else
  fail "2,500 bodies through a pipe: exit $rc: $(cat err.txt)"
fi
yes 'a: 1' | timeout 60 "$exe" check /dev/stdin >out.txt 2>err.txt
rc=$?
expect 2 'larger than 64 MiB, the limit of a deck' "an endless stream"

# --- finding 3: a run that fails at its end (a checkpoint that cannot be written) keeps the
# earlier run's results, and leaves its own rows
run "$exe" run "$mass" -o d
expect 0 '' "first run"
cp d/history.csv history.before
cp d/summary.json summary.before
run "$exe" run "$mass" -o d --set solver.final_time=0.2 --checkpoint "$work/no/such/dir/ckpt"
expect 4 "cannot write '.*no/such/dir/ckpt'" "run with an unwritable checkpoint"
cmp -s d/history.csv history.before && cmp -s d/summary.json summary.before && pass ||
  fail "a failed run changed the earlier results"
[ "$(wc -l <d/incomplete/history.csv)" -eq 9 ] && grep -q '"status": "failed"' d/incomplete/summary.json &&
  pass || fail "the failed run's rows or status are missing: $(ls d/incomplete)"

# --- finding 4: two runs into one directory: the second is refused, the first is whole
# (about 10 s of work; the second run starts once the first holds the directory's lock)
"$exe" run "$top" -o two --set solver.final_time=300 --set output.every=100 >/dev/null 2>two.err &
first=$!
i=0
while [ ! -e two/.rodrigues.lock ] && [ $i -lt 300 ]; do
  sleep 0.1
  i=$((i + 1))
done
run "$exe" run "$top" -o two --set solver.final_time=0.1
expect 4 "'two' is being written by another run \\(process $first\\)" "a second run into one directory"
wait $first
rc=$?
[ "$rc" -eq 0 ] && pass || fail "the first run failed: $(cat two.err)"
if awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } NR > 2 && $1 + 0 <= last { bad = 1 }
            { last = $1 + 0 } END { exit bad || NR != 15002 }' two/history.csv; then pass; else
  fail "two runs into one directory: history.csv has $(wc -l <two/history.csv) lines or bad rows"
fi

# --- finding 5: SIGTERM with output.every large stops within a step (it waited for the next
# row, after the run had finished); the rows so far and "interrupted" are kept
"$exe" run "$top" -o sig --set solver.final_time=1000 --set output.every=100000000 \
  >/dev/null 2>sig.err &
pid=$!
sleep 1
start=$(date +%s)
kill -TERM $pid
wait $pid
rc=$?
took=$(($(date +%s) - start))
[ "$rc" -eq 143 ] && [ "$took" -le 5 ] && pass ||
  fail "SIGTERM: exit $rc after $took s (want 143 within 5 s): $(cat sig.err)"
grep -q '"status": "interrupted"' sig/incomplete/summary.json &&
  [ "$(wc -l <sig/incomplete/history.csv)" -eq 3 ] && pass ||
  fail "SIGTERM: no interrupted status or not the first and last rows"
grep -q 'interrupted at t = ' sig.err && pass || fail "SIGTERM: no message: $(cat sig.err)"

# --- finding 6: a NaN load: the rows before it are kept, marked failed
run "$exe" run "$src/tests/cli/fails_midway.yaml" -o nan
expect 3 "'blowup' is not finite" "a NaN load"
grep -q '"status": "failed"' nan/incomplete/summary.json && pass || fail "NaN load: no status"

# --- finding 10: a checkpoint of another model exits 2 and says what differs; with
# --resume-changed it is accepted
run "$exe" run "$top" -o c1 --set solver.final_time=0.01 --checkpoint top.ckpt
expect 0 '' "checkpoint written"
run "$exe" run "$top" -o c2 --resume top.ckpt --set solver.time_step=1e-4
expect 2 "option solver.time_step is 0.0002 in the checkpoint, 0.0001 in the model" \
  "resuming with another time step"
grep -q -- '--resume-changed' err.txt && pass || fail "no hint at --resume-changed"
run "$exe" run "$top" -o c2 --resume top.ckpt --set solver.time_step=1e-4 --resume-changed \
  --set solver.final_time=0.011
expect 0 "warning: resuming 'top.ckpt' with a changed model: option solver.time_step" \
  "--resume-changed"
run "$exe" run "$src/input/pendulum.yaml" -o c3 --resume top.ckpt
expect 2 "written for another model" "a checkpoint of another deck"

# --- the acceptance of issue 16: a failed, an interrupted and a killed run, each into a
# directory that holds an earlier successful run, leave the rows computed so far (complete rows,
# in DIR/incomplete), the earlier results untouched and a status that says what happened
whole_rows() {  # every line has the header's number of fields, the last ends with a newline
  [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
    awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || NR < 3 }' "$1"
}
earlier() {  # earlier NAME ARGS...: a successful run into NAME.dir, its results kept aside
  name=$1
  shift
  run "$exe" run "$@" -o "$name.dir"
  cp "$name.dir/history.csv" "$name.history" && cp "$name.dir/summary.json" "$name.summary"
}
untouched() {
  cmp -s "$1.dir/history.csv" "$1.history" && cmp -s "$1.dir/summary.json" "$1.summary"
}
earlier acc_failed "$src/tests/cli/fails_midway.yaml" --set solver.final_time=0.04
run "$exe" run "$src/tests/cli/fails_midway.yaml" -o acc_failed.dir
check "failed run: exit 3" [ "$rc" -eq 3 ]
check "failed run: the earlier results untouched" untouched acc_failed
check "failed run: its rows kept, whole" whole_rows acc_failed.dir/incomplete/history.csv
check "failed run: status failed, with the error" \
  grep -q '"error": ".*blowup' acc_failed.dir/incomplete/summary.json
earlier acc_int "$top" --set solver.final_time=0.05
# (a job in the background of a script ignores SIGINT unless given back its default)
env --default-signal=INT "$exe" run "$top" -o acc_int.dir --set solver.final_time=1000 \
  >/dev/null 2>/dev/null &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
check "interrupted run: ends by SIGINT (130)" [ "$rc" -eq 130 ]
check "interrupted run: the earlier results untouched" untouched acc_int
check "interrupted run: its rows kept, whole" whole_rows acc_int.dir/incomplete/history.csv
check "interrupted run: status interrupted" \
  grep -q '"status": "interrupted"' acc_int.dir/incomplete/summary.json
earlier acc_kill "$top" --set solver.final_time=0.05
"$exe" run "$top" -o acc_kill.dir --set solver.final_time=1000 --checkpoint kill.ckpt \
  --checkpoint-every 0.05 >/dev/null 2>/dev/null &
pid=$!
sleep 1.5
kill -KILL $pid
wait $pid
rc=$?
check "killed run: ended by SIGKILL (137)" [ "$rc" -eq 137 ]
check "killed run: the earlier results untouched" untouched acc_kill
check "killed run: its rows up to the last checkpoint kept, whole" \
  whole_rows acc_kill.dir/incomplete/history.csv
check "killed run: status running (what a killed run leaves), with its time" \
  grep -q '"status": "running"' acc_kill.dir/incomplete/summary.json
check "killed run: a checkpoint to resume from" [ -s kill.ckpt ]

# --- an interrupted run resumed from its checkpoint ends with the uninterrupted run's history
# and summary (but wall time): the row the interrupted run wrote where it stopped, between two
# rows of the output grid, is cut when it resumes
"$exe" run "$top" -o term_full --set solver.final_time=20 --set output.every=1000 >/dev/null 2>&1
"$exe" run "$top" -o term --set solver.final_time=20 --set output.every=1000 \
  --checkpoint term.ckpt --checkpoint-every 1 >/dev/null 2>term.err &
pid=$!
i=0
while [ ! -s term.ckpt ] && [ $i -lt 600 ]; do
  sleep 0.1
  i=$((i + 1))
done
kill -TERM $pid
wait $pid
rc=$?
run "$exe" run "$top" -o term --set solver.final_time=20 --set output.every=1000 \
  --checkpoint term.ckpt --checkpoint-every 1 --resume term.ckpt
if [ "$rc" -ne 143 ]; then
  echo "note: the run ended before SIGTERM (exit $rc); the resume below starts at its end"
fi
cmp -s term_full/history.csv term/history.csv && pass ||
  fail "interrupted and resumed: history.csv differs from the uninterrupted run's"
sed '/"wall_time"/d' term_full/summary.json >a.json
sed '/"wall_time"/d' term/summary.json >b.json
cmp -s a.json b.json && pass || fail "interrupted and resumed: summary.json differs"

# --- finding 11: --help says how an interrupted run ends
"$exe" --help >out.txt
grep -q 'interrupted (SIGINT, SIGTERM): the run keeps its rows and ends by the signal' out.txt &&
  pass || fail "--help does not say how an interrupted run ends"

summary
