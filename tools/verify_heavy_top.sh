#!/bin/sh
# SPDX-License-Identifier: MIT
# Heavy-top convergence of the generalized-alpha stepper (index 3 and stabilized), table + plot.
#
# usage: tools/verify_heavy_top.sh [BUILD_DIR]      (default: build; run from the source root)
#
# Runs `tests/test_ga_heavy_top --full` (errors in u = R X - X and in the quaternion at t = 2
# against the CONVERGED reference of docs/benchmarks.md A6, for rho_inf in {0, 0.5, 0.9, 1} and
# h = 4e-3 ... 1.25e-4, in both rotation frames) and turns its output into
# out/verify_heavy_top/errors.dat (columns: formulation frame rho h err_u err_q; failed runs are
# left out) and the log-log plot docs/figures/heavy_top_convergence.png/.svg.
set -eu

build=${1:-build}
exe="$build/tests/test_ga_heavy_top"
out=out/verify_heavy_top
fig=docs/figures
if [ ! -x "$exe" ]; then
  echo "verify_heavy_top: $exe not found: build first (ninja -C $build)" >&2
  exit 1
fi
mkdir -p "$out" "$fig"
"$exe" --full > "$out/test.log" || true
awk '
  /^(body|spatial), rho_inf = /             { form = "index3"; frame = $1; rho = $4 }
  /^stabilized, (body|spatial), rho_inf = / { form = "stabilized"; frame = $2; rho = $5 }
  /^  h / && $6 < 1e29                      { sub(",", "", frame); print form, frame, rho, $2, $6, $10 }
' "$out/test.log" > "$out/errors.dat"
tail -n 1 "$out/test.log"
cat "$out/errors.dat"

gnuplot <<GP
set logscale xy
set format x "%.0e"
set format y "%.0e"
set xlabel "h (s)"
set ylabel "max |u - u_ref| at t = 2 (m)" noenhanced
set key left top
set grid
set title "Heavy top (docs/benchmarks.md A6), generalized-alpha: spatial frame (solid), body (dashed)"
set terminal pngcairo size 900,650
set output "$fig/heavy_top_convergence.png"
plot for [r in "0 0.5 0.9"] \
       "< awk '\$1 == \"index3\" && \$2 == \"spatial\" && \$3 == ".r."' $out/errors.dat" u 4:5 w lp lw 2 t "index 3, spatial, rho ".r, \
     for [r in "0.9 1"] \
       "< awk '\$1 == \"stabilized\" && \$2 == \"spatial\" && \$3 == ".r."' $out/errors.dat" u 4:5 w lp lw 2 t "stabilized, spatial, rho ".r, \
     for [r in "0 0.9"] \
       "< awk '\$1 == \"index3\" && \$2 == \"body\" && \$3 == ".r."' $out/errors.dat" u 4:5 w lp dt 2 t "index 3, body, rho ".r, \
     "< awk '\$1 == \"stabilized\" && \$2 == \"body\" && \$3 == 0.9' $out/errors.dat" u 4:5 w lp dt 2 t "stabilized, body, rho 0.9", \
     2400*x**2 w l lc rgb "black" dt 3 t "2400 h^2"
set terminal svg size 900,650
set output "$fig/heavy_top_convergence.svg"
replot
GP
echo "wrote $out/errors.dat, $fig/heavy_top_convergence.png, $fig/heavy_top_convergence.svg"
