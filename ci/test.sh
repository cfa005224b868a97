#!/usr/bin/env bash
# The test command: installs missing Debian packages, builds the asan preset
# (clang-14, ASan+UBSan) and runs every test through ctest: unit tests, property
# tests and the corpus replay. Exit 0 only when everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
cmake --preset asan
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"
