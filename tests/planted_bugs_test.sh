#!/usr/bin/env bash
# The judge shares no code with the system under test, proven by mutation: for
# every bug that kernels/util/planted_bug.h can plant inside a kernel utility,
# `check` (the corpus) and `run` (generated cases) must
#   - find it (at least one FAIL, exit status 1),
#   - blame the system under test: no ORACLE_DISAGREEMENT, no PARSE_ERROR,
#   - print a PASS or FAIL line for every case and the summary line.
# Usage: planted_bugs_test.sh SLICEFUZZ_CLI SOURCE_DIR
set -uo pipefail
cli=$1
src=$2
bugs=(normalize-dim-neg-rank start-clamp-off-by-one unclamped-negative-start step-zero-accepted
      dense-ignores-step strides-ignore-dim-order alias-offset-stride0 add-bool-always-flips)
ncases=$(find "$src/corpus/seeds" "$src/corpus/regression" -name '*.case' | wc -l)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failures=0

expect() {  # expect BUG METHOD EXPECTED_CASES STATUS
  local bug=$1 method=$2 cases=$3 status=$4 why=""
  local summary
  summary=$(tail -n 1 "$out")
  if [ "$status" != 1 ]; then why="exit status $status, expected 1"
  elif grep -qE 'ORACLE_DISAGREEMENT|PARSE_ERROR' "$out"; then
    why="blamed the judge: $(grep -m1 -E 'ORACLE_DISAGREEMENT|PARSE_ERROR' "$out")"
  elif ! [[ "$summary" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then why="no summary line"
  elif (( BASH_REMATCH[1] + BASH_REMATCH[2] != cases )); then why="summary '$summary' for $cases cases"
  elif (( BASH_REMATCH[2] == 0 )); then why="not found"
  elif [ "$method" = check ] && (( $(grep -cE '^(PASS|FAIL) ' "$out") != cases )); then
    why="$(grep -cE '^(PASS|FAIL) ' "$out") case lines for $cases cases"
  fi
  if [ -n "$why" ]; then
    echo "FAIL $bug ($method): $why"
    failures=$((failures + 1))
  else
    echo "ok   $bug ($method): $summary, kinds: $(grep -oE '(FAIL [^ ]+ |finding )[A-Z_]+' "$out" | awk '{print $NF}' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
  fi
}

for bug in "${bugs[@]}"; do
  SLICEFUZZ_PLANTED_BUG=$bug "$cli" check "$src/corpus/seeds" "$src/corpus/regression" >"$out" 2>/dev/null
  expect "$bug" check "$ncases" $?
  SLICEFUZZ_PLANTED_BUG=$bug "$cli" run --count 400 --seed 1 --jobs 2 2>/dev/null | tr '\r' '\n' >"$out"
  expect "$bug" run 400 "${PIPESTATUS[0]}"
done
# Without a planted bug the same commands are clean, so the findings above are the bug's.
"$cli" check "$src/corpus/seeds" "$src/corpus/regression" >"$out" 2>/dev/null || {
  echo "FAIL the corpus does not pass without a planted bug"; failures=$((failures + 1)); }
echo "$(( ${#bugs[@]} * 2 - failures )) passed, $failures failed"
exit $(( failures > 0 ))
