// The .pte under construction (used by pte_writer.cpp only; a header so that the
// writer's two halves each stay readable): the EValue table, the operators, one
// chain, the constant segment, and which ExecuTorch operator each op is
// (Builder::kernel_call, Builder::alias_call).
#pragma once
#include <executorch/schema/program_generated.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/executorch/adapter.h"
#include "backends/executorch/portable_kernels.h"
#include "backends/executorch/runtime/pte_writer.h"
#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"
#include "program/op_layout_facts.h"
#include "program/tensor_conversion.h"

namespace slicefuzz::et_runtime::pte_build {

namespace fb = executorch_flatbuffer;
using fbb_t = flatbuffers::FlatBufferBuilder;

// Memory ids of allocation_info (ExecuTorch's id 0 is reserved).
constexpr uint32_t kArenaMemoryId = 1;
constexpr uint32_t kFailingOutMemoryId = 2;

// One kernel call: the operator (name, overload) and its arguments' EValues.
struct Call {
  std::string name, overload;
  std::vector<int> args;
};

// An integer argument: a literal, or (version 4) the EValue a symbol's value or
// an expression of it lands in at run time.
struct IntArg {
  int64_t literal = 0;
  int evalue = -1;
};

// A value's Tensor: sizes (int32) and dim order of `meta`, placed at `memory_id`
// (nullopt: no allocation_info) and `offset`.
inline flatbuffers::Offset<fb::Tensor> tensor_of(fbb_t& b, const Tensor& meta, std::optional<uint32_t> memory_id,
                                          int64_t offset, bool drop_dim_order, bool dynamic,
                                          uint32_t data_buffer_idx = 0) {
  std::vector<int32_t> sizes(meta.sizes, meta.sizes + meta.rank);
  std::vector<uint8_t> order(meta.dim_order, meta.dim_order + meta.rank);
  if (drop_dim_order)
    for (int d = 0; d < meta.rank; ++d) order[d] = static_cast<uint8_t>(d);
  flatbuffers::Offset<fb::AllocationDetails> at = 0;
  if (memory_id) {
    const uint64_t o = static_cast<uint64_t>(offset);
    at = fb::CreateAllocationDetails(b, *memory_id, static_cast<uint32_t>(o), static_cast<uint32_t>(o >> 32));
  }
  return fb::CreateTensorDirect(b, static_cast<fb::ScalarType>(et_adapter::to_et(meta.dtype)), 0, &sizes, &order,
                                false, data_buffer_idx, at, 0,
                                dynamic ? fb::TensorShapeDynamism::DYNAMIC_BOUND : fb::TensorShapeDynamism::STATIC);
}

// The program under construction: the EValue table (a Tensor per value first, so
// EValue index = value index, then arguments), the operators and one chain.
class Builder {
 public:
  Builder(const Case& c, const ProgramInfo& info, const PteOptions& o) : c_(c), info_(info), o_(o) {}

  fbb_t& fbb() { return b_; }
  int add(fb::KernelTypes type, flatbuffers::Offset<void> val) {
    values_.push_back(fb::CreateEValue(b_, type, val));
    return static_cast<int>(values_.size()) - 1;
  }
  int add_int(int64_t x) { return add(fb::KernelTypes::Int, fb::CreateInt(b_, x).Union()); }
  // A constant's bytes appended to the constant segment, aligned: its offset.
  uint64_t add_constant_bytes(const std::vector<uint8_t>& bytes) {
    constant_data_.resize((constant_data_.size() + kConstantAlignment - 1) / kConstantAlignment * kConstantAlignment);
    const uint64_t at = constant_data_.size();
    constant_data_.insert(constant_data_.end(), bytes.begin(), bytes.end());
    return at;
  }
  // An entry of the constant segment's offsets: a tensor's data_buffer_idx.
  uint32_t add_constant_entry(uint64_t offset) {
    constant_offsets_.push_back(offset);
    return static_cast<uint32_t>(constant_offsets_.size() - 1);
  }
  int add_bool(bool x) { return add(fb::KernelTypes::Bool, fb::CreateBool(b_, x).Union()); }
  int add_none() { return add(fb::KernelTypes::Null, fb::CreateNull(b_).Union()); }
  int arg(const IntArg& a) { return a.evalue >= 0 ? a.evalue : add_int(a.literal); }
  // An int list is a list of Int EValues' indices (ExecuTorch's BoxedEvalueList).
  int add_list(const std::vector<IntArg>& items) {
    std::vector<int64_t> indices;
    for (const IntArg& a : items) indices.push_back(arg(a));
    return add(fb::KernelTypes::IntList, fb::CreateIntListDirect(b_, &indices).Union());
  }
  int add_literals(const std::vector<int64_t>& items) {
    std::vector<IntArg> a;
    for (int64_t x : items) a.push_back(IntArg{x});
    return add_list(a);
  }
  void emit(const Call& call) {
    const auto key = std::make_pair(call.name, call.overload);
    auto [it, added] = operator_index_.emplace(key, static_cast<int>(operators_.size()));
    if (added) operators_.push_back(key);
    std::vector<int32_t> args(call.args.begin(), call.args.end());
    instructions_.push_back(fb::CreateInstruction(b_, fb::InstructionArguments::KernelCall,
                                                  fb::CreateKernelCallDirect(b_, it->second, &args).Union()));
  }
  // An Int EValue computed by an ExecuTorch prim op with these inputs.
  int computed(const char* name, const char* overload, std::vector<int> args) {
    const int out = add_int(0);
    args.push_back(out);
    emit(Call{name, overload, std::move(args)});
    return out;
  }
  // a + b, folded when both are literals (executorch_prim::add.Scalar).
  IntArg sum(IntArg a, IntArg b) {
    if (a.evalue < 0 && b.evalue < 0) return IntArg{a.literal + b.literal};
    if (b.evalue < 0 && b.literal == 0) return a;
    return IntArg{0, computed("executorch_prim::add", "Scalar", {arg(a), arg(b)})};
  }
  IntArg size_of(int value, int64_t dim) { return IntArg{0, computed("aten::sym_size", "int", {value, add_int(dim)})}; }

