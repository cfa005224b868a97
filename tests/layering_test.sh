#!/usr/bin/env bash
# The two sides share no code (DESIGN section 6), checked on every C++ source
# (recursively: backends/executorch/ and its subfolders included): the judge
# (oracles/) and the generators include nothing of the system under test
# (kernels/, program/, backends/), the system under test includes nothing of the
# judge, the generators or the harness, and the vocabulary they share (vocab/:
# the dtype table, the case IR and op schema, the syntax, the op-loop skeleton;
# no semantics) includes only itself. tests/judge_facts_test links sf_judge alone, which proves
# the same for the symbols it reaches. The libraries stay in their folders:
# libtorch (ATen, torch) only in oracles/ (and bench/fuzz_ceiling.cpp, the
# libtorch ceiling measured against), RapidCheck only in generators/ and tests/,
# ExecuTorch only in backends/executorch/; harness/ and bench/ are checked for
# these too. A backend's tests (backends/*/tests/) are tests: like tests/, they
# may read a case with the judge's parser (oracles/parse_case.h). A folder with no C++ file, or a file that cannot be read, fails.
set -uo pipefail
cd "$1" || { echo "layering: cannot enter $1"; exit 2; }
bad=0
sources() {  # every C++ file under the folders given, or a failure
  local dir n
  for dir in "$@"; do
    n=$(find "$dir" -type f \( -name '*.cpp' -o -name '*.h' \) 2>/dev/null | wc -l)
    if [ "$n" -eq 0 ]; then echo "layering: no C++ file under $dir (moved? update this test)" >&2; echo "!MISSING!"; fi
    find "$dir" -type f \( -name '*.cpp' -o -name '*.h' \) 2>/dev/null
  done
}
includes() {  # the #include lines of file $1, or a failure when it cannot be read
  if [ "$1" = "!MISSING!" ] || [ ! -r "$1" ]; then echo "layering: cannot read $1" >&2; return 1; fi
  grep -E '^[[:space:]]*#[[:space:]]*include' "$1" || true
}
checked=0
while read -r f; do
  checked=$((checked + 1))
  inc=$(includes "$f") || { bad=1; continue; }
  while read -r line; do
    [ -n "$line" ] && { echo "$f: the judge includes the system under test: $line"; bad=1; }
  done < <(grep -E '#include "(kernels|program|backends)/' <<<"$inc")
done < <(sources oracles generators)
# The vocabulary belongs to neither side: it includes only itself.
while read -r f; do
  checked=$((checked + 1))
  inc=$(includes "$f") || { bad=1; continue; }
  while read -r line; do
    [ -n "$line" ] && { echo "$f: the vocabulary includes a side or the harness: $line"; bad=1; }
  done < <(grep -E '#include "' <<<"$inc" | grep -vE '#include "vocab/')
done < <(sources vocab)
while read -r f; do
  checked=$((checked + 1))
  inc=$(includes "$f") || { bad=1; continue; }
  while read -r line; do
    [ -n "$line" ] && { echo "$f: the system under test includes the judge: $line"; bad=1; }
  done < <(grep -E '#include "(oracles|harness|generators)/' <<<"$inc")
done < <(sources kernels program backends | grep -v '^backends/.*/tests/')  # a backend's own tests read cases as every test does
while read -r f; do
  inc=$(includes "$f") || { bad=1; continue; }
  case "$f" in
    oracles/*|bench/fuzz_ceiling.cpp) ;;
    *) grep -qE '#include <(ATen|torch)/' <<<"$inc" && { echo "$f: libtorch outside oracles/"; bad=1; } ;;
  esac
  case "$f" in
    generators/*|tests/*) ;;
    *) grep -qE '#include <rapidcheck' <<<"$inc" && { echo "$f: RapidCheck outside generators/ and tests/"; bad=1; } ;;
  esac
  case "$f" in
    backends/executorch/*) ;;
    *) grep -qE '#include <executorch/' <<<"$inc" && { echo "$f: ExecuTorch outside backends/executorch/"; bad=1; } ;;
  esac
done < <(sources vocab kernels program backends oracles generators harness bench tests)
[ "$bad" = 0 ] && echo "layering: $checked files; judge and system under test share only vocab/, which includes neither; libtorch, RapidCheck and ExecuTorch stay in their folders"
exit "$bad"
