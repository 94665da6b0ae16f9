#!/bin/sh
# SPDX-License-Identifier: MIT
# Reproduce the rigid-body figures of Krysl & Endres 2005 (IJNME 62) and Krysl 2004 (Acta
# Polytechnica 44) through the rodrigues CLI (docs/benchmarks.md, KE §3.1-3.6).
#
# usage: tools/verify_rigid.sh [BUILD_DIR]        (default: build; run from the source root)
#
# For the free body, fast top, slow top and Coulomb wall it computes an independent reference
# state with bench/rigid_reference (GSL rk8pd, rtol = atol = 1e-13; it also checks that the
# deck's initial state is its own), runs `rodrigues converge` against it, and draws the book
# toss's body angular velocities and spatial angular momenta (NMB and SW at steps 0.05 and
# 0.001, the paper's figures 6 and 7) from history.csv.
# Plots go to docs/figures/ (PNG + SVG); tables, logs and CSVs to out/verify_rigid/, with
# out/verify_rigid/summary.txt holding the observed orders and the error ratios that
# docs/verification.md quotes.
set -eu

build=${1:-build}
exe="$build/rodrigues"
ref="$build/bench/rigid_reference"
out=out/verify_rigid
fig=docs/figures
for f in "$exe" "$ref"; do
  if [ ! -x "$f" ]; then
    echo "verify_rigid: $f not found: build first (ninja -C $build)" >&2
    exit 1
  fi
done
if [ ! -f input/rigid/fast_top.yaml ]; then
  echo "verify_rigid: run from the source root (input/rigid/ not found)" >&2
  exit 1
fi
have_gnuplot=1
command -v gnuplot >/dev/null 2>&1 || have_gnuplot=0
[ "$have_gnuplot" = 1 ] || echo "verify_rigid: gnuplot not found: tables only, no figures" >&2
mkdir -p "$out" "$fig"
summary="$out/summary.txt"
{
  echo "# tools/verify_rigid.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), rodrigues $("$exe" --version | cut -d' ' -f2)"
  echo "# git $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (dirty tree)')"
} >"$summary"

# step sizes: the free body uses the paper's figure 4 (8 ... 1/256); the other figures give none
dt_free="8,4,2,1,0.5,0.25,0.125,0.0625,0.03125,0.015625,0.0078125,0.00390625"
dt_fast="0.1,0.05,0.025,0.0125,0.00625,0.003125,0.0015625,0.00078125,0.000390625,0.0001953125,0.00009765625,0.000048828125"
dt_slow="0.4,0.2,0.1,0.05,0.025,0.0125,0.00625,0.003125,0.0015625,0.00078125"
dt_coul="0.4,0.2,0.1,0.05,0.025,0.0125,0.00625,0.003125,0.0015625,0.00078125"

# methods: those of the papers' figures, plus the midpoint-Lie family (Krysl 2004) and NMS on the
# fast top (Krysl & Endres 2005 §2.5: NMS is equivalent to NMB)
m_free="nmb,sw,hstagm,akw,liemid_ea,liemid_i"
m_fast="nmb,nms,sw,hstagm,akw,liemid_e1,liemid_e2,liemid_ea,liemid_i,generalized_alpha"
m_slow="nmb,sw,hstagm,akw,liemid_ea,liemid_i,generalized_alpha"
m_coul="nmb,sw,hstagm,akw,liemid_ea,liemid_i"

