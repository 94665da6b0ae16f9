#!/bin/sh
# SPDX-License-Identifier: MIT
# The robustness case of issue 5 against converged solutions: the composite cantilever of
# docs/benchmarks.md B3 under the sudden tip force, tip u_z(t) to t = 1.
#
# usage: tools/verify_b3_robust.sh [BUILD_DIR]      (default: build; run from the source root)
#
# Runs input/beam/composite_robust.yaml (one 15-node element, h = 0.005, rho_inf = 0,
# max_iter 10) with full and modified Newton, the same model at h / 2 ... h / 16, and 5, 10,
# 20 and 25 nodes (one element) at h / 8; prints the largest difference of the tip u_z over the
# 20 times t = 0.05 ... 1 between the runs and from BeamDyn's 5-node curve (docs/benchmarks.md B3),
# writes out/verify_b3_robust/*.dat and the plot docs/figures/b3_robust.png/.svg. About 40 s.
set -eu

build=${1:-build}
exe="$build/rodrigues"
out=out/verify_b3_robust
fig=docs/figures
deck=input/beam/composite_robust.yaml
if [ ! -x "$exe" ]; then
  echo "verify_b3_robust: $exe not found: build first (ninja -C $build)" >&2
  exit 1
fi
mkdir -p "$out" "$fig"

# run NAME NODES H EVERY [SET...]: tip u_z history in $out/NAME.dat (t, u_z)
run() {
  name=$1 nodes=$2 h=$3 every=$4
  shift 4
  last=$((nodes - 1))
  sed -e "s/nodes: 15\$/nodes: $nodes/" -e "s/beam_14/beam_$last/g" "$deck" > "$out/$name.yaml"
  "$exe" run "$out/$name.yaml" -o "$out/$name" --set solver.time_step="$h" \
    --set output.every="$every" "$@" | sed -n 2,3p | sed "s/^/$name: /"
  awk -F, -v c="beam_$last.z" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                               { print $1, $k }' "$out/$name/history.csv" > "$out/$name.dat"
}

run n15_h1 15 0.005 1
run n15_h1_modified 15 0.005 1 --set solver.modified_newton=true
run n15_h2 15 0.0025 2
run n15_h4 15 0.00125 4
run n15_h8 15 0.000625 8
run n15_h16 15 0.0003125 16
run n5_h1 5 0.005 1
run n5_h8 5 0.000625 8
run n10_h8 10 0.000625 8
run n20_h8 20 0.000625 8
run n25_h8 25 0.000625 8

cat > "$out/beamdyn.dat" <<'EOF'
0.05 7.6836577300452E-01
0.10 2.0534850126406
0.15 2.2052968852838
0.20 1.1064712884566
0.25 1.5758876087082E-01
0.30 5.5309538849698E-01
0.35 1.8159069869944
0.40 2.2654942795857
0.45 1.3113534620467
0.50 2.7880849115281E-01
0.55 4.4070037636959E-01
0.60 1.5982497943061
0.65 2.2970328612154
0.70 1.5343329056122
0.75 3.4515990609276E-01
0.80 2.7817188933310E-01
0.85 1.3946588334800
0.90 2.2886913889084
0.95 1.8093410364286
1.00 5.4135602327642E-01
EOF

# largest |u_z(A) - u_z(B)| over t = 0.05 k, k = 1 .. 20
diff() {
  awk -v A="$1" -v B="$2" '
    function key(t) { return sprintf("%.4f", t) }
    FNR == NR { a[key($1)] = $2; next }
    { k = key($1); if ((k in a) && ($1 + 1e-9) % 0.05 < 2e-6 && $1 > 0.01) {
        d = a[k] - $2; if (d < 0) d = -d; if (d > m) m = d; n++ } }
    END { printf "%-18s vs %-18s %.3e (%d times)\n", A, B, m, n }
  ' "$out/$1.dat" "$out/$2.dat"
}

echo "largest difference of the tip u_z over t = 0.05 ... 1:"
diff n15_h1 n15_h16
diff n15_h2 n15_h16
diff n15_h4 n15_h16
diff n15_h8 n15_h16
diff n15_h1 n15_h8
diff n15_h1_modified n15_h1
diff n5_h1 n5_h8
diff n5_h8 n25_h8
diff n10_h8 n25_h8
diff n15_h8 n25_h8
diff n20_h8 n25_h8
diff n15_h1 beamdyn
diff n5_h1 beamdyn
diff n15_h16 beamdyn

gnuplot <<GP
set xlabel "t (s)"
set ylabel "tip u_z (m)"
set key outside right
set grid
set title "B3 sudden tip force: one 15-node element (composite\\\\_robust.yaml)"
set terminal pngcairo size 1000,560
set output "$fig/b3_robust.png"
plot "$out/n15_h1.dat" u 1:2 w l lw 2 t "15 nodes, h = 0.005 (the deck)", \
     "$out/n15_h16.dat" u 1:2 w l lw 2 dt 2 t "15 nodes, h = 0.0003125", \
     "$out/n5_h1.dat" u 1:2 w l lw 1 t "5 nodes, h = 0.005", \
     "$out/beamdyn.dat" u 1:2 w p pt 7 ps 1 t "BeamDyn, 5 nodes, h = 0.005"
set terminal svg size 1000,560
set output "$fig/b3_robust.svg"
replot
GP
echo "wrote $out/*.dat, $fig/b3_robust.png, $fig/b3_robust.svg"
