#!/usr/bin/env bash
# Proves that the $OUT tree built by ci/oss-fuzz-build.sh runs where nothing was
# installed: builds $OUT into a temporary directory, unpacks a fresh Debian 12
# minbase root file system (debootstrap; no libtorch, RapidCheck, ExecuTorch or
# compiler in it), copies $OUT in, and inside chroot
#   1. checks with ldd that every library resolves from $OUT/lib or the base system,
#   2. runs every target in $OUT (fuzz_program and one per backend, fuzz_<backend>)
#      `-runs=200` (flags from its .options) on the seed corpus unpacked from its
#      _seed_corpus.zip, known findings applied from its _known/: must exit 0,
#   3. reproduces a committed crashing input on a faulty backend chosen through
#      the environment: `SLICEFUZZ_BACKEND=faulty-output-rule fuzz_program FILE`
#      must exit non-zero with a slicefuzz finding on stderr (and the same file
#      must pass on the reference backend),
#   4. with ExecuTorch built in: a known ExecuTorch defect (a corpus/known case)
#      is counted by fuzz_executorch_portable, not reported (exit 0), and is
#      reported as a finding with -slicefuzz_report_known=1.
#
# Needs root (chroot, mount) and debootstrap (ci/install-deps.sh installs it);
# the first run downloads the base system from the Debian mirror configured in
# /etc/apt/sources.list* and caches it as a tarball in $SLICEFUZZ_CACHE (default
# /var/cache/slicefuzz), so later runs need no network. When it cannot run it says
# why in one line starting with "SKIPPED oss-fuzz-chroot-test:" and exits 0.
#
# Environment: SLICEFUZZ_EXECUTORCH_SRC (build the ExecuTorch backends in),
# SLICEFUZZ_DEBIAN_MIRROR (override the mirror), SLICEFUZZ_CACHE,
# SLICEFUZZ_CHROOT_BACKEND / SLICEFUZZ_CHROOT_CRASH (the faulty backend and the
# crashing case), SLICEFUZZ_CHROOT_KEEP=1 (keep the temporary directory).
set -euo pipefail
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
cd "$SRC_DIR"
START=$SECONDS
skip() { echo "SKIPPED oss-fuzz-chroot-test: $*"; exit 0; }
say() { echo "oss-fuzz-chroot-test: $*"; }
fail() { echo "oss-fuzz-chroot-test: FAILED: $*" >&2; exit 1; }

CACHE=${SLICEFUZZ_CACHE:-/var/cache/slicefuzz}
TARBALL="$CACHE/debian-bookworm-minbase-$(uname -m).tar.gz"
BACKEND=${SLICEFUZZ_CHROOT_BACKEND:-faulty-output-rule}
CRASH=${SLICEFUZZ_CHROOT_CRASH:-$SRC_DIR/tests/fixtures/known/faulty-output-rule/output_slice_aliased.case}

[ "$(id -u)" = 0 ] || skip "not root (chroot, mount and debootstrap need root)"
[ "$(uname -s)" = Linux ] || skip "not Linux"
if [ ! -s "$TARBALL" ] && ! command -v debootstrap >/dev/null; then
  say "debootstrap is missing; trying ci/install-deps.sh"
  bash ci/install-deps.sh >/dev/null 2>&1 || true
  command -v debootstrap >/dev/null ||
    skip "debootstrap is not on PATH and ci/install-deps.sh could not provide it (no network to the Debian archive?)"
fi

# The Debian mirror this machine's apt uses (deb822 .sources or one-line .list).
debian_mirror() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN { RS = ""; FS = "\n" }
      { uris = ""; suites = ""; types = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/)   { uris = $i;   sub(/^URIs:[ \t]*/, "", uris) }
          if ($i ~ /^Suites:/) { suites = " " $i " " }
          if ($i ~ /^Types:/)  { types = " " $i " " }
        }
        if (types ~ / deb / && suites ~ /[ \t]bookworm[ \t]/) { split(uris, u, /[ \t]+/); print u[1]; exit } }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                       if ($(i + 1) == "bookworm") { print $i; exit } }' "$f"
  done
}

# ---- 1. The base system: cached tarball, or debootstrap once.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
if [ ! -s "$TARBALL" ]; then
  MIRROR=${SLICEFUZZ_DEBIAN_MIRROR:-$(debian_mirror | head -1)}
  [ -n "$MIRROR" ] || skip "no Debian bookworm mirror in /etc/apt/sources.list* (set SLICEFUZZ_DEBIAN_MIRROR)"
  if command -v curl >/dev/null; then
    curl -fs --max-time 30 -o /dev/null "$MIRROR/dists/bookworm/Release" ||
      skip "no network to the Debian mirror $MIRROR (and no cached base system in $TARBALL)"
  fi
  BOOT=$(mktemp -d "$CACHE/debootstrap.XXXXXX")
  say "debootstrap --variant=minbase bookworm from $MIRROR (once; cached as $TARBALL)"
  if ! debootstrap --variant=minbase bookworm "$BOOT/root" "$MIRROR" >"$BOOT/debootstrap.log" 2>&1; then
    tail -5 "$BOOT/debootstrap.log" >&2
    if grep -qiE "failed|couldn't download|unable to fetch|temporary failure|could not resolve" "$BOOT/debootstrap.log"; then
      rm -rf "$BOOT"
      skip "debootstrap could not download from $MIRROR (no network to the mirror?)"
    fi
    rm -rf "$BOOT"
    fail "debootstrap failed"
  fi
  tar -C "$BOOT/root" --numeric-owner -czf "$BOOT/rootfs.tar.gz" .
  mv "$BOOT/rootfs.tar.gz" "$TARBALL"
  rm -rf "$BOOT"
