#!/usr/bin/env bash
# tests/layering_test.sh must fail on each planted violation (in a copy of the
# tree's C++ folders): the vocabulary including a side, the judge including the
# system under test, the system under test including the judge, a folder gone.
set -uo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
plant() {  # NAME FILE LINE: copy the tree, append LINE to FILE, expect a failure
  rm -rf "$tmp/tree" && mkdir "$tmp/tree"
  for d in vocab kernels program backends oracles generators harness bench tests; do cp -r "$src/$d" "$tmp/tree/"; done
  if [ "$2" = "-" ]; then rm -rf "$tmp/tree/$3"; else echo "$3" >>"$tmp/tree/$2"; fi
  if bash "$src/tests/layering_test.sh" "$tmp/tree" >"$tmp/out" 2>&1; then
    echo "FAIL $1: not caught"; fails=$((fails + 1))
  else
    echo "ok   $1: $(grep -m1 -v '^$' "$tmp/out")"
  fi
}
rm -rf "$tmp/tree" && mkdir "$tmp/tree"
for d in vocab kernels program backends oracles generators harness bench tests; do cp -r "$src/$d" "$tmp/tree/"; done
bash "$src/tests/layering_test.sh" "$tmp/tree" >/dev/null || { echo "FAIL the unplanted copy does not pass"; exit 1; }
plant vocab-includes-kernels vocab/case.h '#include "kernels/tensor.h"'
plant vocab-includes-judge vocab/op_schema.h '#include "oracles/judge_facts.h"'
plant judge-includes-pass oracles/eligibility.cpp '#include "program/rewrite_pass.h"'
plant generator-includes-kernel generators/case_gen.cpp '#include "kernels/tensor.h"'
plant kernel-includes-judge kernels/op_slice_copy.cpp '#include "oracles/judge_facts.h"'
plant backend-includes-harness backends/faulty.cpp '#include "harness/run/runner.h"'
plant executorch-backend-includes-judge backends/executorch/adapter.cpp '#include "oracles/values.h"'
plant libtorch-in-harness harness/run/runner.cpp '#include <ATen/ATen.h>'
plant vocab-folder-gone - vocab
echo "$fails planted violation(s) not caught"
exit $((fails > 0))
