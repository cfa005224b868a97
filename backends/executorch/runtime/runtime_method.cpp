// executorch-runtime's method: the program written as a real ExecuTorch program
// (pte_writer.h), loaded with ExecuTorch's Program::load from a buffer data
// loader (full verification), its method loaded with load_method over
// slicefuzz's poisoned arena as the planned buffer, inputs set with set_input,
// executed with Method::execute, outputs read with get_output. The probes
// (runtime_kernels.h) keep the arena's poisoning schedule per op and record where
// each alias points; the judge is the same as for every backend.
//
// Unlike the reference's RewriteMethod, the method's planned memory is fixed when
// it is loaded, as a deployed ExecuTorch Method's is: every execution runs over
// the same arena, poisoned again and refilled between executions.
#include "backends/executorch/runtime/runtime_method.h"

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>

#include <cstring>
#include <optional>

#include "backends/executorch/adapter.h"
#include "backends/executorch/runtime/pte_writer.h"
#include "backends/executorch/runtime/runtime_kernels.h"
#include "program/arena.h"
#include "program/op_layout_facts.h"
#include "program/poison.h"
#include "program/tensor_conversion.h"

namespace slicefuzz::et_runtime {

namespace {

namespace rt = executorch::runtime;
using executorch::extension::BufferDataLoader;

std::string error_text(rt::Error e) {
  char b[24];
  std::snprintf(b, sizeof b, "error 0x%x", static_cast<unsigned>(e));
  return b;
}

// One execution's input bytes when the program does not plan its inputs
// (set_input shares them): retired after the execution as an arena is, kept
// (poisoned) until the next execution has run, then freed.
class InputBuffer {
 public:
  explicit InputBuffer(size_t n) : n_(std::max<size_t>(n, 1)), data_(new uint8_t[n_]()) {}
  ~InputBuffer() { unpoison_region(data_.get(), n_); }
  uint8_t* data() const { return data_.get(); }
  void retire() {
    std::memset(data_.get(), 0x5A, n_);
    poison_region(data_.get(), n_);
  }

 private:
  size_t n_;
  std::unique_ptr<uint8_t[]> data_;
};

class EtRuntimeMethod final : public MethodUnderTest, private ProbeSink {
 public:
  EtRuntimeMethod(const MethodSpec& s, PteFault fault) : spec_(s), fault_(fault) {}

