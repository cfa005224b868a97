// The kernel calls both in-process executors share: one member per op kind (the
// interpreter's evaluator interface, vocab/interpreter.h), each calling the
// backend's kernel for that op on the executor's tensors. An executor derives
// from it (CRTP) and supplies where tensors live and how an op ends:
//   Tensor& tensor(int value);
//   OpStatus finish(KernelRuntimeContext&, int op);      // error or success
//   template <class F> OpStatus view_copy(const Op&, const OpInfo&, int op, F copy);
//       (a view-copy op: the executor may alias it instead of running `copy`)
// Eager ops (version 2 views and add) are not run here: the in-process kernels
// are copy semantics only, and the runner reports eager cases UNSUPPORTED for
// backends without eager ops before any executor runs.
#pragma once
#include <vector>

#include "vocab/interpreter.h"
#include "program/kernel_table.h"

namespace slicefuzz {

template <class Executor>
class KernelEvaluator {
 public:
  explicit KernelEvaluator(const KernelTable& k) : k_(k) {}

  // clone(SRC) keeps SRC's layout (clone.out); clone(SRC, dim_order=P) is
  // _clone_dim_order.out with P.
  OpStatus Clone(const Op& op, const OpInfo& oi, int k) {
    KernelRuntimeContext ctx;
    if (!op.dim_order) {
      k_.clone(ctx, t(oi.src), MemoryFormat::Preserve, t(oi.result));
    } else {
      const std::vector<int64_t> order(op.dim_order->begin(), op.dim_order->end());
      // A given but empty order (dim_order=[]) is not "no order": an empty
      // vector's data() may be null, which the kernel reads as absent.
      static const int64_t kEmptyOrder[1] = {0};
      k_.clone_dim_order(ctx, t(oi.src), order.empty() ? kEmptyOrder : order.data(), order.size(),
                         t(oi.result));
    }
    return self().finish(ctx, k);
  }
  OpStatus Add(const Op& op, const OpInfo& oi, int k) {
    KernelRuntimeContext ctx;
    k_.add(ctx, t(oi.target), op.scalar);
    return self().finish(ctx, k);
  }
  OpStatus Copy(const Op& op, const OpInfo& oi, int k) {
    KernelRuntimeContext ctx;
    k_.copy(ctx, t(oi.target), t(oi.src), false);
    return self().finish(ctx, k);
  }
  // A view-copy op: its boxed kernel by the op table's name, with the
  // stack built from its schema (call_boxed_kernel); the executor may alias it.
  OpStatus schema_op(const Op& op, const OpInfo& oi, int k) {
    if (!op_is_view_copy(op.kind) || is_eager_op(op.kind)) return eager(op);
    return self().view_copy(op, oi, k, [&](KernelRuntimeContext& ctx) {
      call_boxed_kernel(k_, ctx, op, t(oi.src), t(oi.result));
    });
  }
  OpStatus Slice(const Op& op, const OpInfo&, int) { return eager(op); }
  OpStatus Select(const Op& op, const OpInfo&, int) { return eager(op); }
  OpStatus AddOut(const Op& op, const OpInfo&, int) { return eager(op); }

 protected:
  const KernelTable& kernels() const { return k_; }
  // Runs a copy kernel call and ends the op.
  template <class F>
  OpStatus run_copy(int k, F copy) {
    KernelRuntimeContext ctx;
    copy(ctx);
    return self().finish(ctx, k);
  }

 private:
  Executor& self() { return static_cast<Executor&>(*this); }
  Tensor& t(int v) { return self().tensor(v); }
  static OpStatus eager(const Op& op) {
    return OpStatus::error(std::string("eager op ") + op_kind_name(op.kind) +
                           " is not run by the in-process executors (copy semantics only)");
  }
  const KernelTable& k_;
};

}  // namespace slicefuzz