converge() {  # converge CASE METHODS DTS
  case_=$1
  deck=input/rigid/$case_.yaml
  echo "== $case_"
  "$ref" "$case_" --deck "$deck" >"$out/ref_$case_.txt"
  # tight Newton tolerances for generalized-alpha (the only method they affect), so that its
  # error is the discretization error down to the smallest step
  cmd="$exe converge $deck --methods $2 --dt $3 --reference $out/ref_$case_.txt -o $out/$case_ --set solver.atol=1e-12 --set solver.rtol=1e-10"
  echo "\$ $cmd" >"$out/$case_.log"
  if ! $cmd >>"$out/$case_.log" 2>&1; then
    cat "$out/$case_.log"
    echo "verify_rigid: rodrigues converge failed on $case_" >&2
    exit 1
  fi
  cat "$out/$case_.log"
  if [ -f "$out/$case_/convergence.png" ]; then
    cp "$out/$case_/convergence.png" "$fig/converge_$case_.png"
    cp "$out/$case_/convergence.svg" "$fig/converge_$case_.svg"
  fi
  {
    echo
    echo "## $case_: $cmd"
    grep '^#' "$out/ref_$case_.txt"
  } >>"$summary"
  orders "$out/$case_/convergence.csv" >>"$summary"
}

# median observed orders of each method over its last 4 step sizes
orders() {
  awk -F, '
    NR > 1 { n[$1]++; oR[$1, n[$1]] = $5; oP[$1, n[$1]] = $6; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    function med(a, m, c,   v, i, j, t, nv) {
      nv = 0
      for (i = c - 3; i <= c; i++) if (i >= 2 && a[m, i] != "nan") v[++nv] = a[m, i] + 0
      if (nv == 0) return "-"
      for (i = 1; i <= nv; i++) for (j = i + 1; j <= nv; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return sprintf("%.2f", nv % 2 ? v[(nv + 1) / 2] : (v[nv / 2] + v[nv / 2 + 1]) / 2)
    }
    END {
      printf "observed order (median over the last 4 step sizes): method order_R order_Pi\n"
      for (i = 1; i <= k; i++) printf "  %-10s %6s %6s\n", order[i], med(oR, order[i], n[order[i]]), med(oP, order[i], n[order[i]])
    }' "$1"
}

# error ratios err(B)/err(A) at equal step sizes where both runs succeeded: min, median, max
# (column 3: attitude, 4: momentum)
ratio() {  # ratio CSV A B COLUMN LABEL
  awk -F, -v a="$2" -v b="$3" -v col="$4" -v label="$5" '
    NR > 1 && $col != "nan" { e[$1, $2] = $col; dts[$2] = 1 }
    END {
      n = 0
      for (d in dts) if (((a, d) in e) && ((b, d) in e) && e[a, d] > 0) r[++n] = e[b, d] / e[a, d]
      if (n == 0) { printf "  %s: no common step sizes\n", label; exit }
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
      printf "  %s: err(%s)/err(%s) over %d step sizes: min %.3g, median %.3g, max %.3g\n", label, b, a, n, r[1], n % 2 ? r[(n + 1) / 2] : sqrt(r[n / 2] * r[n / 2 + 1]), r[n]
    }' "$1"
}

converge free_body "$m_free" "$dt_free"
converge fast_top "$m_fast" "$dt_fast"
converge slow_top "$m_slow" "$dt_slow"
converge coulomb_wall "$m_coul" "$dt_coul"

{
  echo
  echo "## the papers' claims: error ratios at equal step sizes"
  ratio "$out/free_body/convergence.csv" nmb akw 3 "free body, attitude"
  ratio "$out/free_body/convergence.csv" nmb akw 4 "free body, momentum"
  ratio "$out/free_body/convergence.csv" nmb sw 3 "free body, attitude"
  ratio "$out/fast_top/convergence.csv" liemid_ea liemid_i 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" liemid_ea liemid_i 4 "fast top, momentum"
  ratio "$out/fast_top/convergence.csv" liemid_ea akw 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" liemid_ea akw 4 "fast top, momentum"
  ratio "$out/fast_top/convergence.csv" liemid_ea nmb 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" liemid_ea nmb 4 "fast top, momentum"
  ratio "$out/fast_top/convergence.csv" liemid_ea sw 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" liemid_ea hstagm 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" nmb sw 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" nmb nms 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" sw hstagm 3 "fast top, attitude"
  ratio "$out/fast_top/convergence.csv" sw hstagm 4 "fast top, momentum"
  ratio "$out/slow_top/convergence.csv" nmb akw 3 "slow top, attitude"
  ratio "$out/slow_top/convergence.csv" nmb akw 4 "slow top, momentum"
  ratio "$out/coulomb_wall/convergence.csv" nmb akw 3 "Coulomb wall, attitude"
  ratio "$out/coulomb_wall/convergence.csv" nmb akw 4 "Coulomb wall, momentum"
  ratio "$out/slow_top/convergence.csv" nmb sw 3 "slow top, attitude"
  ratio "$out/slow_top/convergence.csv" nmb hstagm 3 "slow top, attitude"
  ratio "$out/slow_top/convergence.csv" nmb liemid_ea 3 "slow top, attitude"
  ratio "$out/slow_top/convergence.csv" nmb liemid_i 3 "slow top, attitude"
  for m in sw hstagm liemid_ea liemid_i; do
    ratio "$out/coulomb_wall/convergence.csv" nmb $m 3 "Coulomb wall, attitude"
    ratio "$out/coulomb_wall/convergence.csv" nmb $m 4 "Coulomb wall, momentum"
  done
} >>"$summary"

# book toss (Krysl & Endres 2005, figures 6 and 7): body angular velocities and spatial
# angular momenta of NMB and SW at steps 0.05 and 0.001
echo "== book_toss"
echo >>"$summary"
echo "## book toss (figures 6 and 7)" >>"$summary"
for m in nmb sw; do
  for h in 0.05 0.001; do
    # the deck's disturbance 1/(5 dt) on [2, 2 + dt) is written for dt = 0.05: rescale it
    kick=$(awk -v h="$h" 'BEGIN { printf "loads.kick.value=[0,%.17g,0]", 1 / (5 * h) }')
    window=$(awk -v h="$h" 'BEGIN { printf "time_functions.disturbance.points=[[0,0],[2,1],[%.17g,0]]", 2 + h }')
    cmd="$exe run input/rigid/book_toss.yaml --set solver.method=$m --set solver.time_step=$h --set $kick --set $window --set output.every=1 -o $out/book_toss_${m}_$h"
    echo "\$ $cmd"
    if $cmd >"$out/book_toss_${m}_$h.log" 2>&1; then
      # the largest body angular velocity reached: a blown-up run shows here
      awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /\.W[xyz]$/) c[++n] = i; next }
               { for (i = 1; i <= n; i++) { v = $c[i] < 0 ? -$c[i] : $c[i]; if (v > mx) mx = v } }
               END { printf "  %-3s dt = %-5s max |W_i| = %.4g rad/s over %d rows\n", m, h, mx, NR - 1 }' \
        m="$m" h="$h" "$out/book_toss_${m}_$h/history.csv" >>"$summary"
      # figure 7: the spatial angular momentum pi (the angular momentum about the origin, where
      # the centre of mass stays): pi(t) = t (20, 0, 0) exactly while the torque is constant
      # (rows t < 2 - dt/2) for a momentum-conserving method, and constant after the
      # disturbance (rows t >= 2 + dt): largest deviation and the spread of each component
      awk -F, -v m="$m" -v h="$h" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^angular_momentum_[xyz]$/) c[++n] = i; next }
        { t = $1 + 0
          if (t < 2 - h / 2) {
            d1 = $c[1] - 20 * t; d2 = $c[2]; d3 = $c[3]; e = sqrt(d1 * d1 + d2 * d2 + d3 * d3)
            if (e > before) before = e
          } else if (t >= 2 + h - 1e-9) {
            for (i = 1; i <= 3; i++) {
              if (!(i in lo) || $c[i] < lo[i]) lo[i] = $c[i]
              if (!(i in hi) || $c[i] > hi[i]) hi[i] = $c[i]
            }
          } }
        END { printf "  %-3s dt = %-5s pi during the spin-up: max |pi - t (20, 0, 0)| = %.3g; after the disturbance: spread (max - min) of pi_x, pi_y, pi_z = %.3g %.3g %.3g\n",
              m, h, before, hi[1] - lo[1], hi[2] - lo[2], hi[3] - lo[3] }' \
        "$out/book_toss_${m}_$h/history.csv" >>"$summary"
    else
      echo "  $m dt = $h: run failed: $(tail -n 1 "$out/book_toss_${m}_$h.log")" >>"$summary"
    fi
  done
