#!/bin/bash -eu
# ClusterFuzzLite/OSS-Fuzz build script: the infrastructure sets $CC, $CXX,
# $CFLAGS, $CXXFLAGS, $LIB_FUZZING_ENGINE, $OUT and $WORK; ci/oss-fuzz-build.sh
# does the rest (fuzz_program, $OUT/lib with libtorch, seed corpus, dictionary,
# options). The libraries come from the Dockerfile's /opt prefixes.
export SLICEFUZZ_CMAKE_ARGS="-DCMAKE_PREFIX_PATH=/opt/libtorch;/opt/rapidcheck ${SLICEFUZZ_CMAKE_ARGS:-}"
"$SRC/slicefuzz/ci/oss-fuzz-build.sh"