  RewriteExecution execute(const Case& c, const ProgramInfo& info, const std::vector<TensorValue>& inputs,
                           const std::vector<int64_t>* symbols) override {
    RewriteExecution out;
    // Version 4: the program with its symbols, at its bounds, loaded once for
    // every execution; a static case's program is the case.
    // The constants' values are written into the program (the same at every execution).
    if (!loaded_) spec_.symbolic ? load(*spec_.symbolic, spec_.planned, inputs) : load(c, info, inputs);
    if (!load_error_.empty()) {
      out.path.error_op = 0;  // no op ran
      out.path.error_message = load_error_;
      return out;
    }
    aliases_ = &out.aliases;
    current_op_ = -1;
    // The previous execution's bytes are gone (retired): regions open afresh.
    arena_->retire();
    open_step(0);
    // Planned inputs are copied into the arena by set_input; unplanned ones are
    // shared, in fresh memory at every execution (as the reference's fresh arena).
    previous_inputs_ = std::move(inputs_);
    inputs_.clear();
    // Sets program input `index` from `t`'s bytes, kept in fresh memory; "" or why not.
    auto set_input = [&](Tensor t, const TensorValue* value, const void* raw, size_t index) -> std::string {
      inputs_.push_back(std::make_unique<InputBuffer>(t.nbytes()));
      t.data = inputs_.back()->data();
      t.capacity_nbytes = t.nbytes();
      if (value) write_tensor_value(*value, t);
      if (raw) std::memcpy(t.data, raw, t.nbytes());
      et_adapter::EtTensor et(t);
      const rt::Error e = et.ok() ? method_->set_input(rt::EValue(et.get()), index) : rt::Error::NotSupported;
      return e == rt::Error::Ok ? "" : "ExecuTorch's set_input(" + std::to_string(index) + ") refused it (" +
                                           error_text(e) + "): " + et_adapter::take_log();
    };
    std::string refused;
    for (size_t k = 0; k < layout_.inputs.size() && refused.empty(); ++k) {
      const int v = layout_.inputs[k];  // a case input (constants are the program's)
      if (v >= static_cast<int>(inputs.size())) {
        refused = "no value for input " + std::to_string(v) + " at this execution";
        break;
      }
      refused = set_input(value_meta(info.values[v]), &inputs[v], nullptr, k);
    }
    // Runtime integers: a one-element int64 tensor each (pte_writer.h).
    for (size_t i = 0; i < layout_.symbol_inputs.size() && refused.empty(); ++i) {
      const int sym = layout_.symbol_inputs[i].second;
      if (!symbols || sym >= static_cast<int>(symbols->size())) {
        refused = "no value for symbol " + std::to_string(sym) + " at this execution";
        break;
      }
      Tensor t;
      const int64_t one = 1;
      const uint8_t order = 0;
      make_tensor_meta(ScalarType::Long, 1, &one, &order, t);
      refused = set_input(t, nullptr, &(*symbols)[sym], layout_.inputs.size() + i);
    }
    if (!refused.empty()) {
      out.path.error_op = 0;
      out.path.error_message = refused;
      return out;
    }
    close_step(0);
    et_adapter::take_log();
    rt::Error e;
    {
      ProbeScope scope(this);
      e = method_->execute();
    }
    if (e != rt::Error::Ok) {
      const std::string log = et_adapter::take_log();
      out.path.error_op = current_op_ < 0 ? 0 : current_op_;
      out.path.error_message = "ExecuTorch: " + (log.empty() ? "Method::execute failed, " + error_text(e) : log);
    } else if (info.failing_op >= 0) {
      out.path.ran_past_failure = true;
    } else {
      for (size_t i = 0; i < layout_.outputs.size(); ++i) {
        const rt::EValue& v = method_->get_output(i);
        const ValueInfo& val = info.values[layout_.outputs[i]];
        if (!v.isTensor()) {
          out.path.error_op = static_cast<int>(c.ops.size()) - 1;
          out.path.error_message = "ExecuTorch's output " + std::to_string(i) + " is not a tensor";
          return out;
        }
        out.path.outputs.push_back(read_output(v.toTensor(), val.dtype));
      }
    }
    aliases_ = nullptr;
    for (auto& in : inputs_) in->retire();
    previous_inputs_.clear();
    return out;
  }

 private:
  void load(const Case& c, const ProgramInfo& info, const std::vector<TensorValue>& inputs) {
    loaded_ = true;
    if (!register_runtime_kernels()) {
      load_error_ = "ExecuTorch's kernel registry refused slicefuzz's kernels";
      return;
    }
    PteOptions options;
    options.mode = spec_.mode;
    options.fault = fault_;
    // Runtime-op aliases over unplanned inputs: each execution's inputs in other
    // memory, so that a pointer kept from an earlier execution is caught.
    options.planned_inputs = spec_.mode != AliasMode::RuntimeOp;
    if (std::string why = write_pte(c, info, spec_.rewrite, spec_.plan, options, inputs, pte_, layout_);
        !why.empty()) {
      load_error_ = "not written as an ExecuTorch program: " + why;
      return;
    }
    nv_ = static_cast<int>(std::min(info.values.size(), spec_.plan.tensors.size()));
    arena_ = std::make_unique<Arena>(layout_.arena_bytes);
    failing_out_.assign(static_cast<size_t>(layout_.failing_out_bytes), 0);
    buffers_ = {rt::Span<uint8_t>(arena_->base(), arena_->size())};
    if (!failing_out_.empty()) buffers_.emplace_back(failing_out_.data(), failing_out_.size());
    planned_.emplace(rt::Span<rt::Span<uint8_t>>(buffers_.data(), buffers_.size()));
    loader_.emplace(pte_.data(), pte_.size());
    et_adapter::take_log();
    rt::Result<rt::Program> program = rt::Program::load(&*loader_, rt::Program::Verification::InternalConsistency);
    if (!program.ok()) {
      load_error_ = "ExecuTorch's Program::load refused the program (" + error_text(program.error()) +
                    "): " + et_adapter::take_log();
      return;
    }
    program_.emplace(std::move(program.get()));
    // Loading sets every planned tensor's pointer: the arena's regions are
    // poisoned, which is fine (nothing is read or written while loading).
    // The method's own allocations (values, tensor metadata, chains) come from a
    // pool. A pool of one generous size for every case (1 MiB and more) was a fifth
    // of fuzz_program's samples on this backend, zeroed and faulted in per case
    // (perf, docs/executorch.md): first a pool fitted to the program, and only if
    // load_method runs out of it the generous one, so the outcome is the generous
    // pool's either way.
    const rt::Error e = load_fitted_then_generous(
        method_pool_bytes(pte_.size(), info.values.size()),
        [this](size_t bytes) {
          et_adapter::take_log();  // only the last try's log is the error's
          return load_method_with_pool(bytes);
        },
        rt::Error::MemoryAllocationFailed);
    if (e != rt::Error::Ok) {
      load_error_ = "ExecuTorch's load_method refused the program (" + error_text(e) + "): " + et_adapter::take_log();
      return;
    }
    load_error_.clear();
  }

