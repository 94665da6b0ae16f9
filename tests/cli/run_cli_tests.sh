#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of the rodrigues program: help, version, usage and deck errors, exit codes, no output
# left behind on failure, check on every deck of input/, and a short run when a stepper exists.
# usage: run_cli_tests.sh RODRIGUES_EXE SOURCE_ROOT
# Prints "N passed, M failed" last; exits non-zero on any failure.

exe=$1
src=$2
if [ -z "$exe" ] || [ -z "$src" ]; then
  echo "usage: $0 RODRIGUES_EXE SOURCE_ROOT"
  echo "0 passed, 1 failed"
  exit 1
fi
case $exe in /*) ;; *) exe=$(pwd)/$exe ;; esac
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
decks=$src/tests/cli

work=$(mktemp -d "${TMPDIR:-/tmp}/rd_cli_test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset CI

. "$src/tests/support/harness.sh"

# run the program; status in $rc, stdout in $work/out.txt, stderr in $work/err.txt
run() {
  "$exe" "$@" >"$work/out.txt" 2>"$work/err.txt"
  rc=$?
}

# expect_rc CODE DESCRIPTION
expect_rc() {
  if [ "$rc" -eq "$1" ]; then pass; else fail "$2: exit $rc, want $1; stderr: $(cat "$work/err.txt")"; fi
}

# expect_err PATTERN DESCRIPTION: the first stderr line matches the grep -E pattern
expect_err() {
  if head -n 1 "$work/err.txt" | grep -Eq "$1"; then pass; else
    fail "$2: stderr '$(head -n 1 "$work/err.txt")' does not match '$1'"
  fi
}

# expect_nothing_written DESCRIPTION: no out/ directory and no res/ directory in the work dir
expect_nothing_written() {
  if [ ! -e "$work/out" ] && [ ! -e "$work/res" ]; then pass; else
    fail "$1: output left behind: $(find "$work/out" "$work/res" 2>/dev/null | tr '\n' ' ')"
  fi
}

# --- help, version, options -----------------------------------------------------------------
run --version
expect_rc 0 "--version"
grep -Eq '^rodrigues [0-9]+\.[0-9]+\.[0-9]+$' "$work/out.txt" && pass || fail "--version prints '$(cat "$work/out.txt")'"
run -V
expect_rc 0 "-V"
run --help
expect_rc 0 "--help"
grep -q '^exit status:' "$work/out.txt" && pass || fail "--help documents the exit status"
for code in 0 1 2 3 4 5; do
  grep -Eq "^  $code  " "$work/out.txt" && pass || fail "--help documents exit code $code"
done
run help
expect_rc 0 "help"
for cmd in run check options help; do
  run help $cmd
  expect_rc 0 "help $cmd"
  [ -s "$work/out.txt" ] && pass || fail "help $cmd prints nothing"
  run $cmd --help
  expect_rc 0 "$cmd --help"
done
run options
expect_rc 0 "options"
grep -Eq '^solver\.time_step +real +0\.001 ' "$work/out.txt" && pass || fail "options lists solver.time_step"
grep -q '^output\.every ' "$work/out.txt" && pass || fail "options lists output.every"

# --- usage errors: exit 1 -------------------------------------------------------------------
run
expect_rc 1 "no arguments"
run frobnicate
expect_rc 1 "unknown command"
expect_err "^rodrigues: unknown command 'frobnicate'" "unknown command message"
run --frobnicate
expect_rc 1 "unknown option"
run run
expect_rc 1 "run without a deck"
run check
expect_rc 1 "check without a deck"
run run "$decks/bad_key.yaml" --bogus
expect_rc 1 "run with an unknown option"
run run "$decks/bad_key.yaml" --set
expect_rc 1 "--set without a value"
run run "$decks/bad_key.yaml" -o
expect_rc 1 "-o without a directory"
run run a.yaml b.yaml
expect_rc 1 "two decks"
run help frobnicate
expect_rc 1 "help for an unknown command"
run options extra
expect_rc 1 "options with an argument"
expect_nothing_written "usage errors"

# --- deck errors: exit 2 (4 for an unreadable deck), FILE:LINE:COLUMN, nothing written -------
run run missing.yaml
expect_rc 4 "missing deck"
expect_err "^rodrigues: missing\.yaml: cannot open: " "missing deck message"
expect_nothing_written "missing deck"
run check missing.yaml
expect_rc 4 "check of a missing deck"
mkdir dir.yaml
run check dir.yaml
expect_rc 4 "check of a directory"
expect_err "^rodrigues: dir\.yaml: cannot read: " "directory deck message"
rmdir dir.yaml

run run "$decks/bad_syntax.yaml"
expect_rc 2 "YAML syntax error"
expect_err "^rodrigues: [^ ]*/bad_syntax\.yaml:5:1: invalid YAML" "YAML syntax error message"
expect_nothing_written "YAML syntax error"

