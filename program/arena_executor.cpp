#include "program/tensor_conversion.h"
#include "program/arena_executor.h"

#include <cstring>
#include <memory>

#include "program/copy_executor.h"
#include "program/poison.h"

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

}  // namespace

RewritePathResult run_rewrite_path(const Case& c, const ProgramInfo& info,
                                   const TensorValue& input, const RewritePlan& rewrite,
                                   const MemoryPlan& plan, const KernelTable& k, AliasMode mode) {
  RewritePathResult res;
  PathResult& r = res.path;
  Arena arena(plan.arena_bytes);
  const int nv = static_cast<int>(plan.tensors.size());
  std::vector<Tensor> values(info.values.size());
  auto owns_bytes = [&](int v) { return v < nv && !rewrite.is_alias(v); };
  auto open_step = [&](int step) {
    for (int v = 0; v < nv; ++v)
      if (owns_bytes(v) && plan.tensors[v].first_step == step) {
        arena.open(plan.tensors[v]);
        values[v] = value_meta(c, info.values[v].sizes);
        values[v].data = arena.base() + plan.tensors[v].offset;
        values[v].capacity_nbytes = static_cast<size_t>(plan.tensors[v].nbytes);
      }
  };
  auto close_step = [&](int step) {
    for (int v = 0; v < nv; ++v)
      if (owns_bytes(v) && plan.tensors[v].last_step == step) arena.close(plan.tensors[v]);
  };

  open_step(0);
  write_tensor_value(input, values[0]);
  close_step(0);
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const int step = static_cast<int>(i) + 1;
    const Op& op = c.ops[i];
    const OpInfo& oi = info.ops[i];
    const bool must_fail = static_cast<int>(i) == info.failing_op;
    const bool alias = oi.result >= 0 && oi.result < nv && rewrite.is_alias(oi.result);
    std::unique_ptr<uint8_t[]> failing_out;  // a failing op's out lives outside the arena
    if (must_fail && oi.result >= 0) {
      values[oi.result] = value_meta(c, info.values[oi.src].sizes);
      failing_out.reset(new uint8_t[values[oi.result].nbytes()]);
      values[oi.result].data = failing_out.get();
      values[oi.result].capacity_nbytes = values[oi.result].nbytes();
    }
    open_step(step);
    KernelRuntimeContext ctx;
    switch (op.kind) {
      case OpKind::SliceCopy:
        if (alias && mode == AliasMode::Planned) {
          // No op runs: the alias is where the plan put it (root offset + delta).
          Tensor& y = values[oi.result];
          y = value_meta(c, info.values[oi.result].sizes);
          // An empty alias reads nothing: wherever the plan put it, it points at its
          // root (computing an out-of-range pointer would itself be UB).
          const int root_v = rewrite.root[oi.result];
          y.data = arena.base() + (y.nbytes() == 0 ? plan.tensors[root_v].offset
                                                   : plan.tensors[oi.result].offset);
          y.capacity_nbytes = y.nbytes();
          const int root = rewrite.root[oi.result];
          res.aliases.push_back(AliasRecord{static_cast<int>(i), oi.result, root,
                                            static_cast<int64_t>(
                                                static_cast<uint64_t>(plan.tensors[oi.result].offset) -
                                                static_cast<uint64_t>(plan.tensors[root].offset)),
                                            static_cast<int64_t>(y.nbytes()), plan.tensors[root].nbytes});
        } else if (alias) {
          values[oi.result] = value_meta(c, info.values[oi.result].sizes);
          call_et_slice(k, ctx, op, values[oi.src], values[oi.result]);
          if (ctx.ok()) {
            const int root = rewrite.root[oi.result];
            res.aliases.push_back(AliasRecord{
                static_cast<int>(i), oi.result, root,
                values[oi.result].bytes() - (arena.base() + plan.tensors[root].offset),
                static_cast<int64_t>(values[oi.result].nbytes()), plan.tensors[root].nbytes});
          }
        } else {
          k.slice_copy(ctx, values[oi.src], op.dim, op.start, op.end, op.step, values[oi.result]);
        }
        break;
      case OpKind::Clone: k.clone(ctx, values[oi.src], MemoryFormat::Preserve, values[oi.result]); break;
      case OpKind::Add: k.add(ctx, values[oi.target], op.scalar); break;
      case OpKind::Copy: k.copy(ctx, values[oi.target], values[oi.src], false); break;
    }
    if (!ctx.ok()) {
      r.error_op = static_cast<int>(i);
      r.error_message = ctx.message();
      return res;
    }
    if (must_fail) {
      r.ran_past_failure = true;
      return res;
    }
    close_step(step);
  }
  for (int v : info.outputs) r.outputs.push_back(to_tensor_value(values[v]));
  return res;
}

}  // namespace slicefuzz
