// A program as an ExecuTorch .pte (pte_writer.h says what it holds).
#include "backends/executorch/runtime/pte_writer.h"

#include <executorch/schema/program_generated.h>

#include <algorithm>
#include <map>
#include <optional>

#include "backends/executorch/adapter.h"
#include "kernels/kernels.h"
#include "program/op_layout_facts.h"

namespace slicefuzz::et_runtime {

namespace {

namespace fb = executorch_flatbuffer;
using fbb_t = flatbuffers::FlatBufferBuilder;

// Memory ids of allocation_info (ExecuTorch's id 0 is reserved).
constexpr uint32_t kArenaMemoryId = 1;
constexpr uint32_t kFailingOutMemoryId = 2;

// The program's EValue table, built in order: a Tensor per value first (EValue
// index = value index), then the arguments' scalars and lists.
class ValueTable {
 public:
  explicit ValueTable(fbb_t& b) : b_(b) {}
  int add(fb::KernelTypes type, flatbuffers::Offset<void> val) {
    values_.push_back(fb::CreateEValue(b_, type, val));
    return static_cast<int>(values_.size()) - 1;
  }
  int add_int(int64_t v) { return add(fb::KernelTypes::Int, fb::CreateInt(b_, v).Union()); }
  int add_bool(bool v) { return add(fb::KernelTypes::Bool, fb::CreateBool(b_, v).Union()); }
  int add_none() { return add(fb::KernelTypes::Null, fb::CreateNull(b_).Union()); }
  // An int list is a list of Int EValues' indices (ExecuTorch's BoxedEvalueList).
  int add_int_list(const std::vector<int64_t>& items) {
    std::vector<int64_t> indices;
    for (int64_t v : items) indices.push_back(add_int(v));
    return add(fb::KernelTypes::IntList, fb::CreateIntListDirect(b_, &indices).Union());
  }
  const std::vector<flatbuffers::Offset<fb::EValue>>& all() const { return values_; }