  // Version 4: each symbol's value at run time, computed at the chain's start by
  // ExecuTorch's prim ops: aten::sym_size.int of the first input it sizes, else
  // aten::_local_scalar_dense of a one-element int64 input tensor (a runtime
  // integer, as torch.export lowers `input_pos.item()`: ExecuTorch's set_input
  // refuses an Int input other than the traced one, method.cpp "Prims have to be
  // the same as what was traced"). NAME+K and NAME-K: add.Scalar, sub.Scalar.
  void define_symbols(PteLayout& layout) {
    for (size_t s = 0; s < c_.syms.size(); ++s) {
      int at = -1;
      for (size_t k = 0; k < c_.inputs.size() && at < 0; ++k)
        for (size_t d = 0; d < c_.inputs[k].sym_sizes.size() && at < 0; ++d)
          if (c_.inputs[k].sym_sizes[d] == static_cast<int>(s) && !c_.inputs[k].constant)
            at = size_of(static_cast<int>(k), static_cast<int64_t>(d)).evalue;
      if (at < 0) {
        Tensor scalar;
        const int64_t one = 1;
        const uint8_t order = 0;
        make_tensor_meta(ScalarType::Long, 1, &one, &order, scalar);
        const int tensor = add(fb::KernelTypes::Tensor, tensor_of(b_, scalar, std::nullopt, 0, false, false).Union());
        layout.symbol_inputs.push_back({tensor, static_cast<int>(s)});
        at = computed("aten::_local_scalar_dense", "", {tensor});
      }
      symbol_.push_back(at);
    }
  }
  IntArg expr(const SymExpr& e) {
    const auto key = std::make_pair(e.sym, e.add);
    if (auto it = expr_.find(key); it != expr_.end()) return IntArg{0, it->second};
    const int s = symbol_.at(static_cast<size_t>(e.sym));
    const int out = e.add == 0   ? s
                    : e.add > 0 ? computed("executorch_prim::add", "Scalar", {s, add_int(e.add)})
                                : computed("executorch_prim::sub", "Scalar", {s, add_int(-e.add)});
    expr_[key] = out;
    return IntArg{0, out};
  }
  IntArg int_at(const Op& op, ArgSlot slot, int entry, int64_t literal) {
    const SymExpr* e = op.sym_at(slot, entry);
    return e ? expr(*e) : IntArg{literal};
  }

