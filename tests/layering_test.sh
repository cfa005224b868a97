#!/usr/bin/env bash
# The two sides share no code (DESIGN section 6), checked on the sources: the
# judge (oracles/) and the generators include nothing of the system under test
# (kernels/ apart from the dtype table, program/'s pass, planner, executors), and
# the system under test (kernels/, program/, backends/) includes nothing of the
# judge (program/interpreter.h, the op-loop skeleton, is shared vocabulary: it
# holds no semantics). tests/judge_facts_test links sf_judge alone, which proves the same for
# the symbols it reaches.
set -uo pipefail
cd "$1"
shared='"(kernels/scalar_type\.h|program/(case|case_format|program_info|tensor_value|path_result|plan_types|interpreter)\.h)"'
bad=0
for f in oracles/* generators/*; do
  while read -r line; do
    echo "$f: the judge includes the system under test: $line"; bad=1
  done < <(grep -E '#include "(kernels|program|backends)/' "$f" | grep -vE "#include $shared")
done
for f in kernels/*.* kernels/util/* program/* backends/*; do
  while read -r line; do
    echo "$f: the system under test includes the judge: $line"; bad=1
  done < <(grep -E '#include "(oracles|harness|generators)/' "$f")
done
[ "$bad" = 0 ] && echo "layering: judge and system under test share only the vocabulary headers"
exit "$bad"
