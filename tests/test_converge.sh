#!/bin/sh
# SPDX-License-Identifier: MIT
# rodrigues converge on a short slow-top study: CSV columns, observed orders (nmb 2, liemid_e1 1),
# the FILE form of --reference, failures reported in place, a beam node (R only), usage errors.
# usage: test_converge.sh RODRIGUES SOURCE_ROOT
exe=${1:?usage: test_converge.sh RODRIGUES SOURCE_ROOT}
root=${2:?usage: test_converge.sh RODRIGUES SOURCE_ROOT}
deck="$root/input/rigid/slow_top.yaml"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_converge.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$root/tests/support/harness.sh"

# value of column $2 in the data row $3 (1-based) of CSV $1
field() {
  awk -F, -v col="$2" -v row="$3" 'NR == row + 1 { print $col }' "$1"
}

# is $1 a number in [$2, $3]?
within() {
  awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x + 0 == x && x >= lo && x <= hi) }'
}

# 1 s of the slow top (Omega3 = 5 rad/s): 50, 100, 200 steps; reference nmb at 3200 steps
out="$tmp/study"
"$exe" converge "$deck" --methods nmb,liemid_e1 --dt 0.02,0.01,0.005 \
  --reference nmb:0.0003125 --set solver.final_time=1 -o "$out" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
check "converge exits 0 (got $rc: $(cat "$tmp/stderr"))" test "$rc" -eq 0
csv="$out/convergence.csv"
check "convergence.csv written" test -f "$csv"
check "CSV header" test "$(head -n 1 "$csv" 2>/dev/null)" = \
  "method,dt,err_R,err_Pi,order_R,order_Pi,steps,load_evaluations,wall_time"
check "6 data rows of 9 columns" test "$(awk -F, 'NR > 1 && NF == 9' "$csv" | wc -l)" -eq 6
check "method column" test "$(awk -F, 'NR > 1 { printf "%s ", $1 }' "$csv")" = \
  "nmb nmb nmb liemid_e1 liemid_e1 liemid_e1 "
check "dt column" test "$(awk -F, 'NR > 1 { printf "%s ", $2 }' "$csv")" = \
  "0.02 0.01 0.005 0.02 0.01 0.005 "
for r in 1 2 3 4 5 6; do
  n=$((r % 3))
  want=$((n == 1 ? 50 : n == 2 ? 100 : 200))
  check "steps of row $r = $want" test "$(field "$csv" 7 $r)" = "$want"
  check "load evaluations of row $r > 0" within "$(field "$csv" 8 $r)" 1 1e12
  check "errors of row $r positive and small" within "$(field "$csv" 3 $r)" 1e-14 0.5
done
check "first row of a method has no order" test "$(field "$csv" 5 1),$(field "$csv" 6 4)" = "nan,nan"
for r in 2 3; do
  check "nmb order_R near 2 (row $r: $(field "$csv" 5 $r))" within "$(field "$csv" 5 $r)" 1.7 2.3
  check "nmb order_Pi near 2 (row $r: $(field "$csv" 6 $r))" within "$(field "$csv" 6 $r)" 1.7 2.3
done
for r in 5 6; do
  check "liemid_e1 order_R near 1 (row $r: $(field "$csv" 5 $r))" within "$(field "$csv" 5 $r)" 0.7 1.3
  check "liemid_e1 order_Pi near 1 (row $r: $(field "$csv" 6 $r))" within "$(field "$csv" 6 $r)" 0.7 1.3
done
if command -v gnuplot >/dev/null 2>&1; then
  check "convergence.png drawn" test -s "$out/convergence.png"
  check "convergence.svg drawn" test -s "$out/convergence.svg"
fi

