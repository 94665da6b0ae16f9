#!/bin/sh
# Install rodrigues into a staging directory, build every program in examples/ against it with
# `pkg-config --cflags --libs rodrigues` (as a host code would), run each, and count results.
# usage: test_examples.sh BUILD_DIR SOURCE_DIR [SANITIZE_FLAGS]
build=$1
src=$2
san=${3:-}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
. "$src/tests/support/harness.sh"
check_quiet install meson install -C "$build" --destdir "$stage" --quiet
pcdir=$(dirname "$(find "$stage" -name rodrigues.pc | head -n 1)")
libdir=$(dirname "$(find "$stage" -name 'librodrigues.so' | head -n 1)")
export PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$stage"
check_quiet pkg-config pkg-config --exists rodrigues
flags=$(pkg-config --cflags --libs rodrigues)
libs=$(pkg-config --libs rodrigues)
for ex in "$src"/examples/*.c; do
  name=$(basename "$ex" .c)
  case $name in mpi_*) continue ;; esac  # below, with MPI
  # shellcheck disable=SC2086
  check_quiet "build $name" cc -std=c11 -Wall -Wextra -Werror $san "$ex" $flags -lm -o "$stage/$name"
  check_quiet "run $name" env LD_LIBRARY_PATH="$libdir" "$stage/$name"
done
# MPI hosts: built with mpicc, run on 2 ranks (when Open MPI is installed)
if command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then
  root=""
  if [ "$(id -u)" -eq 0 ]; then root="--allow-run-as-root"; fi
  for ex in "$src"/examples/mpi_*.c; do
    name=$(basename "$ex" .c)
    # shellcheck disable=SC2086
    check_quiet "build $name" mpicc -std=c11 -Wall -Wextra -Werror $san "$ex" $flags -lm -o "$stage/$name"
    # shellcheck disable=SC2086
    # no leak check: Open MPI's components keep memory and are unloaded before LeakSanitizer
    # reports (tests/test_sweep.sh); address and undefined-behaviour checks stay on
    check_quiet "run $name" env LD_LIBRARY_PATH="$libdir" \
      ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" mpirun $root --oversubscribe -n 2 "$stage/$name"
  done
else
  echo "note: mpicc or mpirun not found, MPI examples not built"
fi
# Fortran hosts: the installed module source, compiled with the host's compiler
fmod=$(find "$stage" -name rodrigues.f90 | head -n 1)
if command -v gfortran >/dev/null 2>&1; then
  for ex in "$src"/examples/*.f90; do
    name=$(basename "$ex" .f90)
    # shellcheck disable=SC2086
    check_quiet "build $name" gfortran -std=f2008 -Wall -Werror $san -J"$stage" "$fmod" "$ex" $libs \
      -o "$stage/$name"
    check_quiet "run $name" env LD_LIBRARY_PATH="$libdir" "$stage/$name" "$src/input/heavy_top.yaml"
  done
else
  echo "note: gfortran not found, Fortran examples not built"
fi
summary
