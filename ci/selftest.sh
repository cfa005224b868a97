#!/usr/bin/env bash
# ci/selftest.sh -- the kill matrix: proves slicefuzz catches each faulty backend's
# bug class, three ways (corpus replay, generator campaign, libFuzzer), and that
# reference and conservative produce no finding under the same budgets.
# Writes docs/selftest.md and docs/selftest.json. Exit non-zero if a faulty
# backend survives every method or reference has any finding.
# Options (environment): SELFTEST_SEEDS (default "1 2 3"), SELFTEST_FUZZ_SECONDS
# (default 60), SELFTEST_RUN_COUNT (default 20000), SELFTEST_BACKENDS (names: re-run
# only those rows, carrying the others over from docs/selftest.json made with the
# same budgets; for a backend whose findings were just triaged).
# Rows re-run in parallel from a second worktree (SELFTEST_BACKENDS there too):
# `/usr/bin/python3 ci/selftest.py --merge OTHER/docs/selftest.json` takes the rows
# it re-ran into docs/selftest.json and rewrites docs/selftest.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
# Both binaries with the same ExecuTorch trees as ci/test.sh, so every row's
# backend is in the fuzz target too (without them its rows could not fuzz).
source ci/executorch_trees.sh
cmake --preset asan "${ET_CMAKE_ARGS[@]}" >/dev/null && cmake --build --preset asan --target slicefuzz
cmake --preset fuzz "${ET_CMAKE_ARGS[@]}" >/dev/null && cmake --build --preset fuzz --target fuzz_program
exec /usr/bin/python3 ci/selftest.py "$@"