 private:
  fbb_t& b_;
  std::vector<flatbuffers::Offset<fb::EValue>> values_;
};

// One kernel call: the operator (name, overload) and its arguments' EValues.
struct Call {
  std::string name, overload;
  std::vector<int> args;
};

// An op's ExecuTorch call (kernels/portable/functions.yaml's names and argument
// order; every out last). Arguments after the first operand follow the op's
// schema (vocab/op_schema.h); what ExecuTorch's schema adds is spelled out.
Call kernel_call(const Op& op, const OpInfo& oi, ValueTable& v) {
  Call call;
  const int self = op_kind_info(op.kind).effect == OpEffect::Mutates ? oi.target : oi.src;
  call.args.push_back(self);
  auto schema_args = [&] {
    for (const ArgSpec& a : op_kind_info(op.kind).args) {
      switch (a.kind) {
        case ArgKind::Tensor: call.args.push_back(oi.src); break;
        case ArgKind::Scalar:
        case ArgKind::Int: call.args.push_back(v.add_int(op_int(op, a.slot))); break;
        case ArgKind::OptInt: {
          const std::optional<int64_t>& x = op_opt_int(op, a.slot);
          call.args.push_back(x ? v.add_int(*x) : v.add_none());
          break;
        }
        case ArgKind::IntList: call.args.push_back(v.add_int_list(op.ints)); break;
        case ArgKind::DimList:
          if (op.single_dim && op.ints.size() == 1)
            call.args.push_back(v.add_int(op.ints[0]));
          else
            call.args.push_back(v.add_int_list(op.ints));
          break;
        case ArgKind::DimOrder:
          if (op.dim_order)
            call.args.push_back(v.add_int_list(std::vector<int64_t>(op.dim_order->begin(), op.dim_order->end())));
          else
            call.args.push_back(v.add_none());
          break;
      }
    }
  };
  switch (op.kind) {
    case OpKind::SliceCopy: call.name = "aten::slice_copy", call.overload = "Tensor_out"; schema_args(); break;
    case OpKind::SelectCopy: call.name = "aten::select_copy", call.overload = "int_out"; schema_args(); break;
    case OpKind::SqueezeCopy:
      call.name = "aten::squeeze_copy", call.overload = op.single_dim && op.ints.size() == 1 ? "dim_out" : "dims_out";
      schema_args();
      break;
    case OpKind::UnsqueezeCopy: call.name = "aten::unsqueeze_copy", call.overload = "out"; schema_args(); break;
    case OpKind::ViewCopy: call.name = "aten::view_copy", call.overload = "out"; schema_args(); break;
    case OpKind::NarrowCopy: call.name = "aten::narrow_copy", call.overload = "out"; schema_args(); break;
    case OpKind::ExpandCopy:
      call.name = "aten::expand_copy", call.overload = "out";
      schema_args();
      call.args.push_back(v.add_bool(false));  // implicit=False
      break;
    case OpKind::Clone:
      if (op.dim_order) {
        // dim_order_ops::_clone_dim_order.out(Tensor self, *, bool non_blocking=False,
        //                                     int[]? dim_order=None, Tensor(a!) out)
        call.name = "dim_order_ops::_clone_dim_order", call.overload = "out";
        call.args.push_back(v.add_bool(false));
        schema_args();
      } else {
        // aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out)
        call.name = "aten::clone", call.overload = "out";
        call.args.push_back(v.add_none());
      }
      break;
    case OpKind::Add:
      // add_(self, k) as ExecuTorch's graph has it: add.Scalar_out(self, k, alpha=1, out=self).
      call.name = "aten::add", call.overload = "Scalar_out";
      schema_args();
      call.args.push_back(v.add_int(1));
      call.args.push_back(oi.target);
      return call;
    case OpKind::Copy:
      // aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!):
      // the return is the last argument, self again.
      call.name = "aten::copy_", call.overload = "";
      schema_args();
      call.args.push_back(v.add_bool(false));
      call.args.push_back(oi.target);
      return call;
    default: return Call{};  // eager ops: pte_unwritable refuses them
  }
  call.args.push_back(oi.result);
  return call;
}

// The alias prim op an aliased view-copy op runs (runtime-op mode): the stacks
// of program/kernel_table.h's call_alias_prim, as an ExecuTorch program holds them.
Call alias_call(const Op& op, const OpInfo& oi, const ProgramInfo& info, ValueTable& v, bool faulty_prims) {
  Call call;
  const std::string prim = op_alias_prim(op.kind);
  const std::vector<int64_t>& src_sizes = info.values[oi.src].sizes;
  const int64_t rank = static_cast<int64_t>(src_sizes.size());
  call.args.push_back(oi.src);
  if (prim == "et_slice") {
    call.name = faulty_prims ? kFaultyEtSlicePrim : kEtSlicePrim, call.overload = "default";
    if (op.kind == OpKind::NarrowCopy && rank > 0 && op.dim >= -rank && op.dim < rank) {
      // [start, start + length) as et_slice's start and end, a negative start
      // first counted from the end (as call_alias_prim does).
      const int64_t size = src_sizes[op.dim < 0 ? op.dim + rank : op.dim];
      const int64_t first = narrow_first(size, op.index);
      call.args.push_back(v.add_int(op.dim));
      call.args.push_back(v.add_int(first));
      call.args.push_back(v.add_int(first + std::min(op.length, size - first)));
      call.args.push_back(v.add_int(1));
    } else {
      call.args.push_back(v.add_int(op.dim));
      call.args.push_back(op.start ? v.add_int(*op.start) : v.add_none());
      call.args.push_back(op.end ? v.add_int(*op.end) : v.add_none());
      call.args.push_back(v.add_int(op.step));
    }
  } else if (prim == "et_select") {
    call.name = faulty_prims ? kFaultyEtSelectPrim : kEtSelectPrim, call.overload = "default";
    call.args.push_back(v.add_int(op.dim));
    call.args.push_back(v.add_int(op.index));
  } else {
    // et_view(Tensor self, int[] size): the result's sizes, as memory.view carries them.
    call.name = faulty_prims ? kFaultyEtViewPrim : kEtViewPrim, call.overload = "default";
    call.args.push_back(v.add_int_list(info.values[oi.result].sizes));
  }
  call.args.push_back(oi.result);
  return call;
}

// A value's Tensor: sizes (int32) and dim order of `meta`, placed per `where`.
flatbuffers::Offset<fb::Tensor> tensor_of(fbb_t& b, const Tensor& meta, std::optional<uint32_t> memory_id,
                                          int64_t offset, bool drop_dim_order) {
  std::vector<int32_t> sizes(meta.sizes, meta.sizes + meta.rank);
  std::vector<uint8_t> order(meta.dim_order, meta.dim_order + meta.rank);
  if (drop_dim_order)
    for (int d = 0; d < meta.rank; ++d) order[d] = static_cast<uint8_t>(d);
  flatbuffers::Offset<fb::AllocationDetails> at = 0;
  if (memory_id) {
    const uint64_t o = static_cast<uint64_t>(offset);
    at = fb::CreateAllocationDetails(b, *memory_id, static_cast<uint32_t>(o), static_cast<uint32_t>(o >> 32));
  }
  return fb::CreateTensorDirect(b, static_cast<fb::ScalarType>(et_adapter::to_et(meta.dtype)), 0, &sizes,
                                &order, false, 0, at, 0, fb::TensorShapeDynamism::STATIC);
}

}  // namespace

std::string pte_unwritable(const Case& c, const ProgramInfo& info) {
  if (c.is_dynamic()) return "a program with symbols (version 4) is not written as a .pte yet";
  if (c.has_eager_ops()) return "eager ops (version 2 views and add) are not ExecuTorch operators";
  for (const ValueInfo& v : info.values) {
    if (v.constant) return "constants are not written as a .pte yet";
    if (!v.known) continue;
    for (int64_t s : v.sizes)
      if (s > INT32_MAX) return "a size past int32 (program.fbs keeps sizes as int)";
  }
  return "";
}

std::string write_pte(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                      const MemoryPlan& plan, const PteOptions& options, std::vector<uint8_t>& bytes,
                      PteLayout& layout) {
  if (std::string why = pte_unwritable(c, info); !why.empty()) return why;
  const bool planned_aliases = options.mode == AliasMode::Planned;
  if (planned_aliases && !options.planned_inputs) return "planned aliases need planned inputs (their roots)";
  const bool drop_order = options.fault == PteFault::DropsDimOrder;
  fbb_t b;
  ValueTable v(b);
  const int ops_run = info.failing_op < 0 ? static_cast<int>(c.ops.size()) : info.failing_op + 1;
  const int nv = static_cast<int>(std::min(info.values.size(), plan.tensors.size()));
  layout = PteLayout{};
  layout.arena_bytes = plan.arena_bytes;
  layout.ops_written = ops_run;

  // One Tensor per value, in value order (EValue index = value index).
  const int failing_result = info.failing_op >= 0 ? info.ops[info.failing_op].result : -1;
  for (int k = 0; k < static_cast<int>(info.values.size()); ++k) {
    const ValueInfo& val = info.values[k];
    if (k == failing_result && failing_result >= 0) {
      const Op& op = c.ops[info.failing_op];
      const Tensor out = failing_out_meta(op, value_meta(info.values[info.ops[info.failing_op].src]));
      layout.failing_out_bytes = std::max<int64_t>(static_cast<int64_t>(out.nbytes()), 1);
      v.add(fb::KernelTypes::Tensor, tensor_of(b, out, kFailingOutMemoryId, 0, drop_order).Union());
      continue;
    }
    if (!val.known || k >= nv) {
      // Defined after the failing op: never runs, never read.
      v.add_none();
      continue;
    }
    const Tensor meta = value_meta(val);
    const bool alias = rewrite.is_alias(k);
    const bool input = k < info.num_inputs;
    std::optional<uint32_t> memory;
    if ((!alias || planned_aliases) && (!input || options.planned_inputs)) memory = kArenaMemoryId;
    int64_t offset = plan.tensors[k].offset;
    if (alias && options.fault == PteFault::AliasOffsetWithoutDelta) offset = plan.tensors[rewrite.root[k]].offset;
    v.add(fb::KernelTypes::Tensor, tensor_of(b, meta, memory, offset, drop_order).Union());
  }
  for (int k = 0; k < info.num_inputs; ++k) layout.inputs.push_back(k);
  if (info.failing_op < 0) layout.outputs = info.outputs;

  std::map<std::pair<std::string, std::string>, int> operator_index;
  std::vector<std::pair<std::string, std::string>> operators;
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
  auto emit = [&](const Call& call) {
    const auto key = std::make_pair(call.name, call.overload);
    auto [it, added] = operator_index.emplace(key, static_cast<int>(operators.size()));
    if (added) operators.push_back(key);
    std::vector<int32_t> args(call.args.begin(), call.args.end());
    instructions.push_back(fb::CreateInstruction(b, fb::InstructionArguments::KernelCall,
                                                 fb::CreateKernelCallDirect(b, it->second, &args).Union()));
  };
  auto probe = [&](const char* name, std::vector<int> args) {
    if (options.probes) emit(Call{name, "default", std::move(args)});
  };
  for (int k = 0; k < ops_run; ++k) {
    const Op& op = c.ops[k];
    const OpInfo& oi = info.ops[k];
    probe(kProbeEnter, {v.add_int(k + 1)});
    const bool aliased = oi.result >= 0 && oi.result < nv && rewrite.is_alias(oi.result) && op_is_view_copy(op.kind);
    if (!aliased) {
      Call call = kernel_call(op, oi, v);
      if (call.name.empty()) return std::string("no ExecuTorch operator for ") + op_kind_name(op.kind);
      emit(call);
    } else {
      // A planned alias runs nothing: it is where its allocation_info puts it.
      if (!planned_aliases) emit(alias_call(op, oi, info, v, options.fault == PteFault::PrimKeepsFirstPointer));
      const int root = rewrite.root[oi.result];
      probe(kProbeAlias, {oi.result, root, v.add_int(k), v.add_int(oi.result), v.add_int(root)});
    }
    probe(kProbeLeave, {v.add_int(k + 1)});
  }

  std::vector<flatbuffers::Offset<fb::Operator>> ops;
  for (const auto& [name, overload] : operators)
    if (options.upstream_ops_only && name.rfind("slicefuzz", 0) == 0)
      return "the program names " + name + "." + overload +
             ", which upstream ExecuTorch does not have (planned aliases name no operator)";
  for (const auto& [name, overload] : operators)
    ops.push_back(fb::CreateOperatorDirect(b, name.c_str(), overload.c_str()));
  std::vector<int32_t> inputs(layout.inputs.begin(), layout.inputs.end());
  std::vector<int32_t> outputs(layout.outputs.begin(), layout.outputs.end());
  std::vector<flatbuffers::Offset<fb::Chain>> chains{
      fb::CreateChainDirect(b, &inputs, &outputs, &instructions, nullptr)};
  std::vector<int64_t> buffer_sizes{0, layout.arena_bytes};
  if (layout.failing_out_bytes > 0) buffer_sizes.push_back(layout.failing_out_bytes);
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> no_delegates;
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans{fb::CreateExecutionPlanDirect(
      b, "forward", 0, &v.all(), &inputs, &outputs, &chains, &ops, &no_delegates, &buffer_sizes, nullptr)};
  // No constants: an empty constant segment, its one offset the placeholder 0
  // that non-constant tensors' data_buffer_idx names (the inline constant_buffer
  // is deprecated since ExecuTorch 0.7, runtime/executor/program.cpp).
  std::vector<uint64_t> placeholder{0};
  std::vector<flatbuffers::Offset<fb::DataSegment>> no_segments;
  b.Finish(fb::CreateProgramDirect(b, 0, &plans, nullptr, nullptr, &no_segments,
                                   fb::CreateSubsegmentOffsetsDirect(b, 0, &placeholder)),
           fb::ProgramIdentifier());
  bytes.assign(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  return "";
}

}  // namespace slicefuzz::et_runtime
