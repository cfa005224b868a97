# Sourced by ci/test.sh, ci/fuzz.sh, ci/selftest.sh and bench/*.sh (from the repository's root):
# the ExecuTorch trees every preset is configured with, so each binary (slicefuzz,
# fuzz_program) has the same backends. ET_SRC: a user's checkout through
# SLICEFUZZ_EXECUTORCH_SRC, else the unmodified snapshot beside this repository.
# ET_OVERLAY: files newer than that tree (the native delegate's passes) through
# SLICEFUZZ_EXECUTORCH_OVERLAY, else ../shared/native-delegate. Empty: none.
ET_SRC=${SLICEFUZZ_EXECUTORCH_SRC:-}
if [ -z "$ET_SRC" ] && [ -d ../shared/executorch/runtime ]; then ET_SRC=$(cd ../shared/executorch && pwd); fi
ET_OVERLAY=${SLICEFUZZ_EXECUTORCH_OVERLAY:-}
if [ -z "$ET_OVERLAY" ] && [ -d ../shared/native-delegate/backends ]; then ET_OVERLAY=$(cd ../shared/native-delegate && pwd); fi
ET_CMAKE_ARGS=(-DSLICEFUZZ_EXECUTORCH_SRC="$ET_SRC" -DSLICEFUZZ_EXECUTORCH_OVERLAY="$ET_OVERLAY")
