// A program as an ExecuTorch .pte (pte_writer.h says what it holds).
#include "backends/executorch/runtime/pte_writer.h"
#include "backends/executorch/runtime/pte_builder.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "backends/executorch/adapter.h"
#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"
#include "program/op_layout_facts.h"
#include "program/tensor_conversion.h"

namespace slicefuzz::et_runtime {

using namespace pte_build;  // NOLINT: the builder is this file's other half

std::string pte_unwritable(const Case& c, const ProgramInfo& info) {
  if (c.has_eager_ops()) return "eager ops (version 2 views and add) are not ExecuTorch operators";
  for (const ValueInfo& v : info.values) {
    if (!v.known) continue;
    for (int64_t s : v.sizes)
      if (s > INT32_MAX) return "a size past int32 (program.fbs keeps sizes as int)";
  }
  return "";
}

std::string write_pte(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                      const MemoryPlan& plan, const PteOptions& options, const std::vector<TensorValue>& inputs,
                      std::vector<uint8_t>& bytes, PteLayout& layout) {
  if (std::string why = pte_unwritable(c, info); !why.empty()) return why;
  const bool planned_aliases = options.mode == AliasMode::Planned;
  if (planned_aliases && !options.planned_inputs) return "planned aliases need planned inputs (their roots)";
  const bool drop_order = options.fault == PteFault::DropsDimOrder;
  Builder b(c, info, options);
  const int ops_run = info.failing_op < 0 ? static_cast<int>(c.ops.size()) : info.failing_op + 1;
  const int nv = static_cast<int>(std::min(info.values.size(), plan.tensors.size()));
  layout = PteLayout{};
  layout.arena_bytes = plan.arena_bytes;
  layout.ops_written = ops_run;

  // One Tensor per value, in value order (EValue index = value index), at its
  // (bound) sizes; DYNAMIC_BOUND where its sizes vary over the symbols' ranges.
  const int failing_result = info.failing_op >= 0 ? info.ops[info.failing_op].result : -1;
  std::map<int, uint64_t> constant_at;  // each constant's offset in the constant segment
  for (int k = 0; k < static_cast<int>(info.values.size()); ++k) {
    const ValueInfo& val = info.values[k];
    if (k == failing_result && failing_result >= 0) {
      const Op& op = c.ops[info.failing_op];
      const Tensor src = value_meta(info.values[info.ops[info.failing_op].src]);
      Tensor out = failing_out_meta(op, src);
      // A made-up layout past int32 (program.fbs keeps sizes as int): the source's,
      // which fits (pte_unwritable checked every known value).
      for (int d = 0; d < out.rank; ++d)
        if (out.sizes[d] > INT32_MAX) out = src;
      layout.failing_out_bytes = std::max<int64_t>(static_cast<int64_t>(out.nbytes()), 1);
      b.add(fb::KernelTypes::Tensor,
            tensor_of(b.fbb(), out, kFailingOutMemoryId, 0, drop_order, c.is_dynamic()).Union());
      continue;
    }
    if (!val.known || k >= nv) {
      b.add_none();  // defined after the failing op: never runs, never read
      continue;
    }
    const bool alias = rewrite.is_alias(k);
    const bool input = k < info.num_inputs;
    // A constant, and a planned alias of one: an entry of the constant segment
    // (the program's bytes, never the arena's).
    if (plan.tensors[k].constant && (!alias || planned_aliases)) {
      uint64_t at;
      if (!alias) {
        if (k >= static_cast<int>(inputs.size())) return "constant '" + val.name + "' has no value to write";
        Tensor t = value_meta(val);
        std::vector<uint8_t> data(t.nbytes());
        t.data = data.data();
        t.capacity_nbytes = data.size();
        write_tensor_value(inputs[k], t);
        at = constant_at[k] = b.add_constant_bytes(data);
      } else {
        const int64_t delta = options.fault == PteFault::AliasOffsetWithoutDelta ? 0 : plan.tensors[k].offset;
        if (delta % kConstantAlignment != 0)
          return "planned alias '" + val.name + "' lies " + std::to_string(delta) + " bytes into its constant: " +
                 "constant segment offsets must be aligned to " + std::to_string(kConstantAlignment) +
                 " bytes (program.fbs, SubsegmentOffsets)";
        at = constant_at[rewrite.root[k]] + static_cast<uint64_t>(delta);
      }
      b.add(fb::KernelTypes::Tensor,
            tensor_of(b.fbb(), value_meta(val), std::nullopt, 0, drop_order, false, b.add_constant_entry(at)).Union());
      continue;
    }
    std::optional<uint32_t> memory;
    if ((!alias || planned_aliases) && (!input || options.planned_inputs)) memory = kArenaMemoryId;
    int64_t offset = plan.tensors[k].offset;
    if (alias && options.fault == PteFault::AliasOffsetWithoutDelta) offset = plan.tensors[rewrite.root[k]].offset;
    b.add(fb::KernelTypes::Tensor,
          tensor_of(b.fbb(), value_meta(val), memory, offset, drop_order, val.dynamic_shape).Union());
  }
  for (int k = 0; k < info.num_inputs; ++k)
    if (!info.values[k].constant) layout.inputs.push_back(k);
  if (info.failing_op < 0) layout.outputs = info.outputs;
  b.define_symbols(layout);

  auto probe = [&](const char* name, std::vector<int> args) {
    if (options.probes) b.emit(Call{name, "default", std::move(args)});
  };
  for (int k = 0; k < ops_run; ++k) {
    const Op& op = c.ops[k];
    const OpInfo& oi = info.ops[k];
    probe(kProbeEnter, {b.add_int(k + 1)});
    const bool aliased = oi.result >= 0 && oi.result < nv && rewrite.is_alias(oi.result) && op_is_view_copy(op.kind);
    if (!aliased) {
      Call call = b.kernel_call(op, oi);
      if (call.name.empty()) return std::string("no ExecuTorch operator for ") + op_kind_name(op.kind);
      b.emit(call);
    } else {
      // A planned alias runs nothing: it is where its allocation_info puts it.
      if (!planned_aliases) b.emit(b.alias_call(op, oi, options.fault == PteFault::PrimKeepsFirstPointer));
      const int root = rewrite.root[oi.result];
      probe(kProbeAlias, {oi.result, root, b.add_int(k), b.add_int(oi.result), b.add_int(root)});
    }
    probe(kProbeLeave, {b.add_int(k + 1)});
  }
  return b.finish(layout, bytes);
}

}  // namespace slicefuzz::et_runtime