run run "$decks/bad_mass.yaml" -o res/x
expect_rc 2 "invalid value found by the compiler"
expect_err "^rodrigues: [^ ]*/bad_mass\.yaml:6:5: rigid body 'body': mass must be > 0" "compile error message"
expect_nothing_written "compile error"

run run "$decks/bad_key.yaml"
expect_rc 2 "unknown key"
expect_err "^rodrigues: [^ ]*/bad_key\.yaml:3:3: unknown key 'time_stepp' \(did you mean 'time_step'\?\)" "unknown key message"
expect_nothing_written "unknown key"

run check "$decks/bad_key.yaml"
expect_rc 2 "check of a bad deck"

# a BeamDyn file named by the deck: missing, or malformed at a line of its own
bad=$src/tests/decks/bad
run run "$bad/55_beamdyn_blade_missing.yaml" -o res/x
expect_rc 2 "missing BeamDyn blade file"
expect_err "^rodrigues: [^ ]*/55_beamdyn_blade_missing\.yaml:11:31: beamdyn blade file '[^']*/no_such_file\.inp': cannot open" "missing BeamDyn file message"
expect_nothing_written "missing BeamDyn blade file"
run run "$bad/56_beamdyn_blade_short_row.yaml" -o res/x
expect_rc 2 "malformed BeamDyn blade file"
expect_err "^rodrigues: [^ ]*/56_beamdyn_blade_short_row\.yaml:12:22: beamdyn blade file '[^']*/blade_short_row\.inp' line 32: expected 6 numbers" "malformed BeamDyn file message"
expect_nothing_written "malformed BeamDyn blade file"

run run "$decks/point_mass.yaml" --set solver.time_step=-1
expect_rc 2 "invalid --set value"
expect_err "^rodrigues: --set solver\.time_step=-1: " "--set error message"
expect_nothing_written "invalid --set value"

run run "$decks/point_mass.yaml" --set no_equals_sign
expect_rc 2 "--set without '='"
expect_nothing_written "--set without '='"