done
# book_plot NAME REGEX SYMBOL YLABEL TITLE: the four book-toss runs, NMB and SW side by side,
# the three history.csv columns matching REGEX at dt = 0.05 (points) and 0.001 (lines)
book_plot() {
  hdr=$(find "$out" -path "*book_toss_*" -name history.csv | head -n 1)
  [ -n "$hdr" ] || return 0
  cols=$(head -n 1 "$hdr" | awk -F, -v re="$2" '{ for (i = 1; i <= NF; i++) if ($i ~ re && n < 3) { printf "%s%d", n ? " " : "", i; n++ } }')
  set -- "$1" "$3" "$4" "$5" $cols
  cat >"$out/$1.gp" <<EOF
set datafile separator ','
set datafile columnheaders
set key below horizontal font ',9'
set grid
set xlabel 'time'
set ylabel '$3 {/Symbol $2}_i'
do for [term = 1:2] {
  if (term == 1) { set terminal pngcairo size 1200,600 font 'Sans,10'; set output '$fig/$1.png' }
  if (term == 2) { set terminal svg size 1200,600 dynamic font 'Sans,10'; set output '$fig/$1.svg' }
  set multiplot layout 1,2 title '$4'
  do for [m in "nmb sw"] {
    set title m
    f1 = sprintf('$out/book_toss_%s_0.05/history.csv', m)
    f2 = sprintf('$out/book_toss_%s_0.001/history.csv', m)
    plot f1 using 1:$5 with points pt 6 lc 1 title '{/Symbol $2}_1, dt 0.05', \
         f1 using 1:$6 with points pt 6 lc 2 title '{/Symbol $2}_2, dt 0.05', \
         f1 using 1:$7 with points pt 6 lc 3 title '{/Symbol $2}_3, dt 0.05', \
         f2 using 1:$5 every 10 with lines lc 1 title '{/Symbol $2}_1, dt 0.001', \
         f2 using 1:$6 every 10 with lines lc 2 title '{/Symbol $2}_2, dt 0.001', \
         f2 using 1:$7 every 10 with lines lc 3 title '{/Symbol $2}_3, dt 0.001'
  }
  unset multiplot
  set output
}
EOF
  gnuplot "$out/$1.gp" 2>"$out/$1.gp.log" || echo "verify_rigid: gnuplot failed on $1 (see $out/$1.gp.log)" >&2
}
if [ "$have_gnuplot" = 1 ]; then
  # figure 6: body angular velocities (the node's Wx, Wy, Wz); figure 7: spatial angular
  # momentum (angular_momentum_x/y/z, about the origin, where the centre of mass stays)
  book_plot book_toss '\\.W[xyz]$' W 'body angular velocity' \
    'book toss: convected angular velocities (Krysl & Endres 2005, figure 6)'
  book_plot book_toss_momentum '^angular_momentum_[xyz]$' p 'spatial angular momentum' \
    'book toss: spatial angular momenta (Krysl & Endres 2005, figure 7)'
