#!/usr/bin/env bash
# The out-of-process protocol: a worker that crashes, hangs, answers garbage or
# wrong values must give CRASH / TIMEOUT / PROTOCOL_ERROR / VALUE_MISMATCH for that
# case only, and the restarted worker must answer the next case (PASS), with and
# without harness isolation. Nothing may hang: the whole test is bounded.
set -uo pipefail
sf=$1; src=$2
one=$src/tests/fixtures/worker/one_op.case two=$src/tests/fixtures/worker/two_ops.case
fail=0
# The workers' stderr logs live in TMPDIR, unlinked as soon as they are made:
# nothing may be left there at the end, whatever happened to the workers.
export TMPDIR; TMPDIR=$(mktemp -d)
trap 'rm -rf "$TMPDIR"' EXIT
expect() {  # mode, isolation flag, expected finding kind
  local out
  out=$(SLICEFUZZ_WORKER_TIMEOUT=2 SLICEFUZZ_WORKERS="fake=/usr/bin/python3 $src/tests/workers/fake_worker.py --mode $1" \
        timeout 60 "$sf" check --backend fake --jobs 1 $2 "$one" "$two" "$one" 2>/dev/null)
  local lines; lines=$(grep -E '^(PASS|FAIL)' <<<"$out" | awk '{print $1}' | tr '\n' ' ')
  if [ "$3" = PASS ]; then want="PASS PASS PASS "; else want="PASS FAIL PASS "; fi
  if [ "$lines" != "$want" ] || { [ "$3" != PASS ] && ! grep -q "FAIL .*two_ops.case $3: worker path" <<<"$out"; }; then
    echo "FAILED: mode $1 $2: expected $3 on the 2-op case and PASS around it"; echo "$out"; fail=1
  else
    echo "ok: mode $1 ${2:---isolated}: $3, worker restarted"
  fi
}
# A dead worker's CRASH carries the end of its stderr (read from the unlinked log).
out=$(SLICEFUZZ_WORKER_TIMEOUT=2 SLICEFUZZ_WORKERS="fake=/usr/bin/python3 $src/tests/workers/fake_worker.py --mode crash" \
      timeout 60 "$sf" check --backend fake --jobs 1 "$two" 2>/dev/null)
if grep -q "its stderr ends: .*fake worker: exiting on purpose" <<<"$out"; then echo "ok: a dead worker's stderr is in its finding"
else echo "FAILED: the CRASH finding lacks the worker's stderr"; echo "$out"; fail=1; fi
for iso in "" --no-isolate; do
  expect crash "$iso" CRASH
  expect hang "$iso" TIMEOUT
  expect garbage "$iso" PROTOCOL_ERROR
  expect wrong "$iso" VALUE_MISMATCH
  expect ok "$iso" PASS
done
# `diagnose`: a worker that explains its wrong value gives the signature its
# cause; one that predates the verb (answers it like `run`) keeps the op label.
sig() {
  SLICEFUZZ_WORKER_TIMEOUT=2 SLICEFUZZ_WORKERS="fake=/usr/bin/python3 $src/tests/workers/fake_worker.py --mode $1" \
    timeout 60 "$sf" triage --backend fake --known /nonexistent --jobs 1 "$two" 2>/dev/null | cut -f1
}
got=$(sig wrong-diagnosed)
if [ "$got" = "VALUE_MISMATCH:worker:fake-pass:flip" ]; then echo "ok: diagnosed: $got"
else echo "FAILED: wrong-diagnosed gave signature '$got'"; fail=1; fi
got=$(sig wrong)
if [[ "$got" = VALUE_MISMATCH:* && "$got" != VALUE_MISMATCH:worker:* ]]; then echo "ok: no diagnosis: $got"
else echo "FAILED: wrong (no diagnose verb) gave signature '$got'"; fail=1; fi
left=$(ls -A "$TMPDIR")
if [ -z "$left" ]; then echo "ok: no worker log left in TMPDIR"
else echo "FAILED: left in TMPDIR: $left"; fail=1; fi
exit $fail