# --- check on every deck of input/ ----------------------------------------------------------
# a method without a stepper in this build is reported, not failed: steppers land separately
nskip=0
for deck in "$src"/input/*.yaml; do
  [ -e "$deck" ] || continue
  run check "$deck"
  if [ "$rc" -eq 0 ]; then
    pass
    grep -q '^nodes ' "$work/out.txt" && pass || fail "check $deck prints no model summary"
  elif grep -q 'is not available in this build' "$work/err.txt"; then
    nskip=$((nskip + 1))
    echo "skip: check $(basename "$deck"): $(head -n 1 "$work/err.txt")"
  else
    fail "check $deck: exit $rc: $(cat "$work/err.txt")"
  fi
done
expect_nothing_written "check"

# --- a short run, with the first deck a stepper of this build accepts -------------------------
short="--set solver.time_step=0.01 --set solver.final_time=0.1 --set output.every=3"
deck=
for d in "$decks/point_mass.yaml" "$src"/input/*.yaml; do
  if "$exe" check "$d" $short >/dev/null 2>&1; then
    deck=$d
    break
  fi
done
if [ -z "$deck" ]; then
  nskip=$((nskip + 1))
  echo "skip: run: no deck has a method with a stepper in this build"
else
  base=$(basename "$deck" .yaml)
  # default directory out/<base>; stderr silent (not a terminal)
  run run "$deck" $short
  expect_rc 0 "run $base"
  [ ! -s "$work/err.txt" ] && pass || fail "run $base writes to stderr: $(cat "$work/err.txt")"
  grep -q "out/$base" "$work/out.txt" && pass || fail "run $base does not say where the results went"
  [ -f "out/$base/history.csv" ] && [ -f "out/$base/summary.json" ] && pass ||
    fail "run $base: out/$base/history.csv or summary.json missing"
  [ -z "$(find out -name '.*' ! -name .rodrigues.lock)" ] && [ ! -e "out/$base/incomplete" ] &&
    pass || fail "run $base left temporary files: $(find out -name '.*')"
  # header + initial row + steps 3, 6, 9 + final time
  lines=$(wc -l <"out/$base/history.csv")
  [ "$lines" -eq 6 ] && pass || fail "run $base: history.csv has $lines lines, want 6"
  head -n 1 "out/$base/history.csv" | grep -q '^time,.*,kinetic_energy,potential_energy,total_energy,momentum_x,momentum_y,momentum_z,angular_momentum_x,angular_momentum_y,angular_momentum_z,newton_iterations$' &&
    pass || fail "run $base: history.csv header"
  tail -n 1 "out/$base/history.csv" | grep -Eq '^0\.10*1?,' && pass || fail "run $base: last row is not at t = 0.1"
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["statistics"]["steps"] == 10, d' \
      "out/$base/summary.json" && pass || fail "run $base: summary.json does not parse or has wrong steps"
  fi

  # -o with parents
  run run "$deck" $short -o res/a/b
  expect_rc 0 "run -o res/a/b"
  [ -f res/a/b/history.csv ] && [ -f res/a/b/summary.json ] && pass || fail "run -o res/a/b: files missing"
  rm -rf res

  # an output directory that cannot be created: exit 4, nothing written
  : >res
  run run "$deck" $short -o res/sub
  expect_rc 4 "run -o under a regular file"
  expect_err "^rodrigues: cannot create directory 'res/sub': " "unwritable directory message"
  [ -f res ] && [ ! -s res ] && pass || fail "run -o under a regular file touched the file"
  rm -f res
fi

rm -rf out res

# --- a run that fails midway: exit 3, its rows up to the failure kept in DIR/incomplete with
# "status": "failed", an earlier run's results in DIR untouched (issue 16, findings 3 and 6)
if "$exe" check "$decks/fails_midway.yaml" >/dev/null 2>&1; then
  mkdir -p res/midway
  printf 'earlier\n' >res/midway/history.csv
  printf '{"earlier": true}\n' >res/midway/summary.json
  run run "$decks/fails_midway.yaml" -o res/midway
  expect_rc 3 "run failing midway"
  expect_err "^rodrigues: .*'blowup' is not finite" "run failing midway message"
  grep -q "failed at t = 0.0446875; 6 rows in res/midway/incomplete/history.csv" "$work/err.txt" &&
    pass || fail "run failing midway: where the rows are: $(cat "$work/err.txt")"
  [ "$(cat res/midway/history.csv)" = earlier ] && grep -q earlier res/midway/summary.json &&
    pass || fail "run failing midway: the earlier results were touched"
  [ "$(wc -l <res/midway/incomplete/history.csv)" -eq 7 ] && pass ||
    fail "run failing midway: the rows up to the failure are not kept"
  grep -q '"status": "failed"' res/midway/incomplete/summary.json &&
    grep -q '"error": "step from t = 0.044687500000000005 failed' res/midway/incomplete/summary.json &&
    grep -q '"history_rows": 6' res/midway/incomplete/summary.json && pass ||
    fail "run failing midway: summary.json does not say it failed"
  # the next run replaces the incomplete one; its success replaces the earlier results
  run run "$decks/fails_midway.yaml" -o res/midway --set solver.final_time=0.02
  expect_rc 0 "run into a directory with an incomplete run"
  [ ! -e res/midway/incomplete ] && grep -q '"status": "ok"' res/midway/summary.json && pass ||
    fail "a successful run did not publish its results or remove the incomplete run"
  rm -rf res
else
  nskip=$((nskip + 1))
  echo "skip: run failing midway: $("$exe" check "$decks/fails_midway.yaml" 2>&1 >/dev/null)"
fi

# a method that cannot handle the model is a deck/model error (or not in this build: also 2)
run check "$decks/fails_midway.yaml" --set solver.method=nmb
expect_rc 2 "check with a method that cannot handle the model"

# --- exact restart through the CLI: a run stopped with --checkpoint and continued with --resume
# ends on the same final row, bit for bit, as the uninterrupted run (each linear solver, full and
# modified Newton: the factorization kept across steps travels in the checkpoint)
top="$src/input/heavy_top.yaml"
for ls in klu umfpack dense; do
  for mn in false true; do
    case="$ls, modified_newton=$mn"
    common="--set solver.linear_solver=$ls --set solver.modified_newton=$mn --set output.every=1000"
    # shellcheck disable=SC2086
    run run "$top" -o "$work/full" --set solver.final_time=0.5 $common
    expect_rc 0 "restart ($case): full run"
    # shellcheck disable=SC2086
    run run "$top" -o "$work/first" --set solver.final_time=0.2 --checkpoint "$work/top.ckpt" $common
    expect_rc 0 "restart ($case): first part with --checkpoint"
    # shellcheck disable=SC2086
    run run "$top" -o "$work/second" --set solver.final_time=0.5 --resume "$work/top.ckpt" $common
    expect_rc 0 "restart ($case): second part with --resume"
    if [ "$(tail -n 1 "$work/full/history.csv")" = "$(tail -n 1 "$work/second/history.csv")" ]; then
      pass
    else
      fail "restart ($case): the resumed run's last row differs from the full run's"
    fi
  done
done
run run "$top" -o "$work/bad" --resume "$top"
expect_rc 4 "--resume with a file that is not a checkpoint"
expect_err "not a rodrigues checkpoint" "--resume with a file that is not a checkpoint"
[ -e "$work/bad" ] && fail "--resume failure left $work/bad" || pass
rm -rf "$work/full" "$work/first" "$work/second" "$work/top.ckpt"

# --- a rejected step is reported: time, step and reason on stdout and in summary.json (the
# robustness deck of issue 5 with modified Newton and at most 3 iterations fails its second
# step from both Newton starts, the predicted state and the last configuration; it is cut)
robust="$src/input/beam/composite_robust.yaml"
run run "$robust" -o "$work/robust" --set solver.modified_newton=true --set solver.final_time=0.01 \
  --set solver.max_iter=3
expect_rc 0 "run with a step cut"
grep -q '^t = 0.01: 3 steps (1 rejected), .* (at most [0-9]* in a step)' "$work/out.txt" && pass ||
  fail "run with a step cut: statistics line '$(sed -n 2p "$work/out.txt")'"
# (the iterates end at a correction beyond half a turn, the iteration limit or a numerically
# singular matrix, depending on the round-off of the iteration matrix: test_beam_robust.c)
grep -qE "^step cut at t = 0.005 \(h = 0.005\): (Newton diverged in the step .* node 'beam_|Newton did not converge in 3 iterations.*largest at node 'beam_|step from .*singular iteration matrix)" "$work/out.txt" && pass ||
  fail "run with a step cut: no 'step cut at' line: $(cat "$work/out.txt")"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["statistics"]
c = s["step_cuts"]
assert s["rejected_steps"] == 1 and len(c) == 1, s
assert abs(c[0]["t"] - 0.005) < 1e-12 and c[0]["h"] == 0.005, c
assert (c[0]["status"] == "RD_RECOVER_NEWTON" and "beam_" in c[0]["reason"]) or c[0]["status"] == "RD_RECOVER_SINGULAR", c
assert s["max_newton_iterations"] >= 3, s' "$work/robust/summary.json" && pass ||
    fail "run with a step cut: summary.json step_cuts"
fi
rm -rf "$work/robust"

[ "$nskip" -eq 0 ] || echo "$nskip check(s) skipped"
summary
