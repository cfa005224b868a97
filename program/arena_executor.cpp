#include "program/arena_executor.h"

#include <cstring>
#include <memory>

#include "vocab/interpreter.h"
#include "program/kernel_evaluator.h"
#include "program/op_layout_facts.h"
#include "program/arena.h"
#include "program/poison.h"
#include "program/tensor_conversion.h"

namespace slicefuzz {

namespace {

// The method's per-value tensors (the analogue of an ExecuTorch Method's EValues):
// they persist across executions. Planned values are repointed at their offset
// before every execution; an alias starts with a null data pointer and is set by
// its alias prim op (runtime-op mode) or from the plan (planned mode) when its op
// runs, never reset by the executor between executions.
std::vector<Tensor> method_values(const ProgramInfo& info, const RewritePlan& rewrite, int planned,
                                  const std::vector<std::vector<int64_t>>* bounds) {
  std::vector<Tensor> values(info.values.size());
  for (int v = 0; v < planned; ++v)
    if (rewrite.is_alias(v)) values[v] = bound_meta(bounds, v, info.values[v]);
  return values;
}

// One execution of the rewrite path as an evaluator of the shared op loop: tensors
// live in this execution's arena at the plan's offsets; a view-copy op the pass
// aliased runs its alias prim op (RuntimeOp) or takes the plan's pointer
// (Planned); every other op runs its kernel. Step k + 1 is op k (step 0 defines
// the inputs).
class ArenaEvaluator : public KernelEvaluator<ArenaEvaluator> {
 public:
  ArenaEvaluator(const Case& c, const ProgramInfo& info, const std::vector<TensorValue>& inputs,
                 const RewritePlan& rewrite, const MemoryPlan& plan, const KernelTable& k,
                 AliasMode mode, const std::vector<std::vector<int64_t>>* bounds, Arena& arena,
                 ConstantData& constants, std::vector<Tensor>& values, std::vector<AliasRecord>& aliases)
      : KernelEvaluator(k), c_(c), info_(info), rewrite_(rewrite), plan_(plan), mode_(mode),
        bounds_(bounds), aliases_(aliases), arena_(arena), values_(values),
        nv_(std::min(static_cast<int>(plan.tensors.size()), static_cast<int>(info.values.size()))) {
    aliases_.reserve(rewrite_.decisions.size());  // at most one record per view-copy op
    // As a Method's execute: every planned tensor points into this execution's
    // memory before anything runs (alias values are left as they are).
    // Version 4: at its bound's sizes, within the plan's bytes (a value that
    // does not run at these sizes stays as it is).
    for (int v = 0; v < nv_; ++v)
      if (owns_bytes(v) && info_.values[v].known) {
        values_[v] = bound_meta(bounds, v, info_.values[v]);
        values_[v].data = arena_.base() + plan_.tensors[v].offset;
        values_[v].capacity_nbytes = static_cast<size_t>(plan_.tensors[v].nbytes);
      }
    // Version 4: a constant's bytes are the program's, loaded once with the
    // method (never in the arena, whatever the plan says): they persist from
    // execution to execution, so a write that reaches one shows in the next.
    const bool load = constants.bytes.empty();
    if (load) constants.bytes.resize(info_.values.size());
    for (int v = 0; v < nv_; ++v)
      if (info_.values[v].constant) {
        values_[v] = value_meta(info_.values[v]);
        if (load) constants.bytes[v].reset(new uint8_t[values_[v].nbytes() ? values_[v].nbytes() : 1]);
        values_[v].data = constants.bytes[v].get();
        values_[v].capacity_nbytes = values_[v].nbytes();
        if (load && static_cast<size_t>(v) < inputs.size()) write_tensor_value(inputs[v], values_[v]);
      }
    open_step(0);
    // Setting an input: its actual sizes (the input check has vouched for them).
    for (size_t v = 0; v < inputs.size() && static_cast<int>(v) < nv_; ++v) {
      if (info_.values[v].constant) continue;
      Tensor actual = value_meta(info_.values[v]);
      actual.data = values_[v].data;
      actual.capacity_nbytes = values_[v].capacity_nbytes;
      actual.dynamism = values_[v].dynamism;
      values_[v] = actual;
      write_tensor_value(inputs[v], values_[v]);
    }
    close_step(0);
  }