  // Loads the method over a method pool of `pool_bytes` (method_ set on success).
  rt::Error load_method_with_pool(size_t pool_bytes) {
    method_pool_.assign(pool_bytes, 0);
    method_allocator_.emplace(static_cast<uint32_t>(method_pool_.size()), method_pool_.data());
    memory_.emplace(&*method_allocator_, &*planned_);
    rt::Result<rt::Method> method = program_->load_method("forward", &*memory_);
    if (!method.ok()) return method.error();
    method_.emplace(std::move(method.get()));
    return rt::Error::Ok;
  }

  TensorValue read_output(const executorch::aten::Tensor& t, ScalarType dtype) const {
    Tensor meta;
    int64_t sizes[kMaxRank] = {};
    uint8_t order[kMaxRank] = {};
    const int rank = static_cast<int>(t.dim());
    for (int d = 0; d < rank && d < kMaxRank; ++d) sizes[d] = t.size(d), order[d] = t.dim_order()[d];
    make_tensor_meta(dtype, rank, sizes, order, meta);
    meta.data = const_cast<void*>(t.const_data_ptr());
    meta.capacity_nbytes = meta.nbytes();
    return to_tensor_value(meta);
  }

  // In the arena: a non-alias value (runtime-op mode's aliases have no bytes of
  // their own; planned mode's are inside their root's).
  bool owns_bytes(int v) const { return v < nv_ && !spec_.rewrite.is_alias(v) && !spec_.plan.tensors[v].constant; }
  void open_step(int step) {
    for (int v = 0; v < nv_; ++v)
      if (owns_bytes(v) && spec_.plan.tensors[v].first_step == step && spec_.plan.tensors[v].nbytes > 0)
        arena_->open(spec_.plan.tensors[v]);
  }
  void close_step(int step) {
    for (int v = 0; v < nv_; ++v)
      if (owns_bytes(v) && spec_.plan.tensors[v].last_step == step) arena_->close(spec_.plan.tensors[v]);
  }

  // The probes (ProbeSink).
  void enter(int step) override {
    current_op_ = step - 1;
    open_step(step);
  }
  void leave(int step) override { close_step(step); }
  void alias(int op, int value, int root, const void* alias_data, size_t alias_nbytes, const void* root_data,
             size_t root_nbytes) override {
    if (!aliases_) return;
    // As integers: a stale pointer may point anywhere.
    aliases_->push_back(AliasRecord{op, value, root,
                                    static_cast<int64_t>(reinterpret_cast<uintptr_t>(alias_data) -
                                                         reinterpret_cast<uintptr_t>(root_data)),
                                    static_cast<int64_t>(alias_nbytes), static_cast<int64_t>(root_nbytes)});
  }

