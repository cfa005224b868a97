#!/usr/bin/env bash
# fuzz_program keeps the input of a sanitizer finding: libFuzzer writes the
# crashing input from its sanitizer death callback, which the runner's own
# (the path note of an isolated worker) used to replace, so a UBSan or ASan
# finding's input was lost (2026-12-01 to 2026-12-02). Planted: a UBSan overflow
# (faulty-length-overflow) and an ASan poisoned-arena read (faulty-alias-pointer-once),
# each from a one-file corpus; each must leave a crash-* artifact whose text is
# the case and which replays as the same finding with the CLI.
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZER=${FUZZER:-build/fuzz/fuzz_program}
CLI=${CLI:-build/asan/slicefuzz}
# Built (incrementally) like ci/fuzz.sh builds it: never a stale binary.
if [ "$FUZZER" = build/fuzz/fuzz_program ]; then
  # The same ExecuTorch trees as ci/fuzz.sh configures, so neither undoes the other's cache.
  source ci/executorch_trees.sh
  cmake --preset fuzz "${ET_CMAKE_ARGS[@]}" >/dev/null &&
    cmake --build --preset fuzz --target fuzz_program >/dev/null ||
    { echo "FAIL: cannot build $FUZZER"; exit 1; }
fi
TMP=$(mktemp -d /tmp/slicefuzz-artifact-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fails=0
plant() {  # BACKEND KIND CASE-TEXT
  local d="$TMP/$1"
  mkdir -p "$d/corpus" "$d/art"
  printf '%s' "$3" >"$d/corpus/seed.case"
  SLICEFUZZ_BACKEND=$1 SLICEFUZZ_KNOWN=/nonexistent timeout 300 "$FUZZER" -runs=0 \
    -artifact_prefix="$d/art/" "$d/corpus" >"$d/fuzz.log" 2>&1
  local art
  art=$(ls "$d/art" | grep '^crash-' | head -1)
  if [ -z "$art" ]; then
    echo "FAIL $1: no crash artifact (fuzz_program's log ends:)"; tail -5 "$d/fuzz.log"; fails=$((fails + 1)); return
  fi
  cmp -s "$d/art/$art" "$d/corpus/seed.case" || { echo "FAIL $1: the artifact is not the input"; fails=$((fails + 1)); return; }
  local kind
  kind=$("$CLI" triage --jsonl --backend "$1" --known /nonexistent "$d/art/$art" |
         /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["kind"])')
  [ "$kind" = "$2" ] || { echo "FAIL $1: the artifact replays as $kind, not $2"; fails=$((fails + 1)); return; }
  echo "ok   $1: $art kept, replays as $kind"
}
plant faulty-length-overflow SANITIZER $'slicefuzz-case 1\ndtype float32\ninput x [8]\na = slice_copy(x, dim=0, start=6, end=None, step=9223372036854775806)\noutput a\n'
plant faulty-alias-pointer-once SANITIZER "$(cat corpus/bench/bench-003-00ca573557.case)"$'\n'
echo "$fails planted sanitizer finding(s) lost"
exit $((fails > 0))
