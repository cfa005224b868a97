#!/usr/bin/env bash
# Builds fuzz_program the way OSS-Fuzz and ClusterFuzzLite expect: with their
# $CC/$CXX/$CFLAGS/$CXXFLAGS (sanitizers chosen by the infrastructure) and
# $LIB_FUZZING_ENGINE, into a self-contained $OUT:
#   fuzz_program                   RUNPATH $ORIGIN/lib
#   lib/                           every shared library it needs except the C
#                                  library's own (libc, libm, ld.so, ...), each
#                                  with RUNPATH $ORIGIN (libtorch and its closure)
#   fuzz_program_seed_corpus.zip   corpus/seeds + corpus/regression
#   fuzz_program.dict, fuzz_program.options
#   fuzz_<backend> (+ .dict, .options, _seed_corpus.zip, _known/): one target per
#                                  backend over other people's code the build has,
#                                  the same binary (a hard link) whose name fixes
#                                  the backend (fuzz_pr21552_rule; with ExecuTorch,
#                                  fuzz_executorch_portable, fuzz_executorch_runtime); _known/ holds the
#                                  backend's corpus/known/, applied inside the target
# so $OUT runs on a machine that has nothing but a base system (glibc at least as
# new as the build's; the script prints the version it needs). ci/oss-fuzz-chroot-test.sh
# proves it in a fresh Debian 12 minbase root file system.
#
# The build needs the Debian packages of ci/install-deps.sh (libtorch-dev,
# librapidcheck-dev, cmake, ninja-build, zip, patchelf).
# Locally: OUT=/tmp/ossfuzz-out ci/oss-fuzz-build.sh (defaults: clang-14, ASan, libFuzzer).
# SLICEFUZZ_EXECUTORCH_SRC=DIR builds the ExecuTorch backends in (a static
# library, so $OUT/lib does not change); SLICEFUZZ_CMAKE_ARGS adds CMake
# arguments (e.g. -DTorch_DIR=... for a libtorch outside the system's paths).
set -euo pipefail
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
: "${OUT:?set OUT to the output directory}"
: "${CC:=clang-14}" "${CXX:=clang++-14}"
: "${CFLAGS:=-fsanitize=address,fuzzer-no-link}" "${CXXFLAGS:=-fsanitize=address,fuzzer-no-link}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
# OSS-Fuzz's base-builder adds -stdlib=libc++; libtorch is built against
# libstdc++, so every object linked with it must use libstdc++ too.
CXXFLAGS=${CXXFLAGS//-stdlib=libc++/}
ET_SRC=${SLICEFUZZ_EXECUTORCH_SRC:-}
WORK=${WORK:-$SRC_DIR/build/oss-fuzz${ET_SRC:+-executorch}}
mkdir -p "$OUT" "$WORK"
command -v patchelf >/dev/null || { echo "oss-fuzz-build: patchelf is missing (ci/install-deps.sh installs it)" >&2; exit 2; }

# shellcheck disable=SC2086  # SLICEFUZZ_CMAKE_ARGS is a list of arguments
cmake -S "$SRC_DIR" -B "$WORK" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DSLICEFUZZ_FUZZ=ON -DSLICEFUZZ_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DSLICEFUZZ_EXECUTORCH_SRC="$ET_SRC" ${SLICEFUZZ_CMAKE_ARGS:-}
cmake --build "$WORK" --target fuzz_program
cp "$WORK/fuzz_program" "$OUT/fuzz_program"
# The targets: fuzz_program (the reference, slicefuzz's own model; SLICEFUZZ_BACKEND
# picks another locally) and one per backend over other people's code that this
# build has. The torch.fx backends need Python and torch at run time, which a bare
# $OUT does not have: they stay nightly-only (ci/fuzz.sh).
TARGETS="fuzz_program fuzz_pr21552_rule"
[ -n "$ET_SRC" ] && TARGETS="$TARGETS fuzz_executorch_portable fuzz_executorch_runtime"
backend_of() { [ "$1" = fuzz_program ] && echo reference || echo "${1#fuzz_}" | tr _ -; }
for t in $TARGETS; do
  cp "$SRC_DIR/corpus/slicefuzz.dict" "$OUT/$t.dict"
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "$SRC_DIR/corpus" && zip -q -j "$OUT/${t}_seed_corpus.zip" seeds/*.case regression/*.case)
  cat >"$OUT/$t.options" <<OPTIONS
[libfuzzer]
dict = $t.dict
max_len = 4096
rss_limit_mb = 4096
timeout = 25
OPTIONS
  rm -rf "$OUT/${t}_known"
  known="$SRC_DIR/corpus/known/$(backend_of "$t")"
  if [ -d "$known" ]; then mkdir -p "$OUT/${t}_known" && cp "$known"/*.case "$OUT/${t}_known/"; fi
done

# ---- Bundle the shared libraries. The C library's own libraries stay the
# system's: they are tied to the dynamic loader (whose path is fixed in the
# executable) and every base system has them.
is_libc_part() {
  case "$1" in
    linux-vdso.so.*|ld-linux*.so.*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*| \
    libresolv.so.*|libutil.so.*|libanl.so.*|libmvec.so.*|libBrokenLocale.so.*|libnss_*.so.*| \
    libthread_db.so.*|libc_malloc_debug.so.*) return 0 ;;
  esac
  return 1
}
LIBDIR="$OUT/lib"
rm -rf "$LIBDIR"
mkdir -p "$LIBDIR"
# ldd gives the whole closure as "NEEDED-name => resolved path (address)"; the
# copy is named by the NEEDED name (what the loader looks for), symlinks resolved.
env -u LD_LIBRARY_PATH ldd "$OUT/fuzz_program" >"$WORK/ldd-before.txt"
if grep -q 'not found' "$WORK/ldd-before.txt"; then
  echo "oss-fuzz-build: the build machine cannot resolve every library:" >&2
  grep 'not found' "$WORK/ldd-before.txt" >&2
  exit 1
fi
while read -r name path; do
  is_libc_part "$name" && continue
  cp -L "$path" "$LIBDIR/$name"
  chmod u+w "$LIBDIR/$name"
  # shellcheck disable=SC2016  # $ORIGIN is for the dynamic loader, not the shell
  patchelf --set-rpath '$ORIGIN' "$LIBDIR/$name"
done < <(awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' "$WORK/ldd-before.txt")
# shellcheck disable=SC2016
patchelf --set-rpath '$ORIGIN/lib' "$OUT/fuzz_program"

# Check: everything resolves, and nothing but the C library from outside $OUT.
env -u LD_LIBRARY_PATH ldd "$OUT/fuzz_program" >"$WORK/ldd-after.txt"
bad=$(awk -v lib="$(cd "$LIBDIR" && pwd -P)/" '
  $2 == "=>" && $3 == "not" { print; next }
  $2 == "=>" && index($3, lib) != 1 { print }' "$WORK/ldd-after.txt" |
  while read -r name rest; do is_libc_part "$name" || echo "$name $rest"; done)
if [ -n "$bad" ]; then
  echo "oss-fuzz-build: libraries not resolved from $LIBDIR:" >&2
  echo "$bad" >&2
  exit 1
fi
# The per-backend targets: the same binary under each name (after patchelf, so
# each has the RUNPATH), hard-linked where the file system allows.
for t in $TARGETS; do
  [ "$t" = fuzz_program ] && continue
  rm -f "$OUT/$t"
  ln "$OUT/fuzz_program" "$OUT/$t" 2>/dev/null || cp "$OUT/fuzz_program" "$OUT/$t"
done
glibc_needed=$( { objdump -T "$OUT/fuzz_program" "$LIBDIR"/* 2>/dev/null || true; } |
  grep -o 'GLIBC_[0-9][0-9.]*' | sort -u -V | tail -1)
echo "built into $OUT: $(ls "$OUT" | tr '\n' ' ')"
echo "bundled $(ls "$LIBDIR" | wc -l) libraries into $LIBDIR ($(du -sh "$LIBDIR" | cut -f1)); \$OUT is $(du -sh "$OUT" | cut -f1); needs ${glibc_needed:-glibc} or newer from the system"