  const MethodSpec spec_;
  const PteFault fault_;
  std::vector<std::unique_ptr<InputBuffer>> inputs_, previous_inputs_;
  bool loaded_ = false;
  std::string load_error_;
  std::vector<uint8_t> pte_;
  PteLayout layout_;
  int nv_ = 0;
  std::unique_ptr<Arena> arena_;
  std::vector<uint8_t> failing_out_;
  std::vector<rt::Span<uint8_t>> buffers_;
  std::optional<rt::HierarchicalAllocator> planned_;
  std::vector<uint8_t> method_pool_;
  std::optional<rt::MemoryAllocator> method_allocator_;
  std::optional<rt::MemoryManager> memory_;
  std::optional<BufferDataLoader> loader_;
  std::optional<rt::Program> program_;
  std::optional<rt::Method> method_;
  std::vector<AliasRecord>* aliases_ = nullptr;
  int current_op_ = -1;
};

}  // namespace

MethodPoolBytes method_pool_bytes(size_t pte_bytes, size_t values) {
  // Measured: no program of the corpus or of `run --count 5000 --seed 1` (both
  // alias modes, versions 3 and 4) needed the generous pool.
  MethodPoolBytes b;
  b.generous = (size_t{1} << 20) + 4096 * values;
  b.fitted = std::min(b.generous, 16 * 1024 + 4 * pte_bytes + 512 * values);
  return b;
}

std::string executorch_input_check(const std::vector<int64_t>& actual, const std::vector<int64_t>& bound) {
  // What Method::set_input does with a DYNAMIC_BOUND input tensor planned at its
  // bound (method.cpp: resize_tensor(t_dst, t_src.sizes())), on ExecuTorch's own
  // TensorImpl and resize_tensor.
  namespace et = executorch::aten;
  if (actual.size() > kMaxRank || bound.size() > kMaxRank) return "rank past 16";
  et::SizesType bound32[kMaxRank] = {}, actual32[kMaxRank] = {}, strides[kMaxRank] = {};
  et::DimOrderType order[kMaxRank] = {};
  for (size_t d = 0; d < bound.size(); ++d) {
    if (bound[d] < 0 || bound[d] > INT32_MAX) return "a bound past int32";
    bound32[d] = static_cast<et::SizesType>(bound[d]), order[d] = static_cast<et::DimOrderType>(d);
  }
  for (size_t d = 0; d < actual.size(); ++d) {
    if (actual[d] < INT32_MIN || actual[d] > INT32_MAX) return "a size past int32";
    actual32[d] = static_cast<et::SizesType>(actual[d]);
  }
  // Strides as the program loader derives them for the input's tensor
  // (tensor_parser_portable.cpp, dim_order_to_stride); resize_tensor derives
  // them again for the new sizes.
  if (!bound.empty() && executorch::runtime::dim_order_to_stride(bound32, order, bound.size(), strides) !=
                            rt::Error::Ok)
    return "no strides for the bound";
  et::TensorImpl impl(et::ScalarType::Float, static_cast<ssize_t>(bound.size()), bound32, nullptr, order, strides,
                      executorch::runtime::TensorShapeDynamism::DYNAMIC_BOUND);
  et_adapter::take_log();
  const rt::Error e =
      executorch::runtime::resize_tensor(et::Tensor(&impl), et::ArrayRef<et::SizesType>(actual32, actual.size()));
  const std::string log = et_adapter::take_log();
  return e == rt::Error::Ok ? "" : "ExecuTorch's resize_tensor refused it (" + error_text(e) + "): " + log;
}

namespace {
template <PteFault F>
std::unique_ptr<MethodUnderTest> make_with(const MethodSpec& spec) {
  return std::make_unique<EtRuntimeMethod>(spec, F);
}
}  // namespace

namespace {
template <PteFault F>
std::string write_with(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite, const MemoryPlan& plan,
                       AliasMode mode, const std::vector<TensorValue>& inputs, WrittenProgram& out) {
  PteOptions options;
  options.mode = mode;
  options.fault = F;
  options.probes = false;
  options.upstream_ops_only = true;
  options.planned_inputs = mode != AliasMode::RuntimeOp;  // as the method writes it
  PteLayout layout;
  std::string why = write_pte(c, info, rewrite, plan, options, inputs, out.bytes, layout);
  out.input_values = layout.inputs;
  out.symbol_inputs.clear();
  for (const auto& [value, symbol] : layout.symbol_inputs) out.symbol_inputs.push_back(symbol);
  return why;
}
}  // namespace

decltype(Backend::write_program) runtime_program_writer(PteFault fault) {
  switch (fault) {
    case PteFault::None: return &write_with<PteFault::None>;
    case PteFault::AliasOffsetWithoutDelta: return &write_with<PteFault::AliasOffsetWithoutDelta>;
    case PteFault::DropsDimOrder: return &write_with<PteFault::DropsDimOrder>;
    case PteFault::PrimKeepsFirstPointer: return &write_with<PteFault::PrimKeepsFirstPointer>;
  }
  return &write_with<PteFault::None>;
}

MethodFactory runtime_method_factory(PteFault fault) {
  switch (fault) {
    case PteFault::None: return &make_with<PteFault::None>;
    case PteFault::AliasOffsetWithoutDelta: return &make_with<PteFault::AliasOffsetWithoutDelta>;
    case PteFault::DropsDimOrder: return &make_with<PteFault::DropsDimOrder>;
    case PteFault::PrimKeepsFirstPointer: return &make_with<PteFault::PrimKeepsFirstPointer>;
  }
  return &make_with<PteFault::None>;
}

}  // namespace slicefuzz::et_runtime
