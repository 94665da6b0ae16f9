#!/bin/sh
# A Meson host project that pulls rodrigues in as a subproject (dependency from the subproject's
# rodrigues_dep) builds and runs examples/host_damper.c.
# usage: test_subproject.sh SOURCE_DIR
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/harness.sh"
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
check_quiet "meson setup" meson setup "$work/build" "$work/host"
check_quiet "build" ninja -C "$work/build"
check_quiet "run" "$work/build/host_damper"
summary
