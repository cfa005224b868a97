#!/usr/bin/env bash
# ci/fuzz.sh [SECONDS] -- the nightly job (default 60 s of fuzzing).
#   1. builds the fuzz preset (fuzz_program, slicefuzz) and the coverage preset;
#   2. fuzzes with fuzz_program -fork=$(nproc) and the dictionary, starting from
#      the persistent working corpus ($SLICEFUZZ_WORK, default fuzz-work/corpus),
#      which gets corpus/seeds and corpus/regression added (never overwritten);
#   3. merges coverage-increasing inputs into the working corpus: the merge runs
#      on a hard-linked staging copy, and new files enter the corpus by rename(2),
#      so a kill at any moment loses or truncates no corpus file;
#   4. deduplicates findings by signature, minimises each, exports reproducers;
#   5. writes out/<UTC timestamp>/ (report.md, report.json, junit.xml,
#      findings.sarif, coverage/ HTML, fuzz-progress.svg).
# Exit: 0 no findings, 1 findings, 2 the job itself failed.
set -uo pipefail
cd "$(dirname "$0")/.."

SECS=${1:-60}
if ! [[ "$SECS" =~ ^[0-9]+$ ]] || [ "$SECS" -lt 1 ]; then
  echo "usage: ci/fuzz.sh [SECONDS]" >&2
  exit 2
fi
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT="${SLICEFUZZ_OUT:-out}/$STAMP"
WORK="${SLICEFUZZ_WORK:-fuzz-work}"
CORPUS="$WORK/corpus"
BACKEND="${SLICEFUZZ_BACKEND:-reference}"
JOBS=$(nproc)

fail() {
  echo "fuzz.sh: job failed: $*" >&2
  echo "$*" >"$OUT/JOB_FAILED" 2>/dev/null
  exit 2
}
step() { echo "== $(date -u +%H:%M:%S) $*"; }

mkdir -p "$OUT/artifacts" "$OUT/findings" "$CORPUS" || fail "cannot create $OUT or $CORPUS"

step "build (fuzz and coverage presets; log in $OUT/build.log)"
{
  bash ci/install-deps.sh &&
    cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_program slicefuzz &&
    cmake --preset coverage && cmake --build --preset coverage --target slicefuzz
} >"$OUT/build.log" 2>&1 || fail "build (see $OUT/build.log)"
FUZZER=build/fuzz/fuzz_program
CLI=build/fuzz/slicefuzz