  void before_op(int k) {
    const OpInfo& oi = info_.ops[k];
    failing_out_.reset();
    if (k == info_.failing_op && oi.result >= 0) {
      // A failing op's out lives outside the arena, in a plausible layout.
      Tensor& out = values_[oi.result];
      out = failing_out_meta(c_.ops[k], values_[oi.src]);
      failing_out_.reset(new uint8_t[out.nbytes()]);
      out.data = failing_out_.get();
      out.capacity_nbytes = out.nbytes();
    }
    open_step(k + 1);
  }
  void after_op(int k) { close_step(k + 1); }
  TensorValue output(int v) { return to_tensor_value(values_[v]); }

  Tensor& tensor(int v) { return values_[v]; }
  OpStatus finish(const KernelRuntimeContext& ctx, int) {
    return ctx.ok() ? OpStatus::success() : OpStatus::error(ctx.message());
  }

  template <class F>
  OpStatus view_copy(const Op& op, const OpInfo& oi, int k, F copy) {
    if (!(oi.result >= 0 && oi.result < nv_ && rewrite_.is_alias(oi.result))) return run_copy(k, copy);
    Tensor& y = values_[oi.result];
    const int root = rewrite_.root[oi.result];
    const uint8_t* root_data = values_[root].bytes();
    if (mode_ == AliasMode::Planned && k == info_.failing_op) {
      // No op runs, so nothing raises the error the op's arguments call for at
      // these sizes (the alias keeps the out made for the failing op).
      return OpStatus::success();
    }
    if (mode_ == AliasMode::Planned) {
      // No op runs: the alias is where the plan put it (root offset + delta). An
      // empty alias reads nothing: wherever the plan put it, it points at its root
      // (computing an out-of-range pointer would itself be UB).
      // An alias the plan puts among the program's constants is resolved from its
      // constant root's bytes; any other from the arena (an allocation_info).
      y = value_meta(info_.values[oi.result]);
      const TensorPlacement& at = plan_.tensors[oi.result];
      const int64_t delta = static_cast<int64_t>(static_cast<uint64_t>(at.offset) -
                                                 static_cast<uint64_t>(plan_.tensors[root].offset));
      if (at.constant)
        y.data = values_[root].bytes() + (y.nbytes() == 0 ? 0 : delta);
      else
        y.data = arena_.base() + (y.nbytes() == 0 ? plan_.tensors[root].offset : at.offset);
      y.capacity_nbytes = y.nbytes();
      record(k, oi.result, static_cast<int64_t>(static_cast<uint64_t>(plan_.tensors[oi.result].offset) -
                                                 static_cast<uint64_t>(plan_.tensors[root].offset)));
      return OpStatus::success();
    }
    // y keeps whatever data pointer the previous execution left in it (null on
    // the first): setting it is the alias prim op's job. Its sizes are the
    // planned ones again (an ExecuTorch TensorImpl keeps the numel bound it was
    // made with, whatever it was resized to since): the prim op resizes.
    {
      Tensor planned = bound_meta(bounds_, oi.result, info_.values[oi.result]);
      planned.data = y.data;
      planned.capacity_nbytes = y.capacity_nbytes;
      y = planned;
    }
    KernelRuntimeContext ctx;
    call_alias_prim(kernels(), ctx, op, values_[oi.src], y, &info_.values[oi.result].sizes);
    // (As integers: a stale y points into another arena, and subtracting pointers
    // into different arrays is undefined.)
    if (ctx.ok())
      record(k, oi.result, static_cast<int64_t>(reinterpret_cast<uintptr_t>(y.data) -
                                                 reinterpret_cast<uintptr_t>(root_data)));
    return finish(ctx, k);
  }

