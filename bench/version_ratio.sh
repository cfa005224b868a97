#!/usr/bin/env bash
# bench/version_ratio.sh -- fuzz_program's exec/s at case format version 4
# against version 3, side by side in one run (issue 37's 0.9 target; figures in
# docs/design.md section 10). Builds the fuzz preset's fuzz_program, then
# bench/version_ratio.py: VERSION_RATIO_SECONDS (20) per run, VERSION_RATIO_ROUNDS
# (2) rounds alternating the order, on a temporary copy of corpus/seeds.
# Extra arguments go to the script (e.g. --compare build/baseline/X/build/fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/executorch_trees.sh  # the same trees as ci/test.sh: every backend in the binary
cmake --preset fuzz "${ET_CMAKE_ARGS[@]}" >/dev/null
cmake --build --preset fuzz --target fuzz_program >&2
exec /usr/bin/python3 bench/version_ratio.py --build build/fuzz \
  --seconds "${VERSION_RATIO_SECONDS:-20}" --rounds "${VERSION_RATIO_ROUNDS:-2}" "$@"
