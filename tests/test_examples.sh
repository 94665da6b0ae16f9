#!/bin/sh
# Install rodrigues into a staging directory and do what a host would, as the documentation
# says: run every build and run command that examples/*, README.md, docs/api.md and
# docs/python.md give (tests/hosts/doc_commands.py finds them), exactly as written, from a
# directory that looks like the source root; then run every example program those commands
# built (C, C++, Fortran, MPI with pkg-config; C, C++, Fortran with CMake), and check that the
# installed pkg-config file and CMake package are clean.
# The compilers are wrapped so that every build is strict (-Wall -Werror) and, in a sanitizer
# build, instrumented like the library (SANITIZE_FLAGS); PYTHON is the interpreter that has the
# Python package's dependencies (the documented `python3` runs it), or "" for none.
# usage: test_examples.sh BUILD_DIR SOURCE_DIR [SANITIZE_FLAGS [PYTHON [ASAN_RUNTIME]]]
# (ASAN_RUNTIME: the sanitizer's runtime, preloaded into PYTHON for an instrumented library)
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
san=${3:-}
python=${4:-}
preload=${5:-}
# the Python example reads its history with pandas
if [ -n "$python" ] && ! "$python" -c 'import pandas' >/dev/null 2>&1; then
  echo "note: $python has no pandas: the Python example is not run"
  python=""
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
. "$src/tests/support/harness.sh"
check_quiet install meson install -C "$build" --destdir "$stage" --quiet
pcdir=$(dirname "$(find "$stage" -name rodrigues.pc | head -n 1)")
libdir=$(dirname "$(find "$stage" -name 'librodrigues.so' | head -n 1)")
prefix=$(dirname "$(dirname "$(find "$stage" -path '*/include/rodrigues/rodrigues.h' | head -n 1)")")
prefix=$(dirname "$prefix")
export PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$stage" CMAKE_PREFIX_PATH="$prefix"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export RODRIGUES_LIBRARY="$libdir/librodrigues.so"

# the installed metadata: pkg-config's Cflags hold the include root only, the CMake package and
# its version file sit beside rodrigues.pc's library directory
check_quiet "pkg-config finds rodrigues" pkg-config --exists rodrigues
cflags=$(pkg-config --cflags rodrigues | sed 's/ *$//')
check "pkg-config --cflags is the include root only (got '$cflags')" \
  test "$cflags" = "-I$prefix/include"
check "rodriguesConfig.cmake installed" test -f "$libdir/cmake/rodrigues/rodriguesConfig.cmake"
check "rodriguesConfigVersion.cmake installed" \
  test -f "$libdir/cmake/rodrigues/rodriguesConfigVersion.cmake"
check "the Fortran module source installed" test -f "$prefix/include/rodrigues/rodrigues.f90"

