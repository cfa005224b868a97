#!/usr/bin/env bash
# Turns a crash file from ClusterFuzzLite/OSS-Fuzz (or any fuzz_program artifact)
# into a regression case:
#   ci/import-crash.sh CRASH_FILE NAME [--backend B] [--time S]
# writes corpus/regression/NAME.case: the input minimised with `slicefuzz minimize`
# (keeping its finding kind and op), under a comment header saying what it caught
# and where it came from. The backend is the one the crash was found on (default
# $SLICEFUZZ_BACKEND, else reference: what ClusterFuzzLite runs). An input that
# no longer fails is imported as it is (already fixed: it guards the fix).
# Uses build/asan/slicefuzz (ci/test.sh builds it), or $SLICEFUZZ_CLI.
set -euo pipefail
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: ci/import-crash.sh CRASH_FILE NAME [--backend NAME] [--time SECONDS]" >&2; exit 2; }
[ $# -ge 2 ] || usage
CRASH=$1 NAME=$2
shift 2
BACKEND=${SLICEFUZZ_BACKEND:-reference} TIME=120
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) [ $# -ge 2 ] || usage; BACKEND=$2; shift 2 ;;
    --time) [ $# -ge 2 ] || usage; TIME=$2; shift 2 ;;
    *) usage ;;
  esac
done
[ -f "$CRASH" ] || { echo "import-crash: $CRASH: no such file" >&2; exit 2; }
CRASH=$(cd "$(dirname "$CRASH")" && pwd)/$(basename "$CRASH")
[[ "$NAME" =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] && [[ "$NAME" != *.case ]] ||
  { echo "import-crash: NAME must be letters, digits, '_', '-', '.' (without .case): '$NAME'" >&2; exit 2; }
DEST="$SRC_DIR/corpus/regression/$NAME.case"
[ ! -e "$DEST" ] || { echo "import-crash: $DEST exists already" >&2; exit 2; }

cd "$SRC_DIR"
CLI=${SLICEFUZZ_CLI:-$SRC_DIR/build/asan/slicefuzz}
if [ ! -x "$CLI" ]; then
  [ -d build/asan ] || { echo "import-crash: no $CLI: run ci/test.sh first (or set SLICEFUZZ_CLI)" >&2; exit 2; }
  cmake --build --preset asan --target slicefuzz >/dev/null
fi
TMP=$(mktemp -d /tmp/slicefuzz-import.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# What it is: triage prints "signature<TAB>kind<TAB>file<TAB>message<TAB>status".
set +e
"$CLI" triage --backend "$BACKEND" "$CRASH" >"$TMP/triage.tsv" 2>"$TMP/triage.err"
rc=$?
set -e
[ "$rc" -le 1 ] || { cat "$TMP/triage.err" >&2; echo "import-crash: slicefuzz triage failed (exit $rc)" >&2; exit 2; }
IFS=$'\t' read -r SIG KIND _ MESSAGE STATUS <"$TMP/triage.tsv" || true
if [ "$KIND" = PARSE_ERROR ]; then
  echo "import-crash: $CRASH is not a .case program ($MESSAGE); a crash in the parser itself" >&2
  echo "  belongs in a parser test, not in corpus/regression/" >&2
  exit 1
fi

DATE=$(date -u +%Y-%m-%d)
{
  echo "# Regression (imported by ci/import-crash.sh on $DATE from $(basename "$CRASH"),"
  echo "# a fuzz_program crash file, e.g. from ClusterFuzzLite; backend $BACKEND)."
  if [ -z "$SIG" ]; then
    echo "# It no longer failed when imported: kept as it was, to guard the fix."
  else
    echo "# caught: $SIG${STATUS:+ ($STATUS)}"
  fi
} >"$TMP/header"

if [ -z "$SIG" ]; then
  grep -v '^#' "$CRASH" >"$TMP/body" || true
else
  "$CLI" minimize --backend "$BACKEND" --time "$TIME" "$CRASH" -o "$TMP/min.case" >"$TMP/minimize.log" 2>&1 ||
    { cat "$TMP/minimize.log" >&2; echo "import-crash: slicefuzz minimize failed" >&2; exit 1; }
  grep '^minimized' "$TMP/minimize.log" || true
  # The minimised case's own finding (minimize writes it as "# finding: ...").
  grep -m1 '^# finding:' "$TMP/min.case" | cut -c1-400 >>"$TMP/header" || true
  grep -v '^#' "$TMP/min.case" >"$TMP/body"
fi
echo "# TODO: say what it caught in words, and the fix." >>"$TMP/header"
cat "$TMP/header" "$TMP/body" >"$TMP/out.case"
"$CLI" check --backend "$BACKEND" "$TMP/out.case" >"$TMP/check.txt" 2>&1 || true
grep -q 'PARSE_ERROR' "$TMP/check.txt" && { cat "$TMP/check.txt" >&2; echo "import-crash: the result does not parse" >&2; exit 1; }
mv "$TMP/out.case" "$DEST"
echo "wrote ${DEST#"$SRC_DIR"/}:"
cat "$DEST"
# ctest replays corpus/regression/ on the reference, example-naive-kernels and
# conservative backends: say whether the new case is red there.
if "$CLI" check "$DEST" >"$TMP/reference.txt" 2>&1; then
  echo "import-crash: passes on reference (ctest's corpus replay stays green)${SIG:+; fails on $BACKEND: $SIG}"
else
  echo "import-crash: FAILS on reference: ctest's corpus replay is red until the bug is fixed:"
  grep '^FAIL' "$TMP/reference.txt" || true
fi
