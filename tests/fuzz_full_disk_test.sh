#!/usr/bin/env bash
# The nightly (ci/fuzz.sh) on a file system that is, or becomes, full: it stops
# with exit 2 and a message naming the full directory, and loses no corpus file
# and no finding it had written. A small tmpfs holds the output and working
# directories (needs root to mount it; without root this test says so in one
# line and is skipped).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then echo "SKIPPED fuzz-full-disk-test: not root (mounting a small tmpfs needs root)"; exit 0; fi
TMP=$(mktemp -d /tmp/slicefuzz-full-disk.XXXXXX)
MNT="$TMP/mnt"
mkdir -p "$MNT"
cleanup() { umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
mount -t tmpfs -o size=24m tmpfs "$MNT" || { echo "SKIPPED fuzz-full-disk-test: cannot mount a tmpfs here"; exit 0; }
# Each scenario writes into an output directory of its own (a job's stamp has
# one-second resolution, so two quick jobs would share one).
export SLICEFUZZ_WORK="$MNT/work" SLICEFUZZ_OUT="$MNT/out1" SLICEFUZZ_BACKEND=reference SLICEFUZZ_MIN_FREE_MB=4
CORPUS="$SLICEFUZZ_WORK/reference/corpus"
mkdir -p "$CORPUS"
cp corpus/seeds/*.case "$CORPUS/"
# A finding written by an earlier run, which must survive too.
mkdir -p "$SLICEFUZZ_OUT/earlier/artifacts"
echo "crash" >"$SLICEFUZZ_OUT/earlier/artifacts/crash-earlier"
snapshot() { (cd "$CORPUS" && sha1sum -- * | sort) >"$1"; }
snapshot "$TMP/corpus.sha1"
failures=0
check() {  # check NAME LOG RC: exit 2, the message, nothing lost
  local name=$1 log=$2 rc=$3
  if [ "$rc" != 2 ]; then echo "FAIL $name: exit $rc, want 2"; tail -5 "$log"; failures=$((failures + 1)); fi
  if ! grep -q "no space left: .* MiB free, less than the 4 MiB the job needs" "$log"; then
    echo "FAIL $name: no 'no space left' message"; tail -5 "$log"; failures=$((failures + 1))
  fi
  if ! (cd "$CORPUS" && sha1sum -c --quiet "$TMP/corpus.sha1"); then
    echo "FAIL $name: a corpus file was lost or changed"; failures=$((failures + 1))
  fi
  [ -s "$SLICEFUZZ_OUT/earlier/artifacts/crash-earlier" ] || { echo "FAIL $name: an earlier finding was lost"; failures=$((failures + 1)); }
  echo "ok   $name: exit $rc, $(grep -o 'no space left: [^;]*' "$log" | head -1)"
}
fill() { dd if=/dev/zero of="$MNT/filler-$1" bs=64k 2>/dev/null; sync; }

# 1. Full from the start: stops before building or writing anything.
fill start
bash ci/fuzz.sh 3 >"$TMP/start.log" 2>&1
check "full at the start" "$TMP/start.log" $?
grep -q "stopped before the build" "$TMP/start.log" || { echo "FAIL: not stopped before the build"; failures=$((failures + 1)); }
rm -f "$MNT"/filler-*

# 2. Full while fuzzing: the disk fills once a worker has started (libFuzzer
# printed its seed); the job stops before its merge (the corpus is never touched).
export SLICEFUZZ_OUT="$MNT/out2"
mkdir -p "$SLICEFUZZ_OUT/earlier/artifacts"
echo "crash" >"$SLICEFUZZ_OUT/earlier/artifacts/crash-earlier"
bash ci/fuzz.sh 6 >"$TMP/during.log" 2>&1 &
JOB=$!
started() { grep -qs "INFO: Seed:" "$SLICEFUZZ_OUT"/2*/fuzz.log "$SLICEFUZZ_OUT"/2*/workers/*; }
while true; do  # the job builds first (minutes from nothing; ctest's TIMEOUT bounds it)
  started && break
  kill -0 "$JOB" 2>/dev/null || break
  sleep 0.1
done
started || { echo "FAIL: the job never started fuzzing"; tail -5 "$TMP/during.log"; exit 1; }
fill during
wait "$JOB"
check "full while fuzzing" "$TMP/during.log" $?
grep -q "stopped before the merge" "$TMP/during.log" || { echo "FAIL: not stopped before the merge"; failures=$((failures + 1)); }
[ ! -e "$SLICEFUZZ_WORK/reference/merge-in-progress" ] || { echo "FAIL: a merge was started"; failures=$((failures + 1)); }
[ "$failures" = 0 ] || { echo "$failures failures"; exit 1; }
echo "PASS: the nightly stops on a full disk with exit 2 and keeps its corpus and findings"