step "working corpus $CORPUS"
# Leftovers of a killed run are temporary names only; real corpus files are
# never touched here.
find "$CORPUS" -maxdepth 1 -name '*.tmp.*' -delete
for f in corpus/seeds/*.case corpus/regression/*.case; do
  [ -e "$f" ] || continue
  dest="$CORPUS/$(basename "$f")"
  if [ ! -e "$dest" ]; then
    cp "$f" "$dest.tmp.$$" && sync "$dest.tmp.$$" && mv "$dest.tmp.$$" "$dest" || fail "seeding $dest"
  fi
done
BEFORE=$(find "$CORPUS" -maxdepth 1 -type f | wc -l)

step "fuzz for $SECS s with -fork=$JOBS (log in $OUT/fuzz.log)"
NEW="$OUT/new-inputs"
mkdir -p "$NEW"
START=$(date +%s)
SLICEFUZZ_BACKEND="$BACKEND" ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=64}" \
  "$FUZZER" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$SECS" -timeout=25 -rss_limit_mb=4096 -dict=corpus/slicefuzz.dict \
  -artifact_prefix="$OUT/artifacts/" -print_final_stats=1 "$NEW" "$CORPUS" >"$OUT/fuzz.log" 2>&1
FUZZ_RC=$?
END=$(date +%s)
grep -q "INFO: Seed:" "$OUT/fuzz.log" || fail "fuzz_program did not start (exit $FUZZ_RC, see $OUT/fuzz.log)"

step "merge new coverage into $CORPUS"
STAGE="$WORK/merge-stage"
rm -rf "$STAGE" && mkdir -p "$STAGE" || fail "cannot create $STAGE"
# Hard links: the staging copy costs nothing and libFuzzer writes only new files.
cp -al "$CORPUS/." "$STAGE/" || fail "staging the corpus"
echo "$$" >"$WORK/merge-in-progress"
SLICEFUZZ_BACKEND="$BACKEND" "$FUZZER" -merge=1 -merge_control_file="$OUT/merge.control" \
  -timeout=25 -rss_limit_mb=4096 "$STAGE" "$NEW" >"$OUT/merge.log" 2>&1 || fail "merge (see $OUT/merge.log)"
ADDED=0
for f in "$STAGE"/*; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  if [ ! -e "$CORPUS/$b" ]; then
    sync "$f" && mv "$f" "$CORPUS/$b" || fail "moving $b into the corpus"
    ADDED=$((ADDED + 1))
  fi
done
rm -rf "$STAGE" "$WORK/merge-in-progress"
AFTER=$(find "$CORPUS" -maxdepth 1 -type f | wc -l)
echo "corpus: $BEFORE -> $AFTER files ($ADDED added)"

step "triage findings"
: >"$OUT/triage.tsv"
ARTIFACTS=$(find "$OUT/artifacts" -maxdepth 1 -type f | sort)
if [ -n "$ARTIFACTS" ]; then
  # shellcheck disable=SC2086
  "$CLI" triage --backend "$BACKEND" --timeout 60 $ARTIFACTS >"$OUT/triage.tsv" 2>"$OUT/triage.log"
  # Artifacts that do not fail on replay (a timeout or OOM under load) still count,
  # with the kind libFuzzer gave them.
  for a in $ARTIFACTS; do
    grep -qF "	$a	" "$OUT/triage.tsv" && continue
    case "$(basename "$a")" in
      timeout-*) kind=TIMEOUT ;;
      leak-*) kind=SANITIZER ;;
      *) kind=CRASH ;;
    esac
    printf '%s:unreproduced\t%s\t%s\t%s\n' "$kind" "$kind" "$a" \
      "libFuzzer reported $(basename "$a" | cut -d- -f1) but the replay passed" >>"$OUT/triage.tsv"
  done
fi
# One finding per signature: minimise the first artifact, export reproducers.
sort -t "	" -k1,1 -u "$OUT/triage.tsv" >"$OUT/unique.tsv"
while IFS="	" read -r sig kind file msg; do
  [ -n "$sig" ] || continue
  slug=$(echo "$sig" | tr -c 'A-Za-z0-9_\n' '-')
  dir="$OUT/findings/$slug"
  mkdir -p "$dir"
  cp "$file" "$dir/case.case"
  if "$CLI" minimize "$file" -o "$dir/minimized.case" --backend "$BACKEND" --time 60 \
    >"$dir/minimize.log" 2>&1; then
    src="$dir/minimized.case"
  else
    src="$dir/case.case"
  fi
  "$CLI" export --python "$src" -o "$dir/repro.py" --backend "$BACKEND" >/dev/null 2>&1
  "$CLI" export --gtest "$src" -o "$dir/repro_test.cpp" --backend "$BACKEND" >/dev/null 2>&1
done <"$OUT/unique.tsv"
# Artifacts of one bug often differ in rank or dim order until minimised: the
# report groups findings by the signature of their minimised case.
: >"$OUT/minimized.tsv"
MINIMIZED=$(find "$OUT/findings" -name minimized.case | sort)
if [ -n "$MINIMIZED" ]; then
  # shellcheck disable=SC2086
  "$CLI" triage --backend "$BACKEND" --timeout 60 $MINIMIZED >"$OUT/minimized.tsv" 2>/dev/null
fi

step "coverage of kernels/ and program/ from replaying the corpus"
PROF="$OUT/profraw"
mkdir -p "$PROF"
find "$CORPUS" -maxdepth 1 -type f ! -name '*.tmp.*' -print0 |
  LLVM_PROFILE_FILE="$PROF/%p.profraw" xargs -0 -n 200 build/coverage/slicefuzz check --no-isolate \
    >"$OUT/coverage-replay.log" 2>&1
llvm-profdata-14 merge -sparse "$PROF"/*.profraw -o "$OUT/coverage.profdata" ||
  fail "llvm-profdata merge"
SOURCES=("$PWD/kernels" "$PWD/program")
llvm-cov-14 show build/coverage/slicefuzz -instr-profile="$OUT/coverage.profdata" \
  -format=html -output-dir="$OUT/coverage" "${SOURCES[@]}" >/dev/null || fail "llvm-cov show"
llvm-cov-14 export build/coverage/slicefuzz -instr-profile="$OUT/coverage.profdata" \
  -summary-only "${SOURCES[@]}" >"$OUT/coverage-summary.json" || fail "llvm-cov export"
rm -rf "$PROF"

step "reports in $OUT"
/usr/bin/python3 ci/fuzz_report.py --out "$OUT" --seconds "$((END - START))" \
  --backend "$BACKEND" --corpus-before "$BEFORE" --corpus-after "$AFTER" ||
  fail "writing the reports"
cat "$OUT/report.md"
if [ -s "$OUT/unique.tsv" ]; then exit 1; fi
exit 0