fi

# Hamiltonians over long runs (Krysl & Endres 2005, figure 12): free body at dt = 1 to
# t = 1000, slow top at dt = 0.1 (the step of Krysl's "Explicit Newmark algorithm") to t = 100;
# relative energy error from history.csv's total_energy
echo "== energy"
{
  echo
  echo "## energy (figure 12): max |E - E0|/|E0| (overall, first and last tenth of the run) and the first time it exceeds 1 % and 100 %"
} >>"$summary"
for c in free_body slow_top; do
  if [ "$c" = free_body ]; then h=1 tend=1000; else h=0.1 tend=100; fi
  for m in nmb sw hstagm liemid_ea; do
    d="$out/energy_${c}_$m"
    cmd="$exe run input/rigid/$c.yaml --set solver.method=$m --set solver.time_step=$h --set solver.final_time=$tend --set output.every=1 -o $d"
    echo "\$ $cmd"
    if $cmd >"$d.log" 2>&1; then
      awk -F, -v m="$m" -v c="$c" -v h="$h" -v tend="$tend" -v dat="$d/energy.dat" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "total_energy") col = i; next }
        NR == 2 { e0 = $col }
        { r = ($col - e0) / e0; if (r < 0) r = -r; print $1, r > dat
          if (r > mx) mx = r; if (r > 0.01 && t1 == "") t1 = $1; if (r > 1 && t2 == "") t2 = $1
          if ($1 <= 0.1 * tend && r > first) first = r; if ($1 >= 0.9 * tend && r > last) last = r }
        END { printf "  %-10s %-9s dt = %-4s max %.3g (first tenth %.3g, last tenth %.3g), > 1%% at t = %s, > 100%% at t = %s\n",
              c, m, h, mx, first, last, t1 == "" ? "never" : t1, t2 == "" ? "never" : t2 }' "$d/history.csv" >>"$summary"
    else
      echo "  $c $m dt = $h: run failed: $(tail -n 1 "$d.log")" >>"$summary"
    fi
  done
