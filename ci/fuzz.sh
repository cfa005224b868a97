#!/usr/bin/env bash
# ci/fuzz.sh [SECONDS] -- the nightly job (default 60 s of fuzzing).
#   1. builds the fuzz preset (fuzz_program, slicefuzz) and the coverage preset;
#   2. fuzzes with $(nproc) long-lived fuzz_program workers (ci/fuzz_workers.py:
#      plain libFuzzer processes sharing one directory of new inputs, each with
#      its own -seed, restarted after a crash; libFuzzer's -fork restarted every
#      job within seconds, reloading libtorch each time) and the dictionary,
#      seeded from the persistent working corpus of the backend ($SLICEFUZZ_WORK,
#      default fuzz-work, holds <backend>/corpus: an input that is harmless on one
#      backend crashes another, and replaying those crashes made the merge take
#      minutes), which gets corpus/seeds and corpus/regression added (never
#      overwritten); workers read it, never write it;
#   3. merges coverage-increasing inputs into the working corpus: the merge runs
#      on a hard-linked staging copy, and new files enter the corpus by rename(2),
#      so a kill at any moment loses or truncates no corpus file;
#   4. deduplicates findings by signature, minimises each, exports reproducers;
#   5. writes out/<UTC timestamp>/ (report.md, report.json, junit.xml,
#      findings.sarif, coverage/ HTML, fuzz-progress.svg).
# Every libFuzzer invocation gets -artifact_prefix into $OUT: nothing is written
# into the repository.
# Time budget: fuzzing takes SECONDS (hard cap SECONDS + 30 for the workers'
# shutdown); everything after it (merge, crash replay, minimisation, coverage,
# reports) shares SLICEFUZZ_POST_BUDGET seconds (default 120), each step capped by
# what is left, so the job ends within SECONDS + 30 + POST_BUDGET + ~10 s after
# its build. report.md warns when a cap cut a step short or the bound was missed.
# Exit: 0 no findings (or only KNOWN ones), 1 findings, 2 the job itself failed;
# report.md and junit.xml are written on every exit path (when there is room).
# Disk space: before it writes (at the start, before the merge, before triage)
# the job checks that the output and working directories have at least
# SLICEFUZZ_MIN_FREE_MB (default 16) free; if not it stops with exit 2 and says
# which directory is full. Nothing is deleted then: the working corpus is only
# ever added to by rename(2), and the findings written so far stay in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."

SECS=${1:-60}
if ! [[ "$SECS" =~ ^[0-9]+$ ]] || [ "$SECS" -lt 1 ]; then
  echo "usage: ci/fuzz.sh [SECONDS]" >&2
  exit 2
fi
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT="${SLICEFUZZ_OUT:-out}/$STAMP"
FUZZER=build/fuzz/fuzz_program
CLI=build/fuzz/slicefuzz
BACKEND="${SLICEFUZZ_BACKEND:-reference}"
WORK="${SLICEFUZZ_WORK:-fuzz-work}/$BACKEND"
CORPUS="$WORK/corpus"
JOBS="${SLICEFUZZ_JOBS:-$(nproc)}"  # workers: one per core by default
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SLICEFUZZ_JOBS must be a positive whole number, got '$JOBS'" >&2; exit 2; }
POST_BUDGET="${SLICEFUZZ_POST_BUDGET:-120}"
KNOWN_DIR="${SLICEFUZZ_KNOWN:-corpus/known/$BACKEND}"
SEED="${SLICEFUZZ_SEED:-$(date +%s)}"
START=$(date +%s)
END=$START
BEFORE=0
AFTER=0
: "${DEADLINE:=0}"
WARNINGS=()

