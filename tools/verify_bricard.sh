#!/bin/sh
# SPDX-License-Identifier: MIT
# Bricard's mechanism (IFToMM A04): P3 of input/bricard.yaml against the joint-angle reference
# of tests/test_bricard.c, table + plot.
#
# usage: tools/verify_bricard.sh [BUILD_DIR]      (default: build; run from the source root)
#
# Writes out/verify_bricard/test.log (the test's output with --table), p3.dat (t, P3 of the
# reference, P3 - reference at h = 1e-3 and 5e-4, every 0.05 s) and the plot
# docs/figures/bricard_p3.png/.svg.
set -eu

build=${1:-build}
exe="$build/tests/test_bricard"
out=out/verify_bricard
fig=docs/figures
if [ ! -x "$exe" ]; then
  echo "verify_bricard: $exe not found: build first (ninja -C $build)" >&2
  exit 1
fi
mkdir -p "$out" "$fig"
"$exe" input --table > "$out/test.log" || true
"$exe" input --dat "$out/p3.dat"
tail -n 1 "$out/test.log"

gnuplot <<GP
set terminal pngcairo size 900,800
set output "$fig/bricard_p3.png"
set multiplot layout 2,1
set grid
set xlabel "t (s)"
set ylabel "P3 (m)"
set key outside right
set title "Bricard mechanism (IFToMM A04): P3, reference (lines) and rodrigues h = 1e-3 (points)"
plot for [c=2:4] "$out/p3.dat" u 1:c w l lw 2 lt c-1 t word("x y z", c-1), \
     for [c=2:4] "" u 1:(column(c)+column(c+3)) every 4 w p pt 7 ps 0.6 lt c-1 notitle
set logscale y
set format y "%.0e"
set ylabel "|P3 - reference| (m)"
set title "error of P3 (largest component), generalized-alpha rho_inf = 0.9, index 3" noenhanced
mx(a,b,c) = (abs(a) > abs(b) ? (abs(a) > abs(c) ? abs(a) : abs(c)) : (abs(b) > abs(c) ? abs(b) : abs(c)))
plot "$out/p3.dat" u 1:(mx(\$5,\$6,\$7)) w l lw 2 t "h = 1e-3", \
     "" u 1:(mx(\$8,\$9,\$10)) w l lw 2 t "h = 5e-4"
unset multiplot
set terminal svg size 900,800
set output "$fig/bricard_p3.svg"
set multiplot layout 2,1
unset logscale y
set format y "% g"
set ylabel "P3 (m)"
set title "Bricard mechanism (IFToMM A04): P3, reference (lines) and rodrigues h = 1e-3 (points)"
plot for [c=2:4] "$out/p3.dat" u 1:c w l lw 2 lt c-1 t word("x y z", c-1), \
     for [c=2:4] "" u 1:(column(c)+column(c+3)) every 4 w p pt 7 ps 0.6 lt c-1 notitle
set logscale y
set format y "%.0e"
set ylabel "|P3 - reference| (m)"
set title "error of P3 (largest component), generalized-alpha rho_inf = 0.9, index 3" noenhanced
plot "$out/p3.dat" u 1:(mx(\$5,\$6,\$7)) w l lw 2 t "h = 1e-3", \
     "" u 1:(mx(\$8,\$9,\$10)) w l lw 2 t "h = 5e-4"
unset multiplot
GP
echo "wrote $out/p3.dat, $fig/bricard_p3.png, $fig/bricard_p3.svg"
