#!/usr/bin/env bash
# Installs every Debian 12 package slicefuzz needs to build, test and fuzz
# (llvm gives the unversioned llvm-symbolizer ASan and the harness look up by
# name; patchelf bundles the OSS-Fuzz build's libraries, debootstrap makes the root
# file system of ci/oss-fuzz-chroot-test.sh, flatbuffers writes and reads the
# ExecuTorch programs of the executorch-runtime backend).
# Idempotent, and fast when everything is present (no apt-get update then).
set -euo pipefail

PACKAGES=(
  clang-14 llvm-14 llvm lld-14 libfuzzer-14-dev libclang-rt-14-dev
  cmake ninja-build pkg-config
  libtorch-dev python3-torch
  librapidcheck-dev libgtest-dev libgmock-dev libbenchmark-dev
  zip patchelf debootstrap
  flatbuffers-compiler libflatbuffers-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: done"
