#include "program/copy_executor.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "vocab/interpreter.h"
#include "program/kernel_evaluator.h"
#include "program/tensor_conversion.h"

namespace slicefuzz {

namespace {
// Written into every out buffer before its kernel runs: a kernel that fails must
// leave it intact ("nothing written on error").
constexpr uint8_t kSentinel = 0xA5;

struct OwnedTensor {
  Tensor t;
  std::unique_ptr<uint8_t[]> buffer;
};

OwnedTensor allocate(const Tensor& meta) {
  OwnedTensor o;
  o.t = meta;
  const size_t n = meta.nbytes();
  o.buffer.reset(new uint8_t[n]);  // exactly n bytes: ASan guards both edges
  std::memset(o.buffer.get(), kSentinel, n);
  o.t.data = o.buffer.get();
  o.t.capacity_nbytes = n;
  return o;  // (a DYNAMIC_BOUND meta keeps its dynamism: its kernel may resize within n)
}

bool untouched(const OwnedTensor& o) {
  for (size_t i = 0; i < o.t.capacity_nbytes; ++i)
    if (o.buffer[i] != kSentinel) return false;
  return true;
}

// The copy path as an evaluator of the shared op loop: every view-copy op runs
// its copy kernel.
class CopyEvaluator : public KernelEvaluator<CopyEvaluator> {
 public:
  CopyEvaluator(const Case& c, const ProgramInfo& info, const KernelTable& k,
                const std::vector<TensorValue>& inputs,
                const std::vector<std::vector<int64_t>>* bounds)
      : KernelEvaluator(k), c_(c), info_(info), bounds_(bounds), values_(info.values.size()) {
    for (size_t v = 0; v < inputs.size() && v < values_.size(); ++v) {
      values_[v] = allocate(planned_meta(static_cast<int>(v)));
      // Setting an input: its actual sizes, within the bound's bytes.
      Tensor actual = value_meta(info.values[v]);
      if (!resize_tensor(values_[v].t, actual.sizes)) values_[v] = allocate(actual);
      write_tensor_value(inputs[v], values_[v].t);
    }
  }

  // Every defined value gets its out from its own layout; the op that must fail
  // gets a plausible one (op_layout_facts.h): the kernel must refuse before
  // touching it.
  void before_op(int k) {
    const OpInfo& oi = info_.ops[k];
    out_ = nullptr;
    if (oi.result < 0) return;
    values_[oi.result] = allocate(k == info_.failing_op
                                      ? failing_out_meta(c_.ops[k], values_[oi.src].t)
                                      : planned_meta(oi.result));
    out_ = &values_[oi.result];
  }
  void after_op(int) {}
  TensorValue output(int v) { return to_tensor_value(values_[v].t); }

  Tensor& tensor(int v) { return values_[v].t; }
  OpStatus finish(const KernelRuntimeContext& ctx, int) {
    if (ctx.ok()) return OpStatus::success();
    return OpStatus::error(ctx.message(), out_ != nullptr && !untouched(*out_));
  }
  template <class F>
  OpStatus view_copy(const Op&, const OpInfo&, int k, F copy) {
    return run_copy(k, copy);
  }

 private:
  Tensor planned_meta(int v) const { return bound_meta(bounds_, v, info_.values[v]); }

  const Case& c_;
  const ProgramInfo& info_;
  const std::vector<std::vector<int64_t>>* bounds_;
  std::vector<OwnedTensor> values_;
  OwnedTensor* out_ = nullptr;
};

}  // namespace

PathResult run_copy_path(const Case& c, const ProgramInfo& info,
                         const std::vector<TensorValue>& inputs, const KernelTable& k,
                         const std::vector<std::vector<int64_t>>* bounds) {
  CopyEvaluator ev(c, info, k, inputs, bounds);
  return interpret(c, info, ev);
}

}  // namespace slicefuzz