# the same reference given as a FILE (commas, comments) gives the same errors
awk '/q_ref = \(/ { gsub(/.*\(|\)/, ""); q = $0 }
     /Pi_ref = \(/ { gsub(/.*\(|\)/, ""); p = $0 }
     END { print "# reference from the run above"; print q ", " p "  # qw qx qy qz Pix Piy Piz" }' \
  "$tmp/stdout" >"$tmp/ref.txt"
"$exe" converge "$deck" --methods nmb --dt 0.02,0.01 --reference "$tmp/ref.txt" \
  --set solver.final_time=1 -o "$tmp/file" >/dev/null 2>&1
check "converge with --reference FILE exits 0" test $? -eq 0
for r in 1 2; do
  a=$(field "$csv" 3 $r)
  b=$(field "$tmp/file/convergence.csv" 3 $r)
  check "same err_R with the reference file (row $r: $a vs $b)" \
    awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-9 * a) }'
done

# a method that cannot run is reported as failed, not fatal (an unstable huge step)
"$exe" converge "$deck" --methods nmb --dt 5,0.01 --reference nmb:0.0003125 \
  --set solver.final_time=1 -o "$tmp/big" >"$tmp/big.out" 2>&1
check "a failing or inaccurate run does not stop the study" test $? -eq 0
check "the study still wrote both rows" test "$(awk 'END { print NR }' "$tmp/big/convergence.csv")" -eq 3

# a beam node carries no rigid body, so no body angular momentum: the study compares R alone,
# without the columns of Pi, and draws the attitude's panel (review finding: a zero column of Pi
# made gnuplot fail). Generalized-alpha's order 2 on the NREL blade's tip, 40 ms of spin-up
"$exe" converge "$root/input/beam/nrel5mw_rotating.yaml" --methods generalized_alpha \
  --dt 0.002,0.001,0.0005 --node blade_5 --set solver.final_time=0.04 -o "$tmp/beam" \
  >"$tmp/beam.out" 2>"$tmp/beam.err"
rc=$?
check "a beam node: converge exits 0 (got $rc: $(cat "$tmp/beam.err"))" test "$rc" -eq 0
check "a beam node: says that it compares R only" grep -q "the study compares R only" "$tmp/beam.out"
bcsv="$tmp/beam/convergence.csv"
check "a beam node: CSV header without Pi" test "$(head -n 1 "$bcsv" 2>/dev/null)" = \
  "method,dt,err_R,order_R,steps,load_evaluations,wall_time"
check "a beam node: 3 data rows of 7 columns" test "$(awk -F, 'NR > 1 && NF == 7' "$bcsv" | wc -l)" -eq 3
for r in 2 3; do
  check "a beam node: order_R near 2 (row $r: $(field "$bcsv" 4 $r))" within "$(field "$bcsv" 4 $r)" 1.7 3.0
done
if command -v gnuplot >/dev/null 2>&1; then
  check "a beam node: convergence.png drawn" test -s "$tmp/beam/convergence.png"
  check "a beam node: one panel, of R" grep -q "multiplot layout 1,1" "$tmp/beam/convergence.gp"
fi

# gnuplot failing is a failure of the command (status 4); gnuplot missing is not
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
PATH="$tmp/bin:$PATH" "$exe" converge "$deck" --methods nmb --dt 0.02,0.01 \
  --reference nmb:0.0025 --set solver.final_time=0.2 -o "$tmp/plotfail" >/dev/null 2>"$tmp/plot.err"
rc=$?
check "a failing gnuplot gives status 4 (got $rc)" test "$rc" -eq 4
check "and says so" grep -q "gnuplot failed" "$tmp/plot.err"

# usage errors
"$exe" converge "$deck" --methods nmb --dt abc >/dev/null 2>&1
check "bad --dt is a usage error" test $? -eq 1
"$exe" converge "$deck" --dt 0.1 >/dev/null 2>&1
check "missing --methods is a usage error" test $? -eq 1
"$exe" converge "$deck" --methods nmb --dt 0.1 --reference "$tmp/none.txt" >/dev/null 2>&1
check "missing reference file fails" test $? -ne 0
"$exe" converge --help >/dev/null 2>&1
check "--help exits 0" test $? -eq 0

summary
