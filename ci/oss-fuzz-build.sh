#!/usr/bin/env bash
# Builds fuzz_program the way OSS-Fuzz and ClusterFuzzLite expect: with their
# $CC/$CXX/$CFLAGS/$CXXFLAGS (sanitizers chosen by the infrastructure) and
# $LIB_FUZZING_ENGINE, into $OUT with
#   fuzz_program, fuzz_program_seed_corpus.zip, fuzz_program.dict, fuzz_program.options.
# The build image needs the Debian packages of ci/install-deps.sh (libtorch-dev,
# librapidcheck-dev, cmake, ninja-build, zip).
# Locally: OUT=/tmp/ossfuzz-out ci/oss-fuzz-build.sh (defaults: clang-14, ASan, libFuzzer).
set -euo pipefail
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
: "${OUT:?set OUT to the output directory}"
: "${CC:=clang-14}" "${CXX:=clang++-14}"
: "${CFLAGS:=-fsanitize=address,fuzzer-no-link}" "${CXXFLAGS:=-fsanitize=address,fuzzer-no-link}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
WORK=${WORK:-$SRC_DIR/build/oss-fuzz}
mkdir -p "$OUT" "$WORK"

cmake -S "$SRC_DIR" -B "$WORK" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DSLICEFUZZ_FUZZ=ON -DSLICEFUZZ_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
cmake --build "$WORK" --target fuzz_program
cp "$WORK/fuzz_program" "$OUT/fuzz_program"
cp "$SRC_DIR/corpus/slicefuzz.dict" "$OUT/fuzz_program.dict"
rm -f "$OUT/fuzz_program_seed_corpus.zip"
(cd "$SRC_DIR/corpus" && zip -q -j "$OUT/fuzz_program_seed_corpus.zip" seeds/*.case regression/*.case)
cat >"$OUT/fuzz_program.options" <<'OPTIONS'
[libfuzzer]
dict = fuzz_program.dict
max_len = 4096
rss_limit_mb = 4096
timeout = 25
OPTIONS
echo "built into $OUT: $(ls "$OUT" | tr '\n' ' ')"
