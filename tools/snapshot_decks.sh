#!/bin/sh
# Snapshot the observable behaviour of a build: every deck in input/ run (the rigid decks with
# every rigid method too), every deck in tests/decks/ checked, the CLI's help texts. Two
# snapshots of the same behaviour are byte-identical (timings are removed), so
#   tools/snapshot_decks.sh build /tmp/before   (on the old tree)
#   tools/snapshot_decks.sh build /tmp/after    (on the new tree)
#   diff -r /tmp/before /tmp/after
# proves that a change kept behaviour. Run from the source root.
set -u
build=${1:?usage: tools/snapshot_decks.sh BUILD_DIR OUT_DIR}
out=${2:?usage: tools/snapshot_decks.sh BUILD_DIR OUT_DIR}
exe="$build/rodrigues"
[ -x "$exe" ] || { echo "snapshot: no $exe" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# strip what differs from run to run: wall times and the path of the scratch directory
normalize() {
  sed -e 's/"wall_time": [^,}]*/"wall_time": T/' -e 's/ factorizations, [0-9.e+-]* s$/ factorizations, T s/' -e "s#$work#WORK#g" "$1"
}

# run_case NAME ARGS...: stdout, stderr, exit status and result files of one command
run_case() {
  name=$1
  shift
  dir="$out/$name"
  mkdir -p "$dir"
  "$exe" "$@" >"$work/stdout" 2>"$work/stderr"
  echo $? >"$dir/status"
  normalize "$work/stdout" >"$dir/stdout"
  normalize "$work/stderr" >"$dir/stderr"
  if [ -d "$work/o" ]; then
    for f in "$work/o"/*.csv "$work/o"/*.json; do
      [ -f "$f" ] && normalize "$f" >"$dir/$(basename "$f")"
    done
    rm -rf "$work/o"
  fi
}

# the deck's own '# set:' header lines (tests/decks/bad), as --set arguments
set_args() {
  sed -n 's/^# set: \(.*\)$/--set\n\1/p' "$1"
}

for deck in $(find input -name '*.yaml' -not -path 'input/sweep/*' | sort); do
  name=$(echo "$deck" | tr / _)
  run_case "run_$name" run "$deck" -o "$work/o"
  run_case "check_$name" check "$deck"
done
for deck in input/rigid/*.yaml; do
  name=$(basename "$deck" .yaml)
  for m in nmb nms liemid_e1 liemid_e2 liemid_ea liemid_i sw hstagm akw; do
    run_case "rigid_${name}_$m" run "$deck" -o "$work/o" --set solver.method=$m
  done
done
for deck in $(find tests/decks tests/cli -name '*.yaml' | sort); do
  name=$(echo "$deck" | tr / _)
  # shellcheck disable=SC2046
  IFS='
'
  run_case "check_$name" check "$deck" $(set_args "$deck")
  unset IFS
done
for deck in tests/decks/good/*.yaml tests/cli/*.yaml; do
  name=$(echo "$deck" | tr / _)
  run_case "run_$name" run "$deck" -o "$work/o"
done
run_case help --help
run_case options options
for c in run check converge import options; do
  run_case "help_$c" help "$c"
done
echo "snapshot: $(ls "$out" | wc -l) cases in $out"
