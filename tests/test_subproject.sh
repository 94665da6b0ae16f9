#!/bin/sh
# A Meson host project that pulls rodrigues in as a subproject (dependency from the subproject's
# rodrigues_dep) builds and runs examples/host_damper.c.
# usage: test_subproject.sh SOURCE_DIR
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
step() {  # step WHAT COMMAND...
  what=$1
  shift
  if "$@" >"$work/log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $what"
    tail -n 30 "$work/log"
  fi
}
mkdir -p "$work/host/subprojects"
ln -s "$src" "$work/host/subprojects/rodrigues"
cp "$src/examples/host_damper.c" "$work/host/"
cat >"$work/host/meson.build" <<'MESON'
project('host', 'c', default_options: ['c_std=c11'])
rodrigues = subproject('rodrigues', default_options: ['tests=false', 'bench=false'])
executable('host_damper', 'host_damper.c',
  dependencies: [rodrigues.get_variable('rodrigues_dep'),
                 meson.get_compiler('c').find_library('m')])
MESON
step "meson setup" meson setup "$work/build" "$work/host"
step "build" ninja -C "$work/build"
step "run" "$work/build/host_damper"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
