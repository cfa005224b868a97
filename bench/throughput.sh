#!/usr/bin/env bash
# bench/throughput.sh -- fuzzing throughput against its ceiling, in one run.
#   (a) fuzz_ceiling (bench/fuzz_ceiling.cpp): one libtorch slice + one slice_copy
#       + compare on <= 8x8 floats, libFuzzer, ASan+UBSan, the same flags and
#       coverage instrumentation as fuzz_program: the ceiling;
#   (b) fuzz_program on corpus/bench/ (500 committed cases, see
#       bench/make_bench_corpus.py) with mutation off (each case replayed
#       THROUGHPUT_REPEATS times) and on (seed 1, THROUGHPUT_SECONDS);
#   (c) the nightly's parallel mode (ci/fuzz.sh -> ci/fuzz_workers.py, its flags)
#       on the same corpus with 2 workers and with 1, and libFuzzer's -fork=2
#       (the nightly's mode before), per worker, over THROUGHPUT_FORK_SECONDS
#       including start-up and restarts, also per CPU second (fair on a shared
#       machine);
#   (d) slicefuzz check --no-isolate on the same corpus;
#   (e) start-up time to the first execution;
# and the same fuzz_program figures for a baseline commit (THROUGHPUT_BASELINE,
# default 93571b6; empty: none), built from a git worktree under
# build/baseline/<commit>/. Rounds (THROUGHPUT_ROUNDS, default 2) interleave
# current and baseline; the best of the rounds is reported. Prints every figure
# with its ratio to (a) and writes out/throughput/<UTC stamp>.json (top-level
# ratio_to_ceiling and speedup_vs_baseline: fuzz_program, mutation on).
# The machine is shared: only ratios from one run mean anything.
set -euo pipefail
cd "$(dirname "$0")/.."

BASELINE="${THROUGHPUT_BASELINE-93571b6}"
echo "== build (fuzz preset: fuzz_program, fuzz_ceiling, slicefuzz)" >&2
source ci/executorch_trees.sh  # the same trees as ci/test.sh: every backend in the binary
cmake --preset fuzz "${ET_CMAKE_ARGS[@]}" >/dev/null
cmake --build --preset fuzz --target fuzz_program fuzz_ceiling slicefuzz >&2

ARGS=()
if [ -n "$BASELINE" ]; then
  BASE_SRC="build/baseline/$BASELINE"
  if [ ! -e "$BASE_SRC/.git" ]; then
    echo "== git worktree for baseline $BASELINE in $BASE_SRC" >&2
    mkdir -p build/baseline
    git worktree add --detach "$BASE_SRC" "$BASELINE" >&2
  fi
  echo "== build baseline $BASELINE (its own fuzz preset, in $BASE_SRC/build/fuzz)" >&2
  (cd "$BASE_SRC" && cmake --preset fuzz >/dev/null && cmake --build --preset fuzz --target fuzz_program >&2)
  ARGS+=(--baseline "$BASELINE" --baseline-build "$BASE_SRC/build/fuzz")
fi
exec /usr/bin/python3 bench/throughput.py --build build/fuzz \
  --seconds "${THROUGHPUT_SECONDS:-20}" --fork-seconds "${THROUGHPUT_FORK_SECONDS:-60}" \
  --repeats "${THROUGHPUT_REPEATS:-4}" --rounds "${THROUGHPUT_ROUNDS:-2}" "${ARGS[@]}" "$@"