  // An op's ExecuTorch call (kernels/portable/functions.yaml's names and argument
  // order; every out last). Arguments after the first operand follow the op's
  // schema (vocab/op_schema.h); what ExecuTorch's schema adds is spelled out.
  Call kernel_call(const Op& op, const OpInfo& oi) {
    Call call;
    call.args.push_back(op_kind_info(op.kind).effect == OpEffect::Mutates ? oi.target : oi.src);
    auto schema_args = [&] {
      for (const ArgSpec& a : op_kind_info(op.kind).args) {
        switch (a.kind) {
          case ArgKind::Tensor: call.args.push_back(oi.src); break;
          case ArgKind::NamedTensor: call.args.push_back(oi.other); break;
          case ArgKind::Scalar:
          case ArgKind::Int: call.args.push_back(arg(int_at(op, a.slot, -1, op_int(op, a.slot)))); break;
          case ArgKind::OptInt: {
            const std::optional<int64_t>& x = op_opt_int(op, a.slot);
            call.args.push_back(op.sym_at(a.slot) || x ? arg(int_at(op, a.slot, -1, x.value_or(0))) : add_none());
            break;
          }
          case ArgKind::IntList: {
            std::vector<IntArg> items;
            for (size_t i = 0; i < op.ints.size(); ++i)
              items.push_back(int_at(op, ArgSlot::Ints, static_cast<int>(i), op.ints[i]));
            call.args.push_back(add_list(items));
            break;
          }
          case ArgKind::DimList:
            call.args.push_back(op.single_dim && op.ints.size() == 1 ? add_int(op.ints[0]) : add_literals(op.ints));
            break;
          case ArgKind::DimOrder:
            call.args.push_back(op.dim_order ? add_literals(std::vector<int64_t>(op.dim_order->begin(),
                                                                                 op.dim_order->end()))
                                             : add_none());
            break;
        }
      }
    };
    // The operator as the op table names it ("aten::x.overload"); a quirk below
    // picks another overload of the same family where the arguments ask for it.
    const std::string_view et_op = op_kind_info(op.kind).et_op;
    const size_t dot = et_op.find('.');
    call.name = std::string(et_op.substr(0, dot));
    call.overload = dot == std::string_view::npos ? std::string() : std::string(et_op.substr(dot + 1));
    // The ops written by hand (portable_kernels.h's SLICEFUZZ_ET_HAND_WRITTEN_OPS):
    // each has an argument its case does not hold.
    if (op.kind == OpKind::Clone) {
      if (op.dim_order) {
        // dim_order_ops::_clone_dim_order.out(Tensor self, *, bool non_blocking=False,
        //                                     int[]? dim_order=None, Tensor(a!) out)
        call.name = "dim_order_ops::_clone_dim_order", call.overload = "out";
        call.args.push_back(add_bool(false));
        schema_args();
      } else {
        // aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out)
        call.args.push_back(add_none());
      }
      call.args.push_back(oi.result);
      return call;
    }
    if (op.kind == OpKind::Add) {
      // add_(self, k) as ExecuTorch's graph has it: add.Scalar_out(self, k, alpha=1, out=self).
      schema_args();
      call.args.push_back(add_int(1));
      call.args.push_back(oi.target);
      return call;
    }
    if (op.kind == OpKind::Copy) {
      // aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!):
      // the return is the last argument, self again.
      schema_args();
      call.args.push_back(add_bool(false));
      call.args.push_back(oi.target);
      return call;
    }
    // An op with no ExecuTorch operator is an eager op, which pte_unwritable
    // refuses; an op with one is bound to a portable kernel, or this does not
    // compile (et_ops::every_et_op_bound).
    if (op_kind_info(op.kind).et_op[0] == '\0') return Call{};
    // squeeze_copy's quirk: a one-entry `dim=` is squeeze_copy.dim_out(self, int dim).
    if (op.kind == OpKind::SqueezeCopy && op.single_dim && op.ints.size() == 1) call.overload = "dim_out";
    schema_args();
    // ExecuTorch's arguments past the table's take their defaults (expand_copy's implicit=False).
    for (size_t i = 0; i < et_ops::et_trailing_defaults(op.kind); ++i) call.args.push_back(add_bool(false));
    call.args.push_back(oi.result);
    return call;
  }