 private:
  // In the arena: a non-alias value other than a constant.
  bool owns_bytes(int v) const { return v < nv_ && !rewrite_.is_alias(v) && !info_.values[v].constant; }
  void open_step(int step) {
    for (int v = 0; v < nv_; ++v)
      if (owns_bytes(v) && plan_.tensors[v].first_step == step) arena_.open(plan_.tensors[v]);
  }
  void close_step(int step) {
    for (int v = 0; v < nv_; ++v)
      if (owns_bytes(v) && plan_.tensors[v].last_step == step) arena_.close(plan_.tensors[v]);
  }
  void record(int k, int value, int64_t delta) {
    const int root = rewrite_.root[value];
    // The root's bytes at this execution's sizes (its capacity may be more).
    aliases_.push_back(AliasRecord{k, value, root, delta, static_cast<int64_t>(values_[value].nbytes()),
                                   static_cast<int64_t>(values_[root].nbytes())});
  }

  const Case& c_;
  const ProgramInfo& info_;
  const RewritePlan& rewrite_;
  const MemoryPlan& plan_;
  AliasMode mode_;
  const std::vector<std::vector<int64_t>>* bounds_;
  std::vector<AliasRecord>& aliases_;
  Arena& arena_;
  std::vector<Tensor>& values_;
  int nv_;
  std::unique_ptr<uint8_t[]> failing_out_;
};

}  // namespace

RewriteMethod::RewriteMethod(const ProgramInfo& planned, const RewritePlan& rewrite, const MemoryPlan& plan,
                             const KernelTable& kernels, AliasMode mode,
                             const std::vector<std::vector<int64_t>>* bounds)
    : rewrite_(rewrite), plan_(plan), kernels_(kernels), mode_(mode), bounds_(bounds),
      values_(method_values(planned, rewrite, static_cast<int>(plan.tensors.size()), bounds)) {}

RewriteMethod::~RewriteMethod() = default;

RewriteExecution RewriteMethod::execute(const Case& c, const ProgramInfo& info,
                                        const std::vector<TensorValue>& inputs, const std::vector<int64_t>*) {
  RewriteExecution out;
  std::unique_ptr<Arena> arena = spare_ && spare_->size() == static_cast<size_t>(plan_.arena_bytes)
                                     ? std::move(spare_)
                                     : std::make_unique<Arena>(plan_.arena_bytes);
  {
    ArenaEvaluator ev(c, info, inputs, rewrite_, plan_, kernels_, mode_, bounds_, *arena, constants_, values_,
                      out.aliases);
    out.path = interpret(c, info, ev);
  }
  // Kept allocated and poisoned until the next execution's has run: a pointer
  // kept from this one then reads poisoned (or overwritten) bytes.
  arena->retire();
  spare_ = std::move(previous_);
  previous_ = std::move(arena);
  return out;
}

const uint8_t* RewriteMethod::last_arena() const { return previous_ ? previous_->base() : nullptr; }

RewritePathResult MethodUnderTest::execute_twice(const Case& c, const ProgramInfo& info,
                                                 const std::vector<TensorValue>& inputs,
                                                 const std::vector<int64_t>* symbols) {
  RewritePathResult res;
  res.first_execution = execute(c, info, inputs, symbols);
  RewriteExecution second = execute(c, info, inputs, symbols);
  res.path = std::move(second.path);
  res.aliases = std::move(second.aliases);
  return res;
}

RewritePathResult run_rewrite_path(const Case& c, const ProgramInfo& info,
                                   const std::vector<TensorValue>& inputs, const RewritePlan& rewrite,
                                   const MemoryPlan& plan, const KernelTable& k, AliasMode mode) {
  // A deployed Method is executed many times over the same values, and its
  // memory may be elsewhere each time: executing twice, the second time in a
  // fresh arena while the first stays allocated and entirely poisoned, makes any
  // pointer kept from the first execution (an alias prim op that sets out's data
  // only once, pytorch/executorch issue 2843) abort under ASan or record a delta
  // outside its root.
  RewriteMethod method(info, rewrite, plan, k, mode);
  return method.execute_twice(c, info, inputs);
}

}  // namespace slicefuzz
