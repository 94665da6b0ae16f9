#!/bin/sh
# SPDX-License-Identifier: MIT
# rodrigues modes and rodrigues campbell on the NREL 5-MW blade decks: the files each writes
# (modes.csv, modes.nc, the animations, the matrices, the state-space model; campbell.csv and
# the figures), the table against the test's frequencies, usage errors and their exit codes.
# usage: test_modes_cli.sh RODRIGUES SOURCE_ROOT
exe=${1:?usage: test_modes_cli.sh RODRIGUES SOURCE_ROOT}
root=${2:?usage: test_modes_cli.sh RODRIGUES SOURCE_ROOT}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_modes_cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$root/tests/support/harness.sh"

# is $1 a number in [$2, $3]?
within() {
  awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x + 0 == x && x >= lo && x <= hi) }'
}

# the clamped blade at rest (gravity off), its matrices and a state-space model
deck="$root/input/beam/nrel5mw_gravity_az00.yaml"
out="$tmp/modes"
"$exe" modes "$deck" -o "$out" --count 6 --flap-axis 1,0,0 --export-matrices --frames 6 \
  --ss-input force:blade_5:x --ss-output displacement:blade_5:x \
  --ss-output reaction_moment:root:y --set 'gravity=[0,0,0]' >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
check "modes exits 0 (got $rc: $(cat "$tmp/stderr"))" test "$rc" -eq 0
csv="$out/modes.csv"
check "modes.csv header" test "$(head -n 1 "$csv" 2>/dev/null | cut -d, -f1-7)" = \
  "mode,frequency_hz,damping_ratio,natural_hz,eigenvalue_real,eigenvalue_imag,classification"
check "6 modes of 20 columns" test "$(awk -F, 'NR > 1 && NF == 20' "$csv" | wc -l)" -eq 6
# tests/test_modal_nrel.c: flap 1 0.6925 Hz, edge 1 1.0862 Hz at order 5
check "flap 1 at 0.6925 Hz" within "$(awk -F, 'NR == 2 { print $2 }' "$csv")" 0.69251 0.69252
check "mode 1 is flap" test "$(awk -F, 'NR == 2 { print $7 }' "$csv")" = flap
check "edge 1 at 1.0862 Hz" within "$(awk -F, 'NR == 3 { print $2 }' "$csv")" 1.08619 1.08620
check "mode 2 is edge" test "$(awk -F, 'NR == 3 { print $7 }' "$csv")" = edge
check "the table on stdout" grep -q '^   1 .* flap 1$' "$tmp/stdout"
check "modes.nc" test -s "$out/modes.nc"
for k in 01 06; do
  check "mode_$k/results.pvd of 6 frames" \
    test "$(grep -c '<DataSet .*part="0"' "$out/mode_$k/results.pvd")" -eq 6
  check "mode_$k/vtk/results_000005.vtu" test -s "$out/mode_$k/vtk/results_000005.vtu"
done
for m in M D K B N Mr Dr Kr; do
  check "matrices/$m.mtx" grep -q '^%%MatrixMarket matrix coordinate real general' "$out/matrices/$m.mtx"
done
check "matrices.json: 30 reduced unknowns" grep -q '"nreduced": 30' "$out/matrices/matrices.json"
check "statespace.json: the channels" grep -q '"outputs": \["displacement blade_5 x", "reaction_moment root y"\]' \
  "$out/statespace/statespace.json"
check "A.mtx is 60 x 60" test "$(sed -n 3p "$out/statespace/A.mtx")" = "60 60"

# the other operating points: the blade under gravity at its static equilibrium (the final
# time, 30 s; flap 1 moves from 0.692513 to 0.692436 Hz) and at t = 0.05 s of its dynamic run
out="$tmp/static"
"$exe" modes "$deck" -o "$out" --count 2 --flap-axis 1,0,0 --at static --no-vtk \
  --export-matrices >/dev/null 2>"$tmp/stderr"
rc=$?
check "--at static exits 0 (got $rc: $(cat "$tmp/stderr"))" test "$rc" -eq 0
check "  at t = 30" grep -q '"time": 30,' "$out/matrices/matrices.json"
check "  flap 1 at 0.69244 Hz" within "$(awk -F, 'NR == 2 { print $2 }' "$out/modes.csv")" 0.69243 0.69244
out="$tmp/at_t"
"$exe" modes "$deck" -o "$out" --count 2 --flap-axis 1,0,0 --at t=0.05 --no-vtk \
  --export-matrices >/dev/null 2>"$tmp/stderr"
rc=$?
check "--at t=0.05 exits 0 (got $rc: $(cat "$tmp/stderr"))" test "$rc" -eq 0
check "  at t = 0.05" grep -q '"time": 0.050000000000000003,' "$out/matrices/matrices.json"
check "  flap 1 near rest" within "$(awk -F, 'NR == 2 { print $2 }' "$out/modes.csv")" 0.6924 0.6926

# the rotating blade: a Campbell diagram over 0 .. 12 rpm
out="$tmp/campbell"
"$exe" campbell "$root/input/beam/nrel5mw_rotating.yaml" -o "$out" --speeds 0:12:4 \
  --spin-axis 1,0,0 --count 4 --set 'gravity=[0,0,0]' >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
check "campbell exits 0 (got $rc: $(cat "$tmp/stderr"))" test "$rc" -eq 0
csv="$out/campbell.csv"
check "campbell.csv header" test "$(head -n 1 "$csv")" = \
  "speed_rpm,line,mode,frequency_hz,damping_ratio,classification,mac"
check "4 speeds x 4 modes" test "$(awk -F, 'NR > 1' "$csv" | wc -l)" -eq 16
check "4 lines, tracked" test "$(awk -F, 'NR > 1 { print $2 }' "$csv" | sort -u | wc -l)" -eq 4
# flap 1 stiffens: 0.6925 Hz at rest, 0.7407 at 12 rpm
check "flap 1 at 12 rpm" within "$(awk -F, '$1 == 12 && $6 == "flap 1" { print $4 }' "$csv")" 0.7406 0.7408
check "campbell.gp" test -s "$out/campbell.gp"
if command -v gnuplot >/dev/null 2>&1; then
  check "campbell.png" test -s "$out/campbell.png"
  check "campbell.svg" test -s "$out/campbell.svg"
fi

# usage errors (exit 1) and a deck without degrees of freedom left
"$exe" modes "$deck" --count 0 >/dev/null 2>"$tmp/stderr"
check "--count 0: exit 1" test $? -eq 1
"$exe" modes "$deck" --spin-rpm 5 >/dev/null 2>"$tmp/stderr"
check "a spin without an axis: exit 1" test $? -eq 1
check "  says so" grep -q 'needs --spin-axis' "$tmp/stderr"
"$exe" modes "$deck" --at t=x >/dev/null 2>"$tmp/stderr"
check "--at t=x: exit 1" test $? -eq 1
"$exe" modes "$deck" -o "$tmp/x" --ss-input force:nowhere:x >/dev/null 2>"$tmp/stderr"
check "an unknown node: exit 1" test $? -eq 1
check "  names it" grep -q "no such node in 'force:nowhere:x'" "$tmp/stderr"
"$exe" campbell "$deck" --spin-axis 1,0,0 >/dev/null 2>"$tmp/stderr"
check "campbell without --speeds: exit 1" test $? -eq 1
"$exe" modes --help >"$tmp/stdout"
check "modes --help" grep -q '^usage: rodrigues modes DECK' "$tmp/stdout"
"$exe" campbell --help >"$tmp/stdout"
check "campbell --help" grep -q '^usage: rodrigues campbell DECK' "$tmp/stdout"
summary