fi
flock -u 9
BASE=$SECONDS

# ---- 2. $OUT, built as OSS-Fuzz builds it.
TMP=$(mktemp -d /tmp/slicefuzz-chroot-test.XXXXXX)
ROOT="$TMP/root"
cleanup() {
  if [ -n "${ROOT:-}" ] && mountpoint -q "$ROOT/proc" 2>/dev/null; then umount "$ROOT/proc" || umount -l "$ROOT/proc"; fi
  if [ "${SLICEFUZZ_CHROOT_KEEP:-0}" = 1 ]; then say "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP  # so that cleanup unmounts /proc when ctest's timeout ends the test
export OUT="$TMP/out"
say "building \$OUT with ci/oss-fuzz-build.sh${SLICEFUZZ_EXECUTORCH_SRC:+ (ExecuTorch backends from $SLICEFUZZ_EXECUTORCH_SRC)}"
bash ci/oss-fuzz-build.sh >"$TMP/build.log" 2>&1 || { tail -30 "$TMP/build.log" >&2; fail "ci/oss-fuzz-build.sh failed"; }
tail -1 "$TMP/build.log"
BUILT=$SECONDS

# ---- 3. A fresh root file system with $OUT in it and nothing else of ours.
mkdir -p "$ROOT"
tar -C "$ROOT" --numeric-owner -xzf "$TARBALL"
for forbidden in 'libtorch*' 'libc10*' 'librapidcheck*' 'libprotobuf*' 'libglog*'; do
  found=$(find "$ROOT/usr" "$ROOT/lib" -name "$forbidden" 2>/dev/null | head -1 || true)
  [ -z "$found" ] || fail "the base system already has ${found#"$ROOT"}"
done
cp -a "$OUT" "$ROOT/out"
mkdir -p "$ROOT/work/seeds" "$ROOT/work/corpus" "$ROOT/work/artifacts"
unzip -q "$OUT/fuzz_program_seed_corpus.zip" -d "$ROOT/work/seeds"
cp "$CRASH" "$ROOT/work/crash.case"
# The dynamic loader resolves $ORIGIN through /proc/self/exe.
mount -t proc proc "$ROOT/proc"
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

# ldd inside the base system: nothing missing, nothing of ours from outside /out/lib.
in_root /usr/bin/ldd /out/fuzz_program >"$TMP/ldd.txt" 2>&1 || { cat "$TMP/ldd.txt" >&2; fail "ldd failed in the chroot"; }
if grep -q 'not found' "$TMP/ldd.txt"; then grep 'not found' "$TMP/ldd.txt" >&2; fail "unresolved libraries in the chroot"; fi
outside=$(awk '$2 == "=>" && $3 !~ /^\/out\/lib\// { print $1 }' "$TMP/ldd.txt" |
  grep -vE '^(libc|libm|libpthread|libdl|librt|libresolv|libutil|libanl|libmvec)\.so\.' || true)
[ -z "$outside" ] || fail "resolved from the base system instead of /out/lib: $(echo "$outside" | tr '\n' ' ')"
bundled=$(awk '$3 ~ /^\/out\/lib\// { n++ } END { print n + 0 }' "$TMP/ldd.txt")
say "ldd in the chroot: $bundled libraries from /out/lib, the rest is glibc"

# ---- 4. Every target: 200 executions on its seed corpus, with its options file's flags.
TARGETS=$(cd "$OUT" && for f in fuzz_*; do if [ -f "$f" ] && [ -x "$f" ] && [ -f "$f.options" ]; then echo "$f"; fi; done)
[ -n "$TARGETS" ] || fail "no target in \$OUT"
for t in $TARGETS; do
  FLAGS=()
  while IFS='=' read -r key value; do
    key=$(echo "$key" | tr -d '[:space:]'); value=$(echo "$value" | tr -d '[:space:]')
    [ -n "$key" ] && [ -n "$value" ] || continue
    [ "$key" = dict ] && value="/out/$value"
    FLAGS+=("-$key=$value")
  done < <(grep -v '^\[' "$OUT/$t.options")
  rm -rf "$ROOT/work/seeds-$t" "$ROOT/work/corpus-$t"
  mkdir -p "$ROOT/work/seeds-$t" "$ROOT/work/corpus-$t"
  unzip -q "$OUT/${t}_seed_corpus.zip" -d "$ROOT/work/seeds-$t"
  if ! in_root "/out/$t" "${FLAGS[@]}" -runs=200 -seed=1 -artifact_prefix=/work/artifacts/ \
       "/work/corpus-$t" "/work/seeds-$t" >"$TMP/fuzz-$t.log" 2>&1; then
    tail -40 "$TMP/fuzz-$t.log" >&2
    fail "$t -runs=200 on its seed corpus did not exit 0"
  fi
  grep -q '^Done 200 runs' "$TMP/fuzz-$t.log" || { tail -20 "$TMP/fuzz-$t.log" >&2; fail "$t did not report 'Done 200 runs'"; }
  say "$t ${FLAGS[*]} -runs=200 on $(ls "$ROOT/work/seeds-$t" | wc -l) seeds: exit 0 ($(grep '^#200' "$TMP/fuzz-$t.log" | grep -o 'cov: [0-9]*' | head -1 || true); $(grep -o '[0-9]* known findings for backend [a-z0-9-]*' "$TMP/fuzz-$t.log" || echo "no known findings"))"
done

# ---- 5. A committed crashing input reproduces on a faulty backend, and only there.
set +e
in_root SLICEFUZZ_BACKEND="$BACKEND" /out/fuzz_program /work/crash.case >"$TMP/crash.log" 2>&1
rc=$?
set -e
if [ "$rc" = 0 ] || ! grep -q '^==== slicefuzz finding ====' "$TMP/crash.log"; then
  tail -30 "$TMP/crash.log" >&2
  fail "SLICEFUZZ_BACKEND=$BACKEND fuzz_program $(basename "$CRASH") exited $rc without a slicefuzz finding"
fi
# The report names the mutators that made the input (a committed file: none).
grep -q '^mutators: ' "$TMP/crash.log" || fail "the finding report has no 'mutators:' line"
say "SLICEFUZZ_BACKEND=$BACKEND fuzz_program $(basename "$CRASH"): exit $rc, $(grep -m1 '^kind:' "$TMP/crash.log")"
in_root /out/fuzz_program /work/crash.case >"$TMP/reference.log" 2>&1 ||
  { tail -30 "$TMP/reference.log" >&2; fail "the crashing input also fails on the reference backend"; }


# ---- 6. With SLICEFUZZ_EXECUTORCH_SRC, ExecuTorch's kernels are built in and run there,
# in their own target, whose known findings are applied inside it.
if [ -n "${SLICEFUZZ_EXECUTORCH_SRC:-}" ]; then
  echo "$TARGETS" | grep -qx fuzz_executorch_portable || fail "no fuzz_executorch_portable target in \$OUT"
  KNOWN_CASE=${SLICEFUZZ_CHROOT_KNOWN:-$SRC_DIR/corpus/known/executorch-portable/channels_last_slice_copy.case}
  cp "$KNOWN_CASE" "$ROOT/work/known.case"
  in_root /out/fuzz_executorch_portable /work/known.case >"$TMP/known.log" 2>&1 ||
    { tail -30 "$TMP/known.log" >&2; fail "fuzz_executorch_portable reported the known defect $(basename "$KNOWN_CASE") as a crash"; }
  grep -q 'KNOWN finding' "$TMP/known.log" || { tail -20 "$TMP/known.log" >&2; fail "fuzz_executorch_portable did not count $(basename "$KNOWN_CASE") as known"; }
  set +e
  in_root /out/fuzz_executorch_portable -slicefuzz_report_known=1 /work/known.case >"$TMP/known-reported.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" = 0 ] || ! grep -q '^==== slicefuzz finding ====' "$TMP/known-reported.log"; then
    tail -30 "$TMP/known-reported.log" >&2
    fail "fuzz_executorch_portable -slicefuzz_report_known=1 did not report $(basename "$KNOWN_CASE")"
  fi
  say "fuzz_executorch_portable $(basename "$KNOWN_CASE"): counted as known (exit 0); with -slicefuzz_report_known=1: exit $rc, $(grep -m1 '^kind:' "$TMP/known-reported.log")"
  in_root SLICEFUZZ_BACKEND=executorch-portable /out/fuzz_program /work/seeds/chain_dense_slices.case \
    >"$TMP/executorch.log" 2>&1 ||
    { tail -30 "$TMP/executorch.log" >&2; fail "the executorch-portable backend did not run chain_dense_slices.case in the chroot"; }
  say "SLICEFUZZ_BACKEND=executorch-portable fuzz_program chain_dense_slices.case: exit 0"
fi

say "PASSED in $((SECONDS - START)) s (base system $((BASE - START)) s, build $((BUILT - BASE)) s, chroot $((SECONDS - BUILT)) s); \$OUT $(du -sh "$OUT" | cut -f1)"
