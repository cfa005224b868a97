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
cmake --preset asan -DSLICEFUZZ_EXECUTORCH_SRC="$ET_SRC"
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"
