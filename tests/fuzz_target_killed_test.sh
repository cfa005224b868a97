#!/usr/bin/env bash
# A fuzz target killed mid-run (SIGKILL, as a preempted ClusterFuzzLite runner or
# an OOM killer does it) leaves a corpus the next run starts from: every file it
# had is still there byte for byte, and the next run loads the directory and runs.
set -uo pipefail
cd "$(dirname "$0")/.."
TMP=$(mktemp -d /tmp/slicefuzz-target-killed.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
{ cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_program; } >"$TMP/build.log" 2>&1 ||
  { tail -20 "$TMP/build.log"; echo "FAIL: building fuzz_program"; exit 1; }
FUZZER=build/fuzz/fuzz_program
CORPUS="$TMP/corpus"
mkdir -p "$CORPUS" "$TMP/artifacts"
cp corpus/seeds/*.case "$CORPUS/"
(cd "$CORPUS" && sha1sum -- * | sort) >"$TMP/seeds.sha1"
# First run: killed with SIGKILL once it has added inputs of its own.
env -u SLICEFUZZ_BACKEND "$FUZZER" -seed=1 -max_total_time=120 -artifact_prefix="$TMP/artifacts/" \
  "$CORPUS" >"$TMP/first.log" 2>&1 &
PID=$!
for _ in $(seq 1 1200); do
  [ "$(ls "$CORPUS" | wc -l)" -gt "$(wc -l <"$TMP/seeds.sha1")" ] && break
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
sleep 1
kill -KILL "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
added=$(( $(ls "$CORPUS" | wc -l) - $(wc -l <"$TMP/seeds.sha1") ))
[ "$added" -gt 0 ] || { tail -5 "$TMP/first.log"; echo "FAIL: the first run added no input before it was killed"; exit 1; }
(cd "$CORPUS" && sha1sum -c --quiet "$TMP/seeds.sha1") || { echo "FAIL: a corpus file was lost or changed by the kill"; exit 1; }
echo "killed fuzz_program with SIGKILL after it added $added inputs; every seed intact"
# Second run: starts from that directory (any file the kill cut short is just an
# input that does not parse) and runs. libFuzzer does not count an empty file as
# a seed (GetSizedFilesFromDir keeps files of size > 0), and a file the kill cut
# before its first byte is empty: the run must load every non-empty one.
files=$(find "$CORPUS" -type f -size +0 | wc -l)
empty=$(find "$CORPUS" -type f -size 0 | wc -l)
[ "$empty" -eq 0 ] || echo "the kill left $empty empty file(s), which libFuzzer does not load as seeds"
env -u SLICEFUZZ_BACKEND "$FUZZER" -seed=2 -runs=100 -artifact_prefix="$TMP/artifacts/" "$CORPUS" \
  >"$TMP/second.log" 2>&1 || { tail -10 "$TMP/second.log"; echo "FAIL: the next run did not exit 0"; exit 1; }
grep -q "INFO: seed corpus: files: $files " "$TMP/second.log" ||
  { grep "seed corpus" "$TMP/second.log"; echo "FAIL: the next run did not load all $files files"; exit 1; }
grep -qE "^Done [0-9]+ runs" "$TMP/second.log" || { tail -5 "$TMP/second.log"; echo "FAIL: no 'Done N runs' line"; exit 1; }
echo "PASS: the next run loaded all $files corpus files and ran"
