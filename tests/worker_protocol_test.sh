#!/usr/bin/env bash
# The out-of-process protocol: a worker that crashes, hangs, answers garbage or
# wrong values must give CRASH / TIMEOUT / PROTOCOL_ERROR / VALUE_MISMATCH for that
# case only, and the restarted worker must answer the next case (PASS), with and
# without harness isolation. Nothing may hang: the whole test is bounded.
set -uo pipefail
sf=$1; src=$2
one=$src/tests/fixtures/worker/one_op.case two=$src/tests/fixtures/worker/two_ops.case
fail=0
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
for iso in "" --no-isolate; do
  expect crash "$iso" CRASH
  expect hang "$iso" TIMEOUT
  expect garbage "$iso" PROTOCOL_ERROR
  expect wrong "$iso" VALUE_MISMATCH
  expect ok "$iso" PASS
done
exit $fail
