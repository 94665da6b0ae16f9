#!/bin/sh
# Install the Debian 12 packages rodrigues needs to build, test and plot. Run as root (or via sudo).
set -e
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
  build-essential gfortran meson ninja-build pkg-config python3 \
  libfyaml-dev libsuitesparse-dev liblapacke-dev libopenblas-dev libmuparser-dev \
  libgsl-dev libnetcdf-dev gnuplot-nox clang-format libopenmpi-dev openmpi-bin >/dev/null