step() { echo "== $(date -u +%H:%M:%S) $*"; }
warn() {
  echo "fuzz.sh: warning: $*" >&2
  WARNINGS+=("$*")
}
# Seconds left of the post-fuzzing budget, at most $1 (and at least 1, so a
# capped step still starts and its cut-off is reported).
left() {
  local l=$((DEADLINE - $(date +%s)))
  [ "$l" -gt "$1" ] && l=$1
  [ "$l" -lt 1 ] && l=1
  echo "$l"
}
report() {
  local warnings=""
  [ ${#WARNINGS[@]} -gt 0 ] && warnings=$(printf '%s\n' "${WARNINGS[@]}")
  /usr/bin/python3 ci/fuzz_report.py --out "$OUT" --seconds "$((END - START))" \
    --backend "$BACKEND" --corpus-before "$BEFORE" --corpus-after "$AFTER" --seed "$SEED" \
    --commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    --known-dir "$KNOWN_DIR" --cli "$CLI" --source-dir "$PWD" --executorch-src "${ET_SRC:-}" \
    --warnings "$warnings" "$@"
}
fail() {
  echo "fuzz.sh: job failed: $*" >&2
  echo "$*" >"$OUT/JOB_FAILED" 2>/dev/null
  # The reports are written on this path too, with the reason.
  report --failed "$*" >/dev/null 2>&1 || echo "fuzz.sh: could not write the reports either" >&2
  exit 2
}

mkdir -p "$OUT/artifacts" "$OUT/findings" "$CORPUS" || fail "cannot create $OUT or $CORPUS"
OUT_ABS=$(cd "$OUT" && pwd)
MIN_FREE_MB="${SLICEFUZZ_MIN_FREE_MB:-16}"
[[ "$MIN_FREE_MB" =~ ^[0-9]+$ ]] || fail "SLICEFUZZ_MIN_FREE_MB must be a whole number of MiB, got '$MIN_FREE_MB'"
# need_space STEP: the output and working directories each have MIN_FREE_MB free,
# else the job stops before STEP (exit 2), keeping the corpus and the findings.
need_space() {
  local dir kb
  for dir in "$OUT" "$WORK"; do
    kb=$(df -Pk "$dir" 2>/dev/null | awk 'NR == 2 { print $4 }')
    [ -n "$kb" ] || continue
    if [ "$kb" -lt $((MIN_FREE_MB * 1024)) ]; then
      local findings
      findings=$(find "$OUT/artifacts" -maxdepth 1 -type f 2>/dev/null | wc -l)
      fail "no space left: $dir has $((kb / 1024)) MiB free, less than the $MIN_FREE_MB MiB the job needs (SLICEFUZZ_MIN_FREE_MB); stopped before $1. Kept: the corpus $CORPUS ($(find "$CORPUS" -maxdepth 1 -type f ! -name '*.tmp.*' | wc -l) files) and the $findings finding artifacts in $OUT/artifacts"
    fi
  done
}
need_space "the build"

# ExecuTorch's real code as a system under test, as in ci/test.sh
# (ci/executorch_trees.sh: ET_SRC, ET_OVERLAY, ET_CMAKE_ARGS).
source ci/executorch_trees.sh

step "build (fuzz and coverage presets${ET_SRC:+, ExecuTorch from $ET_SRC}; log in $OUT/build.log)"
{
  bash ci/install-deps.sh &&
    cmake --preset fuzz "${ET_CMAKE_ARGS[@]}" &&
    cmake --build --preset fuzz --target fuzz_program slicefuzz &&
    cmake --preset coverage "${ET_CMAKE_ARGS[@]}" &&
    cmake --build --preset coverage --target slicefuzz
} >"$OUT/build.log" 2>&1 || fail "build (see $OUT/build.log)"

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

step "fuzz for $SECS s with $JOBS workers, seed $SEED (log in $OUT/fuzz.log, each worker's in $OUT/workers/)"
NEW="$OUT/new-inputs"
mkdir -p "$NEW"
START=$(date +%s)
# Known findings of this backend are not failures: fuzz_program reports and
# skips them (SLICEFUZZ_KNOWN) and keeps exploring.
# timeout(1) signals the whole process group, so the workers go too (and
# fuzz_workers.py kills them when it dies).
# ASan while fuzzing: a 64 MB quarantine, and 2 frames of allocation and free
# stack per heap block instead of 30 (storing the stack of every malloc was ~12%
# of an execution at 30 frames; 2 instead of 5 frames measured 1.14x mutation on,
# docs/benchmarks.md; every check is the same, the access stack that signatures
# use is whole, and the report quotes the re-run of each minimised finding, which
# has full stacks).
SLICEFUZZ_BACKEND="$BACKEND" SLICEFUZZ_KNOWN="$KNOWN_DIR" SLICEFUZZ_KNOWN_LOG="$OUT_ABS/known-hits.log" \
  ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=64:malloc_context_size=2}" \
  timeout -k 5 "$((SECS + 30))" \
  /usr/bin/python3 ci/fuzz_workers.py --fuzzer "$FUZZER" --jobs "$JOBS" --seconds "$SECS" \
  --seed "$SEED" --new "$NEW" --corpus "$CORPUS" --artifact-prefix "$OUT/artifacts/" \
  --logs "$OUT/workers" -- -timeout=25 -rss_limit_mb=4096 -dict=corpus/slicefuzz.dict \
  >"$OUT/fuzz.log" 2>&1
FUZZ_RC=$?
END=$(date +%s)
DEADLINE=$((END + POST_BUDGET))
[ "$FUZZ_RC" -eq 124 ] && warn "fuzzing overran $SECS s by 30 s and was stopped"
# A disk that filled while fuzzing: said as such (not as a worker that failed).
need_space "the merge (the new inputs stay in $NEW)"
if ! grep -q "INFO: Seed:" "$OUT/fuzz.log"; then
  echo "---- last lines of $OUT/fuzz.log ----" >&2
  tail -n 15 "$OUT/fuzz.log" >&2
  fail "fuzz_program did not start (exit $FUZZ_RC; last lines of fuzz.log above and in the report)"
fi

step "merge new coverage into $CORPUS"
STAGE="$WORK/merge-stage"
rm -rf "$STAGE" && mkdir -p "$STAGE" || fail "cannot create $STAGE"
# Hard links: the staging copy costs nothing and libFuzzer writes only new files.
cp -al "$CORPUS/." "$STAGE/" || fail "staging the corpus"
echo "$$" >"$WORK/merge-in-progress"
# Capped: each crashing input restarts the merge process (and reloads libtorch);
# a merge cut short adds nothing, the corpus stays as it was.
MERGE_CAP=$(left 60)
mkdir -p "$OUT/merge-artifacts"
SLICEFUZZ_BACKEND="$BACKEND" timeout -k 5 "$MERGE_CAP" "$FUZZER" -merge=1 \
  -merge_control_file="$OUT/merge.control" -artifact_prefix="$OUT/merge-artifacts/" \
  -timeout=10 -rss_limit_mb=4096 "$STAGE" "$NEW" >"$OUT/merge.log" 2>&1
MERGE_RC=$?
if [ "$MERGE_RC" -eq 124 ] || [ "$MERGE_RC" -eq 137 ]; then
  warn "merge stopped at its cap of $MERGE_CAP s: no new inputs entered the corpus (they stay in $NEW)"
  find "$STAGE" -mindepth 1 -delete
elif [ "$MERGE_RC" -ne 0 ]; then
  fail "merge (exit $MERGE_RC, see $OUT/merge.log)"
fi
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

need_space "triage"
step "triage findings"
: >"$OUT/triage.tsv"
ARTIFACTS=$(find "$OUT/artifacts" -maxdepth 1 -type f | sort)
N_ARTIFACTS=$(echo -n "$ARTIFACTS" | grep -c . || true)
# Replay at most TRIAGE_MAX artifacts (their names are content hashes, so the
# first ones sorted are an unbiased sample): one bug gives hundreds of artifacts.
TRIAGE_MAX="${SLICEFUZZ_TRIAGE_MAX:-100}"
if [ "$N_ARTIFACTS" -gt "$TRIAGE_MAX" ]; then
  warn "$N_ARTIFACTS artifacts; replayed the first $TRIAGE_MAX (sorted by content hash)"
  ARTIFACTS=$(echo "$ARTIFACTS" | head -n "$TRIAGE_MAX")
fi
if [ -n "$ARTIFACTS" ]; then
  # shellcheck disable=SC2086
  timeout -k 5 "$(left 60)" "$CLI" triage --backend "$BACKEND" --known "$KNOWN_DIR" --timeout 20 --jobs "$JOBS" \
    $ARTIFACTS >"$OUT/triage.tsv" 2>"$OUT/triage.log"
  [ $? -eq 124 ] && warn "crash replay stopped at its cap; later artifacts count as unreproduced"
  # Artifacts that do not fail on replay (a timeout or OOM under load) still count,
  # with the kind libFuzzer gave them.
  for a in $ARTIFACTS; do
    grep -qF "	$a	" "$OUT/triage.tsv" && continue
    case "$(basename "$a")" in
      timeout-*) kind=TIMEOUT ;;
      leak-*) kind=SANITIZER ;;
      *) kind=CRASH ;;
    esac
    # The slug as signature_slug makes it (a kind is letters and underscores).
    printf '%s:unreproduced\t%s\t%s\t%s\tNEW\t%s-unreproduced\n' "$kind" "$kind" "$a" \
      "libFuzzer reported $(basename "$a" | cut -d- -f1) but the replay passed" "$kind" >>"$OUT/triage.tsv"
  done
