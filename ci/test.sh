#!/usr/bin/env bash
# The test command: installs missing Debian packages, builds the asan preset
# (clang-14, ASan+UBSan) and runs every test through ctest: unit tests, property
# tests and the corpus replay. Exit 0 only when everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
# ExecuTorch's real code as a system under test: a user's checkout through
# SLICEFUZZ_EXECUTORCH_SRC, else the unmodified snapshot beside this repository.
ET_SRC=${SLICEFUZZ_EXECUTORCH_SRC:-}
if [ -z "$ET_SRC" ] && [ -d ../shared/executorch/runtime ]; then ET_SRC=$(cd ../shared/executorch && pwd); fi
if [ -n "$ET_SRC" ]; then
  echo "ci/test.sh: building the ExecuTorch backends from $ET_SRC"
else
  echo "ci/test.sh: ExecuTorch backends not built (no SLICEFUZZ_EXECUTORCH_SRC, no ../shared/executorch)"
fi
# Files newer than that tree (the native delegate's passes): SLICEFUZZ_EXECUTORCH_OVERLAY,
# else ../shared/native-delegate beside this repository.
ET_OVERLAY=${SLICEFUZZ_EXECUTORCH_OVERLAY:-}
if [ -z "$ET_OVERLAY" ] && [ -d ../shared/native-delegate/backends ]; then ET_OVERLAY=$(cd ../shared/native-delegate && pwd); fi
[ -n "$ET_OVERLAY" ] || echo "ci/test.sh: no ExecuTorch overlay: et-native-delegate is not available and its tests are skipped"
cmake --preset asan -DSLICEFUZZ_EXECUTORCH_SRC="$ET_SRC" -DSLICEFUZZ_EXECUTORCH_OVERLAY="$ET_OVERLAY"
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"
