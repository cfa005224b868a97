#!/usr/bin/env bash
# The test command: installs missing Debian packages, builds the asan preset
# (clang-14, ASan+UBSan) and runs every test through ctest: unit tests, property
# tests and the corpus replay. Exit 0 only when everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
# ExecuTorch's real code as a system under test, and the overlay of newer files
# (ci/executorch_trees.sh: ET_SRC, ET_OVERLAY, ET_CMAKE_ARGS).
source ci/executorch_trees.sh
if [ -n "$ET_SRC" ]; then
  echo "ci/test.sh: building the ExecuTorch backends from $ET_SRC"
else
  echo "ci/test.sh: ExecuTorch backends not built (no SLICEFUZZ_EXECUTORCH_SRC, no ../shared/executorch)"
fi
[ -n "$ET_OVERLAY" ] || echo "ci/test.sh: no ExecuTorch overlay: et-native-delegate is not available and its tests are skipped"
cmake --preset asan "${ET_CMAKE_ARGS[@]}"
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"
