// Writes a program (a case with its analysis, the pass's rewrite and the
// planner's plan) as a real ExecuTorch program: a `.pte` flatbuffer of
// executorch/schema/program.fbs, built with the schema's generated builders, that
// ExecuTorch's Program::load verifies and its Method runs (issue 24).
//
// What the program holds (docs/design.md section 8, "ExecuTorch programs"):
// - one Tensor EValue per value, at its sizes, dim order and scalar type; a value
//   the plan places has an `allocation_info` (memory id 1, the plan's offset); a
//   runtime-op alias has none (its prim op sets its data pointer); the failing
//   op's out has memory id 2 of its own; a constant has no allocation_info
//   but a data_buffer_idx into the constant segment (a segment after the
//   flatbuffer, found through ExecuTorch's extended header), and so has a
//   planned alias of one (its root's entry plus the alias delta); version 4: values at their bounds,
//   DYNAMIC_BOUND where their sizes vary, each symbol an Int EValue computed at
//   the chain's start by ExecuTorch's prim ops (sym_size.int of an input it
//   sizes, else _local_scalar_dense of a one-element input tensor), NAME+K by
//   executorch_prim::add.Scalar;
// - one chain of kernel calls, operators named as kernels/portable/functions.yaml
//   names them, an alias as its prim op (`executorch_prim::et_view.default` as
//   upstream registers it; slicefuzz's `slicefuzz_prim::et_slice.default` and
//   `slicefuzz_prim::et_select.default`), a planned alias as no call at all;
// - `non_const_buffer_sizes` from the plan: [0 (reserved), arena, failing out].
// With `probes`, each op's calls are bracketed by slicefuzz's probe ops (the
// backend's poisoning schedule and its alias records; never in an exported
// program).
// This header holds slicefuzz types only: ExecuTorch's stay in the .cpp files.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vocab/case.h"
#include "vocab/plan_types.h"
#include "vocab/program_info.h"
#include "vocab/tensor_value.h"

namespace slicefuzz::et_runtime {

// The prim ops slicefuzz registers under its own names (ExecuTorch has no
// et_slice or et_select), and the probes.
inline constexpr const char* kEtSlicePrim = "slicefuzz_prim::et_slice";
inline constexpr const char* kEtSelectPrim = "slicefuzz_prim::et_select";
inline constexpr const char* kEtViewPrim = "executorch_prim::et_view";
// PteFault::PrimKeepsFirstPointer's prim ops (runtime_kernels.cpp).
inline constexpr const char* kFaultyEtSlicePrim = "slicefuzz_faulty::et_slice";
inline constexpr const char* kFaultyEtSelectPrim = "slicefuzz_faulty::et_select";
inline constexpr const char* kFaultyEtViewPrim = "slicefuzz_faulty::et_view";
// probe_enter(int step) before op `step - 1`, probe_leave(int step) after it;
// probe_alias(Tensor alias, Tensor root, int op, int value, int root) after an
// aliased op, recording where the alias points.
inline constexpr const char* kProbeEnter = "slicefuzz_probe::enter";
inline constexpr const char* kProbeLeave = "slicefuzz_probe::leave";
inline constexpr const char* kProbeAlias = "slicefuzz_probe::alias";

// The alignment of every entry of the constant segment (program.fbs,
// SubsegmentOffsets: @executorch-tensor-alignment, 16 by default in exir).
inline constexpr int64_t kConstantAlignment = 16;

// Deliberate defects of a program writer and its prim ops, one real bug class
// each, for the self-test's faulty variants (docs/selftest.md).
enum class PteFault : uint8_t {
  None,
  // A planned alias's allocation_info at its root's offset: the alias delta lost.
  AliasOffsetWithoutDelta,
  // Every tensor written in the default dim order, whatever its own.
  DropsDimOrder,
  // The alias prim ops set out's data pointer only while it is null
  // (pytorch/executorch issue 2843), registered as slicefuzz_faulty::*.
  PrimKeepsFirstPointer,
};

struct PteOptions {
  AliasMode mode = AliasMode::RuntimeOp;  // RuntimeOp or Planned
  bool probes = true;
  // Inputs in planned memory (set_input copies them into the arena), or not
  // (set_input shares the caller's buffer: a program exported without planning
  // its inputs). Planned aliases need planned roots.
  bool planned_inputs = true;
  PteFault fault = PteFault::None;
  // Refuse a program that names an operator upstream ExecuTorch does not have
  // (slicefuzz_prim::*, slicefuzz_faulty::*, the probes): for a program others
  // run with ExecuTorch alone (`slicefuzz export --pte`).
  bool upstream_ops_only = false;
};

// What the one who runs the written program needs to know of it.
struct PteLayout {
  int64_t arena_bytes = 0;        // memory id 1: the plan's arena
  int64_t failing_out_bytes = 0;  // memory id 2: the failing op's out (0: no such op)
  std::vector<int> inputs;        // the value of each program input, in order
  // Version 4: after them, per runtime integer (a symbol that sizes no input), a
  // one-element int64 input tensor: (its EValue, the symbol).
  std::vector<std::pair<int, int>> symbol_inputs;
  std::vector<int> outputs;       // the value of each program output, in order
  int ops_written = 0;            // the ops up to and including the failing op
};

// Why the program cannot be written as an ExecuTorch program ("" if it can):
// the backend's declared limits (runtime_limits.cpp) keep such cases out.
std::string pte_unwritable(const Case& c, const ProgramInfo& info);

// Writes the program. `inputs`: each case input's value (make_input_values'
// order); the program holds the constants' (version 4: weights, buffers) in its
// constant segment, and takes every other input at run time. Returns "" and
// fills `bytes` and `layout`, or why not (then both are unspecified).
std::string write_pte(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                      const MemoryPlan& plan, const PteOptions& options, const std::vector<TensorValue>& inputs,
                      std::vector<uint8_t>& bytes, PteLayout& layout);

}  // namespace slicefuzz::et_runtime
