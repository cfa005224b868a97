#include "program/arena_executor.h"

#include <cstring>
#include <memory>

#include "program/interpreter.h"
#include "program/kernel_evaluator.h"
#include "program/op_layout_facts.h"
#include "program/poison.h"
#include "program/tensor_conversion.h"

namespace slicefuzz {

namespace {

// Owns the arena and keeps the poisoning schedule: a region is addressable
// exactly from its first step to its (extended) last step.
class Arena {
 public:
  explicit Arena(int64_t bytes) : bytes_(static_cast<size_t>(bytes)), data_(new uint8_t[bytes_]) {
    poison_region(data_.get(), bytes_);
  }
  ~Arena() { unpoison_region(data_.get(), bytes_); }  // hand clean memory back to delete[]
  uint8_t* base() const { return data_.get(); }
  // A region opens with a fixed pattern, so that reading bytes nobody wrote gives
  // the same (wrong) values on every run and a finding's text is reproducible.
  void open(const TensorPlacement& t) {
    unpoison_region(base() + t.offset, t.nbytes);
    std::memset(base() + t.offset, 0xA5, static_cast<size_t>(t.nbytes));
  }
  void close(const TensorPlacement& t) { poison_region(base() + t.offset, t.nbytes); }

 private:
  size_t bytes_;
  std::unique_ptr<uint8_t[]> data_;
};

// The rewrite path as an evaluator of the shared op loop: tensors live in the
// arena at the plan's offsets; a view-copy op the pass aliased runs its alias prim
// op (RuntimeOp) or takes the plan's pointer (Planned); every other op runs its
// kernel. Step k + 1 is op k (step 0 defines the inputs).
class ArenaEvaluator : public KernelEvaluator<ArenaEvaluator> {
 public:
  ArenaEvaluator(const Case& c, const ProgramInfo& info, const std::vector<TensorValue>& inputs,
                 const RewritePlan& rewrite, const MemoryPlan& plan, const KernelTable& k,
                 AliasMode mode, std::vector<AliasRecord>& aliases)
      : KernelEvaluator(k), c_(c), info_(info), rewrite_(rewrite), plan_(plan), mode_(mode),
        aliases_(aliases), arena_(plan.arena_bytes), values_(info.values.size()),
        nv_(static_cast<int>(plan.tensors.size())) {
    open_step(0);
    for (size_t v = 0; v < inputs.size() && static_cast<int>(v) < nv_; ++v)
      write_tensor_value(inputs[v], values_[v]);
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
    y = value_meta(info_.values[oi.result]);
    const int root = rewrite_.root[oi.result];
    const uint8_t* root_data = arena_.base() + plan_.tensors[root].offset;
    if (mode_ == AliasMode::Planned) {
      // No op runs: the alias is where the plan put it (root offset + delta). An
      // empty alias reads nothing: wherever the plan put it, it points at its root
      // (computing an out-of-range pointer would itself be UB).
      y.data = arena_.base() + (y.nbytes() == 0 ? plan_.tensors[root].offset
                                                : plan_.tensors[oi.result].offset);
      y.capacity_nbytes = y.nbytes();
      record(k, oi.result, static_cast<int64_t>(static_cast<uint64_t>(plan_.tensors[oi.result].offset) -
                                                 static_cast<uint64_t>(plan_.tensors[root].offset)));
      return OpStatus::success();
    }
    KernelRuntimeContext ctx;
    call_alias_prim(kernels(), ctx, op, values_[oi.src], y);
    if (ctx.ok()) record(k, oi.result, y.bytes() - root_data);
    return finish(ctx, k);
  }

 private:
  bool owns_bytes(int v) const { return v < nv_ && !rewrite_.is_alias(v); }
  void open_step(int step) {
    for (int v = 0; v < nv_; ++v)
      if (owns_bytes(v) && plan_.tensors[v].first_step == step) {
        arena_.open(plan_.tensors[v]);
        values_[v] = value_meta(info_.values[v]);
        values_[v].data = arena_.base() + plan_.tensors[v].offset;
        values_[v].capacity_nbytes = static_cast<size_t>(plan_.tensors[v].nbytes);
      }
  }
  void close_step(int step) {
    for (int v = 0; v < nv_; ++v)
      if (owns_bytes(v) && plan_.tensors[v].last_step == step) arena_.close(plan_.tensors[v]);
  }
  void record(int k, int value, int64_t delta) {
    const int root = rewrite_.root[value];
    aliases_.push_back(AliasRecord{k, value, root, delta, static_cast<int64_t>(values_[value].nbytes()),
                                   plan_.tensors[root].nbytes});
  }

  const Case& c_;
  const ProgramInfo& info_;
  const RewritePlan& rewrite_;
  const MemoryPlan& plan_;
  AliasMode mode_;
  std::vector<AliasRecord>& aliases_;
  Arena arena_;
  std::vector<Tensor> values_;
  int nv_;
  std::unique_ptr<uint8_t[]> failing_out_;
};

}  // namespace

RewritePathResult run_rewrite_path(const Case& c, const ProgramInfo& info,
                                   const std::vector<TensorValue>& inputs, const RewritePlan& rewrite,
                                   const MemoryPlan& plan, const KernelTable& k, AliasMode mode) {
  RewritePathResult res;
  ArenaEvaluator ev(c, info, inputs, rewrite, plan, k, mode, res.aliases);
  res.path = interpret(c, info, ev);
  return res;
}

}  // namespace slicefuzz
