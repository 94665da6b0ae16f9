#!/bin/sh
# Install the Debian 12 packages rodrigues needs to build, test, fuzz (clang and its libFuzzer,
# tools/fuzz.sh) and plot, and those of the host tests: C++ and CMake hosts, the Python package
# (cffi, numpy) and its results (pandas, xarray, netCDF4, VTK), the CF check (UDUNITS-2). Run as
# root (or via sudo).
set -e
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
  build-essential gfortran meson ninja-build pkg-config python3 \
  libfyaml-dev libsuitesparse-dev liblapacke-dev libopenblas-dev libmuparser-dev \
  libgsl-dev libnetcdf-dev libarpack2-dev gnuplot-nox clang-format libopenmpi-dev openmpi-bin \
  g++ cmake libudunits2-0 \
  python3-cffi python3-numpy python3-pytest python3-pandas python3-xarray python3-netcdf4 \
  python3-vtk9 clang libclang-rt-14-dev \
  time hyperfine >/dev/null  # the benchmarks: /usr/bin/time (bench/setup_scaling.sh), hyperfine