  // The alias prim op an aliased view-copy op runs (runtime-op mode): the stacks
  // of program/kernel_table.h's call_alias_prim, as an ExecuTorch program holds
  // them; at run time (version 4) the arguments and sizes are SymInts.
  Call alias_call(const Op& op, const OpInfo& oi, bool faulty_prims) {
    Call call;
    const std::string prim = op_alias_prim(op.kind);
    const ValueInfo& src = info_.values[oi.src];
    const ValueInfo& result = info_.values[oi.result];
    const int64_t rank = static_cast<int64_t>(src.sizes.size());
    call.args.push_back(oi.src);
    if (prim == "et_slice") {
      call.name = faulty_prims ? kFaultyEtSlicePrim : kEtSlicePrim, call.overload = "default";
      const std::optional<int> narrow_dim =
          op.kind == OpKind::NarrowCopy ? normalize_dim(op.dim, static_cast<int>(rank)) : std::nullopt;
      if (narrow_dim) {
        // [start, start + length) as et_slice's start and end (et_slice clamps the
        // end to the size), a negative start first counted from the end.
        const int64_t d = *narrow_dim;
        IntArg first = int_at(op, ArgSlot::Index, -1, op.index);
        if (first.evalue < 0 && first.literal < 0)
          first = src.dynamic_shape ? sum(size_of(oi.src, d), first) : IntArg{narrow_first(src.sizes[d], op.index)};
        call.args.push_back(add_int(op.dim));
        call.args.push_back(arg(first));
        call.args.push_back(arg(sum(first, int_at(op, ArgSlot::Length, -1, op.length))));
        call.args.push_back(add_int(1));
      } else {
        call.args.push_back(add_int(op.dim));
        call.args.push_back(op.sym_at(ArgSlot::Start) || op.start ? arg(int_at(op, ArgSlot::Start, -1, op.start.value_or(0)))
                                                                 : add_none());
        call.args.push_back(op.sym_at(ArgSlot::End) || op.end ? arg(int_at(op, ArgSlot::End, -1, op.end.value_or(0)))
                                                             : add_none());
        call.args.push_back(add_int(op.step));
      }
    } else if (prim == "et_select") {
      call.name = faulty_prims ? kFaultyEtSelectPrim : kEtSelectPrim, call.overload = "default";
      call.args.push_back(add_int(op.dim));
      call.args.push_back(arg(int_at(op, ArgSlot::Index, -1, op.index)));
    } else {
      // et_view(Tensor self, int[] size): the result's sizes, as memory.view
      // carries them: view_copy's own list; a squeeze's, unsqueeze's or
      // permute's from its input's sizes at run time when the result's vary (its
      // dims are the input's, less the squeezed ones, plus the new one of size 1,
      // or reordered).
      call.name = faulty_prims ? kFaultyEtViewPrim : kEtViewPrim, call.overload = "default";
      std::vector<IntArg> sizes;
      if (op.kind == OpKind::ViewCopy) {
        for (size_t i = 0; i < op.ints.size(); ++i)
          sizes.push_back(int_at(op, ArgSlot::Ints, static_cast<int>(i), op.ints[i]));
      } else if (result.dynamic_shape && op.kind == OpKind::ExpandCopy) {
        // expand's -1 keeps the input's dim: its size at run time.
        const int64_t n = static_cast<int64_t>(op.ints.size());
        for (int64_t j = 0; j < n; ++j) {
          const int64_t d = j - (n - rank);
          sizes.push_back(d >= 0 && op.ints[j] == -1 && !op.sym_at(ArgSlot::Ints, static_cast<int>(j))
                              ? size_of(oi.src, d)
                              : int_at(op, ArgSlot::Ints, static_cast<int>(j), op.ints[j]));
        }
      } else if (result.dynamic_shape && (op.kind == OpKind::SqueezeCopy || op.kind == OpKind::UnsqueezeCopy)) {
        std::vector<bool> dropped(static_cast<size_t>(rank), false);
        if (op.kind == OpKind::SqueezeCopy)
          for (int64_t dim : op.ints)
            if (const std::optional<int> d = normalize_dim(dim, static_cast<int>(rank)); d && src.sizes[*d] == 1)
              dropped[*d] = true;
        const int64_t inserted = op.kind == OpKind::UnsqueezeCopy
                                     ? normalize_dim(op.dim, static_cast<int>(rank) + 1).value_or(-1)
                                     : -1;
        for (int64_t d = 0; d <= rank; ++d) {
          if (d == inserted) sizes.push_back(IntArg{1});
          if (d < rank && !dropped[d]) sizes.push_back(size_of(oi.src, d));
        }
      } else if (result.dynamic_shape && op.kind == OpKind::PermuteCopy) {
        // permute's result dim j is its input's dim dims[j]: that one's size at run time.
        for (int64_t dim : op.ints) sizes.push_back(size_of(oi.src, normalize_dim(dim, static_cast<int>(rank)).value_or(0)));
      } else {
        for (int64_t s : result.sizes) sizes.push_back(IntArg{s});
      }
      call.args.push_back(add_list(sizes));
    }
    call.args.push_back(oi.result);
    return call;
  }