fi
# One finding per signature: minimise the first artifact, export reproducers.
sort -t "	" -k1,1 -u "$OUT/triage.tsv" >"$OUT/unique.tsv"
N_SIGS=$(grep -c . "$OUT/unique.tsv" || true)
while IFS="	" read -r sig kind file msg status slug; do
  [ -n "$sig" ] || continue
  # The findings directory is named by triage's slug column (harness/triage/
  # signature.h, signature_slug: the one slug function); never made here.
  [ -n "$slug" ] || { warn "triage gave no slug for $sig"; continue; }
  dir="$OUT/findings/$slug"
  mkdir -p "$dir"
  cp "$file" "$dir/case.case"
  # Each signature gets an equal share of what is left, at most 30 s.
  share=$(( (DEADLINE - $(date +%s) - 30) / (N_SIGS > 0 ? N_SIGS : 1) ))
  [ "$share" -gt 30 ] && share=30
  [ "$share" -lt 3 ] && share=3
  N_SIGS=$((N_SIGS - 1))
  if "$CLI" minimize "$file" -o "$dir/minimized.case" --backend "$BACKEND" --time "$share" \
    >"$dir/minimize.log" 2>&1; then
    src="$dir/minimized.case"
  else
    src="$dir/case.case"
  fi
  # The minimised case's own finding, as a record (kind, path, op, line, rule,
  # signature: triage --jsonl), and its worker log with stack frames: the report
  # quotes these, not the artifact's.
  "$CLI" triage --jsonl "$src" --backend "$BACKEND" --known "$KNOWN_DIR" --timeout 20 \
    >"$dir/finding.jsonl" 2>/dev/null
  "$CLI" check "$src" --backend "$BACKEND" --timeout 20 >"$dir/check.txt" 2>"$dir/check.log"
  "$CLI" export --python "$src" -o "$dir/repro.py" --backend "$BACKEND" >/dev/null 2>&1
  "$CLI" export --gtest "$src" -o "$dir/repro_test.cpp" --backend "$BACKEND" >/dev/null 2>&1