done
# HSTAGM on the slow top (Krysl & Endres 2005 §3.5, "stability problems"): time at which the
# relative energy error first exceeds 1 % and 100 %, for decreasing steps, to t = 100
echo "== hstagm blow-up"
echo "  slow top, hstagm to t = 100: first time |E - E0|/|E0| > 1 % and > 100 %" >>"$summary"
for h in 0.1 0.01 0.001; do
  d="$out/hstagm_slow_top_$h"
  cmd="$exe run input/rigid/slow_top.yaml --set solver.method=hstagm --set solver.time_step=$h --set solver.final_time=100 --set output.every=1 -o $d"
  echo "\$ $cmd"
  if $cmd >"$d.log" 2>&1; then
    awk -F, -v h="$h" '
      NR == 1 { for (i = 1; i <= NF; i++) if ($i == "total_energy") col = i; next }
      NR == 2 { e0 = $col }
      { r = ($col - e0) / e0; if (r < 0) r = -r; if (r > 0.01 && t1 == "") t1 = $1; if (r > 1 && t2 == "") t2 = $1 }
      END { printf "    dt = %-5s > 1 %% at t = %.4g, > 100 %% at t = %.4g\n", h, t1 == "" ? -1 : t1, t2 == "" ? -1 : t2 }' \
      "$d/history.csv" >>"$summary"
  else
    echo "    dt = $h: run failed: $(tail -n 1 "$d.log")" >>"$summary"
  fi
done
if [ "$have_gnuplot" = 1 ]; then
  cat >"$out/energy.gp" <<EOF
set logscale y
set format y '10^{%L}'
set yrange [1e-8:1e3]
set grid
set key top left font ',9'
set xlabel 'time'
set ylabel '|E - E_0| / |E_0|'
do for [term = 1:2] {
  if (term == 1) { set terminal pngcairo size 1200,520 font 'Sans,10'; set output '$fig/energy.png' }
  if (term == 2) { set terminal svg size 1200,520 dynamic font 'Sans,10'; set output '$fig/energy.svg' }
  set multiplot layout 1,2 title 'relative energy error (Krysl & Endres 2005, figure 12)'
  do for [c in "free_body slow_top"] {
    set title sprintf('%s, dt = %s', c, (c eq 'free_body' ? '1' : '0.1')) noenhanced
    plot for [m in "nmb sw hstagm liemid_ea"] sprintf('$out/energy_%s_%s/energy.dat', c, m) using 1:(\$2 > 0 ? \$2 : 1/0) with lines lw 1.2 title m noenhanced
  }
  unset multiplot
  set output
}
EOF
  gnuplot "$out/energy.gp" 2>"$out/energy.gp.log" || echo "verify_rigid: gnuplot failed on the energy plot (see $out/energy.gp.log)" >&2
fi

echo
cat "$summary"
echo
echo "figures in $fig/, tables and logs in $out/"
