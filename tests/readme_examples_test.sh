#!/bin/bash
# The README's examples run: every command the README shows as run is run, and
# must end with the exit status the README gives it.
#
# Usage: tests/readme_examples_test.sh BUILD_DIR [FUZZ_BUILD_DIR]
#   BUILD_DIR       the directory of the built slicefuzz binary (e.g. build/asan)
#   FUZZ_BUILD_DIR  the directory of fuzz_program (default: `fuzz` beside BUILD_DIR,
#                   e.g. build/fuzz); commands that use it are SKIPPED when it has none
#
# The convention (README.md says it in one line above its first example):
# - Only fenced blocks opened by ```console are read. In them, a line that starts
#   with "$ " is a command; every other line is sample output, not compared.
#   A command line ending in "\" continues on the next line.
# - Every other block (```sh, plain ```) is never run: long jobs (ci/test.sh,
#   ci/fuzz.sh, campaigns of minutes) and commands that write into the checkout
#   belong there.
# - The command's trailing comment (after the last " # ") may say
#     exit N          the status the command must end with (default 0);
#     needs BACKEND   run only where `slicefuzz backends` lists BACKEND as
#                     available (e.g. the ExecuTorch ones), else SKIPPED;
#   several separated by commas: "# exit 1, needs executorch-runtime-planned".
# - Commands run in README order (later ones may read what earlier ones wrote),
#   each in its own `bash -c` from the top of the checkout, so relative paths
#   such as corpus/seeds resolve; each has at most 600 s.
# - Substitutions: "/tmp/sf" is replaced by a fresh temporary directory
#   (mktemp -d, removed on exit); "build/asan/" by BUILD_DIR; "build/fuzz/" by
#   FUZZ_BUILD_DIR. A command that names any other /tmp path is an error: the
#   examples write only under /tmp/sf, never into the working tree.
# - Every verb of the CLI must have at least one example that ran (not skipped).
#
# Exit 0 when every command ended as expected; 1 naming each one that did not
# (with the tail of its output); 2 for bad usage.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 BUILD_DIR [FUZZ_BUILD_DIR]" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ASAN=$(cd "$1" 2>/dev/null && pwd) || { echo "readme examples: no directory $1" >&2; exit 2; }
if [ $# -eq 2 ]; then
  FUZZ=$(cd "$2" 2>/dev/null && pwd) || FUZZ=$2
else
  FUZZ=$(dirname "$ASAN")/fuzz
fi
CLI=$ASAN/slicefuzz
README=$ROOT/README.md
[ -x "$CLI" ] || { echo "readme examples: no slicefuzz binary in $ASAN" >&2; exit 2; }
[ -f "$README" ] || { echo "readme examples: no $README" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TMPD=$WORK/sf
mkdir -p "$TMPD"
LOG=$WORK/log

# The examples choose their backend and known findings themselves.
unset SLICEFUZZ_BACKEND SLICEFUZZ_KNOWN SLICEFUZZ_WORKERS SLICEFUZZ_FORMAT_VERSION

# Backends this build has available (a "not available: NAME: ..." line is not one).
AVAILABLE=" $("$CLI" backends 2>/dev/null | awk '$1 != "not" {printf "%s ", $1}')"

# --- extraction: the commands and the README line each starts on
cmds=()
where=()
state=outside  # outside | console | other (a block that is not run)
pending=""
start=0
n=0
while IFS= read -r line || [ -n "$line" ]; do
  n=$((n + 1))
  if [[ $line == '```'* ]]; then
    if [ "$state" = outside ]; then
      if [[ $line =~ ^\`\`\`console[[:space:]]*$ ]]; then state=console; else state=other; fi
    else
      [ -n "$pending" ] && { echo "FAIL README.md:$start: command continues past its block"; exit 1; }
      state=outside
    fi
    continue
  fi
  [ "$state" = console ] || continue
  if [ -n "$pending" ]; then
    pending="${pending%\\}${line}"
  elif [[ $line == '$ '* ]]; then
    pending=${line#'$ '}
    start=$n
  else
    continue  # sample output
  fi
  if [[ $pending != *\\ ]]; then
    cmds+=("$pending")
    where+=("$start")
    pending=""
  fi
done < "$README"

if [ ${#cmds[@]} -eq 0 ]; then
  echo "FAIL no example commands found in README.md (\`\`\`console blocks, lines starting '\$ ')"
  exit 1
fi

# --- running
failures=0
ran_verbs=" "
t_all=$(date +%s)
for i in "${!cmds[@]}"; do
  cmd=${cmds[$i]}
  at="README.md:${where[$i]}"
  note=""
  [[ $cmd == *' # '* ]] && note=${cmd##* # }
  want=0
  [[ $note =~ (^|[ ,])exit[[:space:]]+([0-9]+) ]] && want=${BASH_REMATCH[2]}
  skip=""
  rest=$note
  while [[ $rest =~ (^|[ ,])needs[[:space:]]+([A-Za-z0-9_.-]+)(.*)$ ]]; do
    [[ $AVAILABLE == *" ${BASH_REMATCH[2]} "* ]] || skip="backend ${BASH_REMATCH[2]} not available in this build"
    rest=${BASH_REMATCH[3]}
  done
  if [[ $cmd =~ /tmp/sf[^/[:space:]] ]]; then
    echo "FAIL $at: names a /tmp path other than /tmp/sf: $cmd"; failures=$((failures + 1)); continue
  fi
  run=${cmd//\/tmp\/sf/$TMPD}
  if [[ $run == *'/tmp/'* && ${run//$TMPD/} == *'/tmp/'* ]]; then
    echo "FAIL $at: names a /tmp path outside /tmp/sf (examples write only there): $cmd"; failures=$((failures + 1)); continue
  fi
  run=${run//build\/asan\//$ASAN/}
  if [[ $run == *build/fuzz/* ]]; then
    run=${run//build\/fuzz\//$FUZZ/}
    [ -x "$FUZZ/fuzz_program" ] || skip="no fuzz_program in $FUZZ (cmake --preset fuzz && cmake --build --preset fuzz)"
  fi
  if [ -n "$skip" ]; then
    echo "SKIPPED $at: $cmd   ($skip)"
    continue
  fi
  t0=$(date +%s)
  (cd "$ROOT" && timeout 600 bash -c "$run") >"$LOG" 2>&1
  got=$?
  secs=$(( $(date +%s) - t0 ))
  if [ "$got" != "$want" ]; then
    echo "FAIL $at: exit $got, want $want: $cmd"
    tail -n 15 "$LOG" | sed 's/^/    /'
    failures=$((failures + 1))
    continue
  fi
  echo "ok   $at (exit $got, ${secs}s): $cmd"
  if [[ $cmd =~ build/asan/slicefuzz[[:space:]]+([a-z]+) ]]; then
    ran_verbs+="${BASH_REMATCH[1]} "
  fi
done

# Every verb the CLI documents has an example that ran.
verbs=$("$CLI" --help 2>&1 | awk '/^  [a-z]+ / {print $1}' | sort -u)
[ -n "$verbs" ] || verbs="check gen run minimize explain export triage backends"
for v in $verbs; do
  if [[ $ran_verbs != *" $v "* ]]; then
    echo "FAIL no README example of verb '$v' ran"
    failures=$((failures + 1))
  fi
done

echo "readme examples: ${#cmds[@]} commands, $failures failed, $(( $(date +%s) - t_all ))s"
[ $failures -eq 0 ] || exit 1
exit 0