done <"$OUT/unique.tsv"
[ "$(date +%s)" -gt "$DEADLINE" ] && warn "minimisation ran past the post-fuzzing budget"
# Artifacts of one bug often differ until minimised: the report groups findings
# by the root-cause signature of their minimised case.
: >"$OUT/minimized.jsonl"
MINIMIZED=$(find "$OUT/findings" -name minimized.case | sort)
if [ -n "$MINIMIZED" ]; then
  # shellcheck disable=SC2086
  timeout -k 5 "$(left 30)" "$CLI" triage --jsonl --backend "$BACKEND" --known "$KNOWN_DIR" --timeout 20 \
    $MINIMIZED >"$OUT/minimized.jsonl" 2>/dev/null
fi
# Known findings of this backend that no longer reproduce ("fixed? move to
# regression"): replayed here, listed by the report.
: >"$OUT/known-replay.tsv"
if ls "$KNOWN_DIR"/*.case >/dev/null 2>&1; then
  timeout -k 5 "$(left 30)" "$CLI" triage --backend "$BACKEND" --known "$KNOWN_DIR" --timeout 20 \
    "$KNOWN_DIR" >"$OUT/known-replay.tsv" 2>/dev/null
fi

step "coverage of kernels/, program/, backends/ (and ExecuTorch when built in) from replaying the corpus"
PROF="$OUT/profraw"
mkdir -p "$PROF"
# In-process (a forked worker's _exit writes no profile); capped like the rest.
: >"$OUT/coverage-replay.jsonl"  # appended to per batch: start empty
find "$CORPUS" -maxdepth 1 -type f ! -name '*.tmp.*' -print0 |
  LLVM_PROFILE_FILE="$PROF/%p.profraw" timeout -k 5 "$(left 60)" xargs -0 -n 200 \
    build/coverage/slicefuzz check --no-isolate --backend "$BACKEND" \
    --stats-jsonl "$OUT/coverage-replay.jsonl" >"$OUT/coverage-replay.log" 2>&1
[ $? -eq 124 ] && warn "coverage replay stopped at its cap (coverage is partial)"
llvm-profdata-14 merge -sparse "$PROF"/*.profraw -o "$OUT/coverage.profdata" ||
  fail "llvm-profdata merge"
SOURCES=("$PWD/kernels" "$PWD/program" "$PWD/backends")
# An external system under test built in is covered too (its kernels and runtime).
[ -n "$ET_SRC" ] && SOURCES+=("$ET_SRC/kernels/portable" "$ET_SRC/kernels/prim_ops" "$ET_SRC/runtime")
llvm-cov-14 show build/coverage/slicefuzz -instr-profile="$OUT/coverage.profdata" \
  -format=html -output-dir="$OUT/coverage" "${SOURCES[@]}" >/dev/null || fail "llvm-cov show"
llvm-cov-14 export build/coverage/slicefuzz -instr-profile="$OUT/coverage.profdata" \
  -summary-only "${SOURCES[@]}" >"$OUT/coverage-summary.json" || fail "llvm-cov export"
rm -rf "$PROF"

step "reports in $OUT"
TOTAL=$(( $(date +%s) - START ))
BOUND=$((SECS + 30 + POST_BUDGET + 10))
[ "$TOTAL" -gt "$BOUND" ] &&
  warn "the job took $TOTAL s after its build, over its bound of $BOUND s (SECONDS + 30 + POST_BUDGET + 10)"
report --total-seconds "$TOTAL" --bound "$BOUND" || fail "writing the reports"
cat "$OUT/report.md"
# Exit 1 only for findings that are not KNOWN (the report counts both).
if [ -s "$OUT/minimized.jsonl" ] || [ -s "$OUT/unique.tsv" ]; then
  /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(1 if r["new_findings"] else 0)' \
    "$OUT/report.json" || exit 1
fi
exit 0
