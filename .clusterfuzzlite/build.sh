#!/bin/bash -eu
# ClusterFuzzLite/OSS-Fuzz build script: the infrastructure sets $CC, $CXX,
# $CFLAGS, $CXXFLAGS, $LIB_FUZZING_ENGINE, $OUT and $WORK; ci/oss-fuzz-build.sh
# does the rest (fuzz_program and one target per backend, $OUT/lib with libtorch, seed corpus, dictionary,
# options). The libraries come from the Dockerfile's /opt prefixes.
# ExecuTorch's source (the Dockerfile's checkout): its backends' targets too.
if [ -d /opt/executorch/runtime ]; then export SLICEFUZZ_EXECUTORCH_SRC=/opt/executorch; fi
export SLICEFUZZ_CMAKE_ARGS="-DCMAKE_PREFIX_PATH=/opt/libtorch;/opt/rapidcheck ${SLICEFUZZ_CMAKE_ARGS:-}"
"$SRC/slicefuzz/ci/oss-fuzz-build.sh"
