#!/bin/bash
# `slicefuzz export --python` of a rewrite-path finding replays the backend's
# rewrite with torch views and exits 1 while the bug shows; on the reference
# backend the same script exits 0. Runs the scripts with Debian's interpreter.
# Usage: python_repro_test.sh SLICEFUZZ_CLI SOURCE_DIR
set -u
CLI=$1
SRC=$2
PY=/usr/bin/python3
if ! "$PY" -c 'import torch' 2>/dev/null; then
  echo "SKIP: $PY has no torch (ci/install-deps.sh installs python3-torch)"
  exit 77
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0

# expect BACKEND CASE STATUS [TEXT]: the exported script exits STATUS and prints TEXT.
expect() {
  local backend=$1 case=$2 want=$3 text=${4:-}
  local script="$WORK/$backend-$(basename "$case" .case).py"
  if ! "$CLI" export --python "$SRC/$case" --backend "$backend" -o "$script" 2>"$WORK/err"; then
    echo "FAIL export $backend $case: $(cat "$WORK/err")"; failures=$((failures + 1)); return
  fi
  "$PY" "$script" >"$WORK/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $backend $case: exit $got, want $want"; sed 's/^/  /' "$WORK/out" | tail -8
    failures=$((failures + 1)); return
  fi
  if [ -n "$text" ] && ! grep -qF -- "$text" "$WORK/out"; then
    echo "FAIL $backend $case: output lacks '$text'"; sed 's/^/  /' "$WORK/out" | tail -8
    failures=$((failures + 1)); return
  fi
  echo "ok   $backend $case: exit $got"
}

# The alias is mutated in place: the write reaches its root x through shared storage.
expect faulty-alias-mutation corpus/seeds/rewrite_slice_mutated_add.case 1 "'x' holds -121 at [1, 0] in the rewrite, copy semantics gives -122"
# A program output made an alias.
expect faulty-output-rule corpus/seeds/rewrite_output_slice.case 1 "output 'y' is an et_slice alias of 'x'"
# A step-2 slice aliased as one block: the wrong elements.
expect faulty-density-step corpus/seeds/rewrite_step_gaps_blocked.case 1 "covers elements [0, 1, 2, 3, 4, 5] of its root 'x', but the slice reads elements [0, 1, 4, 5, 8, 9]"
# The root's bytes given away while its alias is still read.
expect faulty-lifetime corpus/seeds/memory_root_kept_alive.case 1 "planned lifetime ended"
# et_slice's own pointer (runtime-op mode), not the pass's delta.
expect faulty-stride0-offset corpus/seeds/rewrite_wrong_stride_offset.case 1 "REPRODUCED"
# Version 2: the per-value-layout form replays et_select and et_view aliases.
# An output with two users aliased (PR 3602's next-node rule).
expect faulty-output-next-node corpus/regression/select_output_with_two_users.case 1 "output 'y' is an et_select alias of 'x'"
# et_view without its guard on a channels-last input: the alias covers the wrong elements.
expect faulty-view-nondense corpus/regression/view_copy_of_channels_last_input.case 1 "the et_view alias 'y' = as_strided('x', [3, 4], [4, 1], +0) covers elements [0, 1, 2, 3, 4, 5, 6, 7, ...] of its root 'x', but view_copy reads elements [0, 3, 6, 9, 1, 4, 7, 10, ...]"
# et_select's pointer from an unnormalised negative index: the rewrite path dies on
# the poisoned arena, so the alias sits where et_select puts it when called directly.
expect faulty-select-negative-index corpus/regression/select_negative_index_alias.case 1 "the et_select alias 'y' covers bytes [-16, 0) of its root 'b'"
# Several inputs of different dtypes: one arena seen in each value's dtype. A root
# written while its alias is read (x1 by copy_ from x2), and bytes of z given away.
expect faulty-root-mutation corpus/seeds/v2-ops/inputs_alias_then_root_written_by_other_input.case 1 "'a' (an alias of 'x1') holds 12 at [0] in the rewrite, copy semantics gives 6"
expect faulty-lifetime corpus/seeds/v2-ops/inputs_aliases_of_each_input.case 1 "planned lifetime ended"
expect reference corpus/seeds/v2-ops/inputs_copy_between_dtypes_error.case 0 "copy_: dtypes differ"
for c in chain_mixed_kinds_all_aliases mutation_through_alias_of_alias root_written_while_alias_of_alias_read \
         clone_dim_order_then_selects view_of_slice_alias_of_alias squeeze_error_repeated_dim \
         inputs_aliases_of_each_input inputs_copy_between_inputs inputs_two_dtypes_two_dim_orders; do
  expect reference "corpus/seeds/v2-ops/$c.case" 0
done
# The same cases on the reference backend: the replay agrees with copy semantics.
for c in rewrite_slice_mutated_add rewrite_output_slice rewrite_step_gaps_blocked memory_root_kept_alive \
         rewrite_wrong_stride_offset design_example rewrite_kv_cache_update; do
  expect reference "corpus/seeds/$c.case" 0 "not reproduced"
done
# Version 4: the script runs every execution; the rewrite decided once and planned
# at the bounds is replayed at each execution's sizes, each alias where that
# execution put it. A planned offset right at the bound, wrong below it:
expect faulty-planned-offset-at-bound corpus/regression/slice_of_dim0_below_a_dynamic_inner_dim.case 1 "execution 2 (S=2): op 0 \`a = slice_copy(x, dim=0, start=2, end=4, step=1)\`: the et_slice alias 'a' = as_strided('x', [2, 2], [2, 1], +10) covers elements [10, 11, 12, 13] of its root 'x', but slice_copy reads elements [4, 5, 6, 7]"
# et_view keeping its planned sizes below the bound (the alias's executed bytes).
expect faulty-view-bound-sizes corpus/regression/view_below_the_bound.case 1 "et_view made the alias 'v' 96 bytes long, but the view it stands for is 48 bytes"
# A constant planned in the arena (the script lays constants out past the arena).
expect faulty-constant-in-arena corpus/regression/planned_alias_of_a_constant.case 1 "constant 'w' is planned in the arena at byte 48"
for c in seeds/dynamic/rope_constant_at_runtime_position seeds/dynamic/kv_cache_read_at_live_length \
         seeds/dynamic/method_at_the_bound_then_below_then_one regression/planned_alias_of_a_constant \
         regression/alias_grows_after_a_smaller_execution; do
  expect reference "corpus/$c.case" 0 "not reproduced"
done
[ "$failures" = 0 ] || { echo "$failures failures"; exit 1; }
echo "all python reproducers behave"