  // Finishes the program. "" or why not.
  std::string finish(const PteLayout& layout, std::vector<uint8_t>& bytes) {
    std::vector<flatbuffers::Offset<fb::Operator>> ops;
    for (const auto& [name, overload] : operators_)
      if (o_.upstream_ops_only && name.rfind("slicefuzz", 0) == 0)
        return "the program names " + name + "." + overload +
               ", which upstream ExecuTorch does not have (planned aliases name no operator)";
    for (const auto& [name, overload] : operators_)
      ops.push_back(fb::CreateOperatorDirect(b_, name.c_str(), overload.c_str()));
    std::vector<int32_t> inputs(layout.inputs.begin(), layout.inputs.end());
    for (const auto& [tensor, sym] : layout.symbol_inputs) inputs.push_back(tensor);
    std::vector<int32_t> outputs(layout.outputs.begin(), layout.outputs.end());
    std::vector<flatbuffers::Offset<fb::Chain>> chains{
        fb::CreateChainDirect(b_, &inputs, &outputs, &instructions_, nullptr)};
    std::vector<int64_t> buffer_sizes{0, layout.arena_bytes};
    if (layout.failing_out_bytes > 0) buffer_sizes.push_back(layout.failing_out_bytes);
    std::vector<flatbuffers::Offset<fb::BackendDelegate>> no_delegates;
    std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans{fb::CreateExecutionPlanDirect(
        b_, "forward", 0, &values_, &inputs, &outputs, &chains, &ops, &no_delegates, &buffer_sizes, nullptr)};
    // The constant segment's offsets: first the placeholder 0 that non-constant
    // tensors' data_buffer_idx names, then one per constant tensor. Without
    // constants the segment is empty and absent (the inline constant_buffer is
    // deprecated since ExecuTorch 0.7, runtime/executor/program.cpp).
    std::vector<flatbuffers::Offset<fb::DataSegment>> segments;
    const bool constants = constant_offsets_.size() > 1;
    // Constants of no bytes still need the segment their entries index (padded,
    // as exir pads every tensor to the alignment).
    if (constants && constant_data_.empty()) constant_data_.resize(kConstantAlignment);
    if (constants) segments.push_back(fb::CreateDataSegment(b_, 0, constant_data_.size()));
    b_.Finish(fb::CreateProgramDirect(b_, 0, &plans, nullptr, nullptr, &segments,
                                      fb::CreateSubsegmentOffsetsDirect(b_, 0, &constant_offsets_)),
              fb::ProgramIdentifier());
    if (!constants) {
      bytes.assign(b_.GetBufferPointer(), b_.GetBufferPointer() + b_.GetSize());
      return "";
    }
    with_segment(bytes);
    return "";
  }

 private:
  // The file with a segment, as exir's serializer lays it out
  // (schema/extended_header.h): the flatbuffer with ExecuTorch's extended header
  // put after its file identifier (the root offset moved past it; every other
  // offset in a flatbuffer is relative), then the constant segment at an aligned
  // segment base offset.
  void with_segment(std::vector<uint8_t>& bytes) const {
    const uint8_t* fbuf = b_.GetBufferPointer();
    const size_t size = b_.GetSize();
    constexpr uint32_t kHeaderLength = 32;  // magic, length, program, segment base, segment size
    const uint64_t program_size = size + kHeaderLength;
    const uint64_t segment_base = (program_size + kConstantAlignment - 1) / kConstantAlignment * kConstantAlignment;
    const uint64_t segment_size = constant_data_.size();
    bytes.assign(fbuf, fbuf + 8);
    uint32_t root;
    std::memcpy(&root, fbuf, 4);
    root += kHeaderLength;
    std::memcpy(bytes.data(), &root, 4);
    auto put = [&](const void* p, size_t n) {
      bytes.insert(bytes.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
    };
    put("eh00", 4);
    put(&kHeaderLength, 4);
    put(&program_size, 8);
    put(&segment_base, 8);
    put(&segment_size, 8);
    bytes.insert(bytes.end(), fbuf + 8, fbuf + size);
    bytes.resize(segment_base, 0);
    bytes.insert(bytes.end(), constant_data_.begin(), constant_data_.end());
  }

  const Case& c_;
  const ProgramInfo& info_;
  const PteOptions& o_;
  fbb_t b_;
  std::vector<flatbuffers::Offset<fb::EValue>> values_;
  std::map<std::pair<std::string, std::string>, int> operator_index_;
  std::vector<std::pair<std::string, std::string>> operators_;
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions_;
  std::vector<int> symbol_;
  std::map<std::pair<int, int64_t>, int> expr_;
  std::vector<uint64_t> constant_offsets_{0};
  std::vector<uint8_t> constant_data_;
};

}  // namespace slicefuzz::et_runtime::pte_build
