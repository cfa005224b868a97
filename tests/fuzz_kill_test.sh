#!/usr/bin/env bash
# Kills ci/fuzz.sh with SIGKILL during its merge step and checks that no corpus
# file was lost or truncated, then that the next run completes and keeps them all.
set -euo pipefail
cd "$(dirname "$0")/.."
TMP=$(mktemp -d /tmp/slicefuzz-kill-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export SLICEFUZZ_WORK="$TMP/work" SLICEFUZZ_OUT="$TMP/out" SLICEFUZZ_BACKEND=reference

# A corpus with content to lose: the seeds plus a first short campaign.
# On a failure, the workers' own logs say what crashed (the report quotes only
# the replay of each artifact, and the temporary directory goes on exit).
show_worker_logs() { for w in "$SLICEFUZZ_OUT"/*/workers/*; do [ -f "$w" ] && { echo "--- $w"; tail -n 60 "$w"; }; done; }
bash ci/fuzz.sh 5 >"$TMP/first.log" 2>&1 || { cat "$TMP/first.log"; show_worker_logs; exit 1; }
CORPUS="$SLICEFUZZ_WORK/reference/corpus"
[ "$(ls "$CORPUS" | wc -l)" -gt 10 ] || { echo "corpus too small to test"; exit 1; }

# Second run: SIGKILL the whole job as soon as its merge step starts.
setsid bash ci/fuzz.sh 5 >"$TMP/second.log" 2>&1 &
JOB=$!
for _ in $(seq 1 3000); do
  [ -e "$SLICEFUZZ_WORK/reference/merge-in-progress" ] && break
  kill -0 "$JOB" 2>/dev/null || { echo "fuzz.sh ended before its merge step"; cat "$TMP/second.log"; exit 1; }
  sleep 0.1
done
[ -e "$SLICEFUZZ_WORK/reference/merge-in-progress" ] || { echo "merge step never started"; exit 1; }
# What the corpus held when the merge began (checksums of every file).
(cd "$CORPUS" && sha1sum -- * | sort) >"$TMP/before.sha1"
kill -KILL -- -"$JOB"
wait "$JOB" 2>/dev/null || true
echo "killed fuzz.sh during the merge ($(wc -l <"$TMP/before.sha1") corpus files)"

# Every file is still there, byte for byte; anything new is complete too.
(cd "$CORPUS" && sha1sum -c --quiet "$TMP/before.sha1") || { echo "FAIL: corpus file lost or changed"; exit 1; }
for f in "$CORPUS"/*; do
  case "$f" in *.tmp.*) continue ;; esac
  [ -s "$f" ] || { echo "FAIL: empty corpus file $f"; exit 1; }
done
echo "PASS: no corpus file lost or truncated"

# The next run starts cleanly and keeps every file.
bash ci/fuzz.sh 5 >"$TMP/third.log" 2>&1 || { cat "$TMP/third.log"; show_worker_logs; echo "FAIL: rerun failed"; exit 1; }
(cd "$CORPUS" && sha1sum -c --quiet "$TMP/before.sha1") || { echo "FAIL: rerun lost corpus files"; exit 1; }
[ ! -e "$SLICEFUZZ_WORK/reference/merge-stage" ] || { echo "FAIL: staging dir left behind"; exit 1; }
echo "PASS: rerun completed with $(ls "$CORPUS" | wc -l) corpus files"
