#!/bin/bash
# `slicefuzz export --pte` writes a finding as a real ExecuTorch program with its
# inputs and PyTorch's expected outputs; the standalone runner (ExecuTorch's API
# only, backends/executorch/repro/pte_runner.cpp) reproduces each kind of
# finding: exits 1 with its evidence, and 0 on a program that behaves as PyTorch.
# Bad usage exits 2 and writes nothing.
# Usage: export_pte_test.sh SLICEFUZZ_CLI PTE_RUNNER SOURCE_DIR
set -u
CLI=$1
RUNNER=$2
SRC=$3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
KNOWN=$SRC/corpus/known/executorch-runtime

# expect NAME BACKEND CASE MODE STATUS TEXT: the runner exits STATUS and prints TEXT.
expect() {
  local name=$1 backend=$2 case=$3 mode=$4 want=$5 text=$6 dir="$WORK/$1"
  if ! "$CLI" export --pte "$case" -o "$dir" --backend "$backend" --mode "$mode" >"$WORK/export.out" 2>&1; then
    echo "FAIL $name: export: $(cat "$WORK/export.out")"; failures=$((failures + 1)); return
  fi
  UBSAN_OPTIONS=print_stacktrace=1 "$RUNNER" "$dir" >"$WORK/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ] || ! grep -q -- "$text" "$WORK/out"; then
    echo "FAIL $name: runner exit $got (want $want), text '$text':"; sed 's/^/  /' "$WORK/out" | tail -8
    failures=$((failures + 1)); return
  fi
  echo "ok   $name: runner exit $got, '$text'"
}

# A program that behaves as PyTorch, in both alias modes (runtime-op: et_view).
expect passes-planned executorch-runtime "$SRC/corpus/seeds/chain_dense_slices.case" planned 0 "does not reproduce"
expect passes-runtime-op executorch-runtime "$SRC/corpus/regression/alias_pointer_second_execution.case" runtime-op 0 \
  "does not reproduce"
# VALUE_MISMATCH: ExecuTorch's slice_copy in its own Method (a known defect).
expect value-mismatch executorch-runtime "$KNOWN/channels_last_slice_copy.case" planned 1 "DIFFERS from PyTorch"
# ERROR_MISMATCH: ExecuTorch refuses what PyTorch runs (a known defect).
expect error-mismatch executorch-runtime "$KNOWN/narrow_copy_negative_start_refused.case" planned 1 \
  "failed (error 0x12); PyTorch runs it"
# SANITIZER: undefined behaviour in ExecuTorch's program loader (a known defect).
expect sanitizer executorch-runtime "$KNOWN/empty_tensor_stride_overflow_in_the_program_loader.case" planned 1 \
  "parseTensor"
# The writer's faulty variants: an alias placed at its root's offset, a dim order dropped.
expect alias-offset faulty-et-runtime-offset-without-delta "$SRC/corpus/seeds/chain_dense_slices.case" planned 1 \
  "DIFFERS from PyTorch"
expect dim-order faulty-et-runtime-drops-dim-order "$SRC/corpus/seeds/dimorder_channels_last_slice_n.case" planned 1 \
  "DIFFERS from PyTorch"

# Version 4: one program written at the bounds, run at each execution's sizes
# and runtime integers (a one-element int64 input each).
expect dynamic-passes executorch-runtime-planned "$SRC/corpus/seeds/dynamic/kv_cache_read_at_live_length.case" planned 0 \
  "does not reproduce"
# pytorch/executorch issue 20546: set_input accepts an input past its bound in one
# dim (as many elements as the bound): the program and ExecuTorch alone show it.
expect dynamic-input-past-bound executorch-runtime-planned "$SRC/corpus/regression/input_past_its_bound_in_one_dim.case" \
  planned 1 "set_input accepted every input, but one lies past its bound"
# A planned alias of a static input inside a dynamic program, its delta lost by
# the faulty writer: wrong values at every execution.
cat >"$WORK/dynamic_static_alias.case" <<'CASE'
slicefuzz-case 4
dtype float32
sym S in [1, 4]
input x [S, 3]
input w [4, 3]
a = slice_copy(w, dim=0, start=1, end=3, step=1)
b = clone(a)
y = clone(x)
output b, y
run S=4
run S=2
CASE
expect dynamic-passes-static-alias executorch-runtime-planned "$WORK/dynamic_static_alias.case" planned 0 "does not reproduce"
expect dynamic-alias-offset faulty-et-runtime-offset-without-delta "$WORK/dynamic_static_alias.case" planned 1 \
  "execution 2, output 0: DIFFERS from PyTorch"
# Constants in the program's constant segment (ExecuTorch's extended header):
# a RoPE table read at a runtime position, and a planned alias into the segment
# whose delta the faulty writer loses.
expect constant-passes executorch-runtime-planned "$SRC/corpus/seeds/dynamic/rope_constant_at_runtime_position.case" \
  planned 0 "does not reproduce"
expect constant-alias-passes executorch-runtime-planned \
  "$SRC/corpus/regression/planned_alias_into_the_constant_segment.case" planned 0 "does not reproduce"
expect constant-alias-offset faulty-et-runtime-offset-without-delta \
  "$SRC/corpus/regression/planned_alias_into_the_constant_segment.case" planned 1 "output 1: DIFFERS from PyTorch"

# Bad usage: exit 2, one line, nothing written.
bad() {
  local name=$1; shift
  "$CLI" export --pte "$@" >"$WORK/bad.out" 2>&1
  local got=$?
  if [ "$got" != 2 ] || [ -e "$WORK/never" ]; then
    echo "FAIL bad usage $name: exit $got, want 2"; cat "$WORK/bad.out"; failures=$((failures + 1)); return
  fi
  echo "ok   bad usage $name: $(head -1 "$WORK/bad.out")"
}
bad no-dir "$SRC/corpus/seeds/chain_dense_slices.case"
bad bad-mode "$SRC/corpus/seeds/chain_dense_slices.case" -o "$WORK/never" --mode sideways
bad missing-file "$WORK/no-such.case" -o "$WORK/never"
bad not-upstream "$SRC/corpus/seeds/chain_dense_slices.case" -o "$WORK/never" --mode runtime-op --backend executorch-runtime
bad no-writer "$SRC/corpus/seeds/chain_dense_slices.case" -o "$WORK/never" --backend reference
printf 'slicefuzz-case 4\ndtype float32\nsym S in [1, 4]\ninput x [S]\ny = clone(x)\noutput y\nrun S=9\n' \
  >"$WORK/out_of_range.case"
bad dynamic-mode-not-the-backends "$SRC/corpus/seeds/dynamic/kv_cache_read_at_live_length.case" -o "$WORK/never" \
  --backend executorch-runtime --mode planned
bad no-execution-in-range "$WORK/out_of_range.case" -o "$WORK/never"
"$RUNNER" "$WORK/never" >/dev/null 2>&1
if [ $? != 2 ]; then echo "FAIL runner on a missing directory: not exit 2"; failures=$((failures + 1)); fi

if [ "$failures" != 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "export --pte: every kind reproduces with ExecuTorch alone"
