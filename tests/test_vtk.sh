#!/bin/sh
# SPDX-License-Identifier: MIT
# rodrigues run with output.vtk: every .vtu and the .pvd parse as XML (python3 minidom), one
# frame (and one mechanism frame: the root joint) per history row, the tip's section moment near zero; a failed run leaves no index.
# usage: test_vtk.sh RODRIGUES SOURCE_ROOT
exe=$1
src=$2
. "$src/tests/support/harness.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check_quiet "run with output.vtk" \
  "$exe" run "$src/input/beam/composite_static.yaml" -o "$out/a" --set output.vtk=true
check "results.pvd written" test -f "$out/a/results.pvd"
for f in "$out/a/results.pvd" "$out/a"/vtk/*.vtu; do
  check "$(basename "$f") parses as XML" \
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$f"
done
rows=$(($(wc -l < "$out/a/history.csv") - 1))
frames=$(ls "$out/a/vtk" | grep -c '^results_')
mechs=$(ls "$out/a/vtk" | grep -c '^mechanism_')
sets=$(grep -c 'part="0"' "$out/a/results.pvd")
msets=$(grep -c 'part="1"' "$out/a/results.pvd")
check "one frame and data set per history row ($rows rows, $frames frames, $sets data sets)" \
  test "$rows" = "$frames" -a "$frames" = "$sets"
# the cantilever's root is a joint: the mechanism part (tests/python/test_vtk.py reads it)
check "one mechanism frame per row ($mechs frames, $msets data sets)" \
  test "$rows" = "$mechs" -a "$mechs" = "$msets"
check "section moments at the root and the tip" python3 - "$out/a/vtk/results_000001.vtu" <<'PY'
import sys, xml.dom.minidom as m
doc = m.parse(sys.argv[1])
arr = {a.getAttribute('Name'): [float(x) for x in a.firstChild.data.split()]
       for a in doc.getElementsByTagName('DataArray') if a.firstChild}
mom = arr['section_moment']
assert len(mom) == 45, len(mom)
# tip (free end, last node): no moment; root: about -P (L - u_x) = -150 (10 - 0.09)
assert max(abs(v) for v in mom[-3:]) < 1e-2, mom[-3:]
assert abs(mom[1] + 150 * (10 - 0.0902727)) < 1, mom[1]
print('vtk: %d frames, root moment %.6g, tip %.2g' % (len(arr['TIME']), mom[1], max(abs(v) for v in mom[-3:])))
PY
# a failing run (Newton cannot converge in 1 iteration) leaves no results.pvd nor vtk/
if "$exe" run "$src/input/beam/composite_static.yaml" -o "$out/b" --set output.vtk=true \
    --set solver.max_iter=1 --set solver.max_step_cuts=0 >/dev/null 2>&1; then
  fail "a run with solver.max_iter = 1 succeeded"
else
  pass
fi
check "a failed run leaves no results.pvd nor vtk/" test ! -e "$out/b/results.pvd" -a ! -e "$out/b/vtk"
summary