# C++: each installed header compiles alone, and every RD_API function links with C linkage
names=$(cat "$prefix"/include/rodrigues/*.h | sed -e 's|//.*||' -e '/^#/d' | tr '\n' ' ' |
  grep -o 'RD_API [^;(]*(' | sed 's/.*[^A-Za-z0-9_]\([A-Za-z0-9_]*\) *($/\1/' | sort -u)
{
  for h in "$prefix"/include/rodrigues/*.h; do
    echo "#include <rodrigues/$(basename "$h")>"
  done
  echo "int main() {"
  echo "  void (*volatile all[])(void) = {"
  for n in $names; do
    echo "    reinterpret_cast<void (*)(void)>(&$n),"
  done
  echo "  };"
  echo "  return all[0] == nullptr;"
  echo "}"
} >"$stage/all_api.cpp"
for h in "$prefix"/include/rodrigues/*.h; do
  check_quiet "$(basename "$h") compiles alone in C++" \
    g++ -std=c++11 -fsyntax-only -Wall -Wextra -Werror -I"$prefix/include" -x c++ "$h"
done
# shellcheck disable=SC2086
check_quiet "C++ links all $(echo $names | wc -w) RD_API functions" \
  g++ -std=c++11 -Wall -Wextra -Werror $san "$stage/all_api.cpp" -I"$prefix/include" \
  -L"$libdir" -lrodrigues -o "$stage/all_api"

# strict, and instrumented like the library: wrappers first on PATH
bin="$stage/bin"
mkdir -p "$bin"
for pair in "cc:-Wall -Wextra -Werror" "g++:-Wall -Wextra -Werror" \
  "gfortran:-Wall -Wno-unused-dummy-argument -Werror" "mpicc:-Wall -Wextra -Werror"; do
  tool=${pair%%:*}
  real=$(command -v "$tool")
  if [ -n "$real" ]; then
    printf '#!/bin/sh\nexec %s %s %s "$@"\n' "$real" "${pair#*:}" "$san" >"$bin/$tool"
    chmod +x "$bin/$tool"
  fi
done
if [ -n "$python" ]; then
  if [ -n "$preload" ]; then
    printf '#!/bin/sh\nLD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 exec %s "$@"\n' "$preload" \
      "$python" >"$bin/python3"
  else
    printf '#!/bin/sh\nexec %s "$@"\n' "$python" >"$bin/python3"
  fi
  chmod +x "$bin/python3"
  site=$(dirname "$(dirname "$(find "$stage" -path '*/rodrigues/__init__.py' | head -n 1)")")
  export PYTHONPATH="$site"
fi
export PATH="$bin:$PATH" CC="$bin/cc" CXX="$bin/g++" FC="$bin/gfortran"

# a directory that looks like the source root, with the documented commands run in it
root="$stage/root"
mkdir -p "$root"
for d in examples input; do
  ln -s "$src/$d" "$root/$d"
done
python3 "$src/tests/hosts/doc_commands.py" "$src" >"$stage/commands" ||
  fail "tests/hosts/doc_commands.py"
while IFS="$(printf '\t')" read -r file cmd; do
  case $cmd in
    python3*)
      [ -n "$python" ] || { echo "note: no Python with the package's dependencies: $cmd"; continue; } ;;
    gfortran*)
      command -v gfortran >/dev/null 2>&1 || { echo "note: gfortran not found: $cmd"; continue; } ;;
    mpicc*)
      command -v mpicc >/dev/null 2>&1 || { echo "note: mpicc not found: $cmd"; continue; } ;;
    cmake*)
      command -v cmake >/dev/null 2>&1 || { echo "note: cmake not found: $cmd"; continue; } ;;
  esac
  check_quiet "$file: $cmd" sh -c "cd '$root' && $cmd"
done <"$stage/commands"

# every example is built by some documented command, and runs (the MPI hosts on 2 ranks)
mpi=""
if command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then
  mpi="mpirun --oversubscribe -n 2"
  if [ "$(id -u)" -eq 0 ]; then mpi="mpirun --allow-run-as-root --oversubscribe -n 2"; fi
fi
for ex in "$src"/examples/*.c "$src"/examples/*.cpp "$src"/examples/*.f90; do
  name=$(basename "${ex%.*}")
  case $ex in *.f90) command -v gfortran >/dev/null 2>&1 || continue ;; esac
  case $name in
    mpi_*)
      [ -n "$mpi" ] || { echo "note: mpicc or mpirun not found, $name not built"; continue; }
      check "$name built by a documented command" test -x "$root/$name"
      # no leak check: Open MPI's components keep memory and are unloaded before
      # LeakSanitizer reports (tests/test_sweep.sh); address and undefined-behaviour checks stay
      [ -x "$root/$name" ] && check_quiet "run $name on 2 ranks" sh -c \
        "cd '$root' && ASAN_OPTIONS='${ASAN_OPTIONS:-}:detect_leaks=0' $mpi ./$name"
      continue
      ;;
  esac
  check "$name built by a documented command" test -x "$root/$name"
  [ -x "$root/$name" ] && check_quiet "run $name" sh -c "cd '$root' && ./$name"
  [ -x "$root/build-host/$name" ] && check_quiet "run $name (CMake)" sh -c "cd '$root' && build-host/$name"
done
if command -v cmake >/dev/null 2>&1; then
  check "the CMake host built host_cpp" test -x "$root/build-host/host_cpp"
fi
summary
