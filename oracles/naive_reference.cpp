// The naive reference: one element at a time, on the judge's facts
// (judge_facts.h, judge_layouts.h). Shares nothing with the kernels; torch is the
// other witness. An evaluator of the shared op loop (vocab/interpreter.h).
//
// It models storage itself, as eager PyTorch has it: every value is a strided
// window (offset, sizes, strides) onto a storage. Every value that owns its
// bytes (the input and every copy: each view-copy op, clone, add) gets a fresh storage laid out in that
// value's own dim order (info.values[v].dim_order, by the stride rule); a view
// (slice, select) is a new window onto its source's storage, so add_ and copy_
// through any window are seen by all. Values are compared logically (row-major).
// Reads and writes walk a window's element positions row by row, in row-major
// order (for_each_row); a row of consecutive positions, and a window whose
// positions are just 0..n-1 in order (a whole row-major storage), moves as one
// block: the same elements in the same order.
//
// A view-copy op's value is the judge's view of the op (op_view) taken over the
// source's logical elements, gathered element by element: the same strided-view
// facts that predict the alias offsets also define the copied values, so a wrong
// view fact shows up as an ORACLE_DISAGREEMENT with torch.
#include <cstring>
#include <string>

#include "oracles/judge_facts.h"
#include "oracles/judge_inexact.h"
#include "oracles/judge_index_copy.h"
#include "oracles/judge_index_put.h"
#include "oracles/judge_layouts.h"
#include "oracles/judge_overlap.h"
#include "oracles/naive_memory.h"
#include "oracles/oracle.h"
#include "oracles/values.h"
#include "vocab/interpreter.h"

namespace slicefuzz {

namespace {

using naive::Memory;
using naive::Window;

void add_all(TensorValue& v, int64_t k) {
  judge::add_to_elements(v.dtype, v.bytes.data(), v.numel(), k);
}

// The bounds after an element-wise op on `v` (its result values), from the
// operand's bounds `b` (empty: exact, and so is the result).
template <typename F>
void update_bounds(const TensorValue& v, std::vector<double>& b, F bound) {
  const size_t es = element_size(v.dtype);
  for (size_t i = 0; i < b.size(); ++i) b[i] = bound(judge::element_value(v.dtype, v.bytes.data() + i * es), b[i]);
}

class NaiveReference {
 public:
  NaiveReference(const ProgramInfo& info) : info_(info), values_(info.values.size()) {
    mem_.reserve(info.values.size());  // at most one storage per value
    std::vector<TensorValue> inputs = make_input_values(info);
    for (size_t k = 0; k < inputs.size(); ++k)
      values_[k] = mem_.fresh(std::move(inputs[k]), info.values[k].dim_order);
  }

  // A view-copy op: its judge view (judge_layouts.h), copied element by element
  // into new storage in its value's dim order. Nothing else is run without its
  // own member.
  OpStatus schema_op(const Op& op, const OpInfo& oi, int) {
    if (op_is_view_copy(op.kind)) return view_copy(op, oi);
    return OpStatus::error(std::string("naive reference: no semantics for ") + op_kind_name(op.kind));
  }
  OpStatus Clone(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    if (!out.error.empty()) return OpStatus::error(out.error);
    define(oi.result, mem_.read(values_[oi.src]), out.layout, mem_.read_bounds(values_[oi.src]));
    return OpStatus::success();
  }
  OpStatus AddOut(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    if (!out.error.empty()) return OpStatus::error(out.error);
    TensorValue v = mem_.read(values_[oi.src]);
    std::vector<double> b = mem_.read_bounds(values_[oi.src]);
    add_all(v, op.scalar);
    update_bounds(v, b, [&](double y, double e) { return judge::add_bound(v.dtype, y, e); });
    define(oi.result, std::move(v), out.layout, b);
    return OpStatus::success();
  }
  OpStatus MulOut(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    if (!out.error.empty()) return OpStatus::error(out.error);
    TensorValue v = mem_.read(values_[oi.src]);
    std::vector<double> b = mem_.read_bounds(values_[oi.src]);
    judge::mul_elements(v.dtype, v.bytes.data(), v.numel(), op.scalar);
    update_bounds(v, b, [&](double y, double e) { return judge::mul_bound(v.dtype, y, e, op.scalar); });
    define(oi.result, std::move(v), out.layout, b);
    return OpStatus::success();
  }
  OpStatus Relu(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    std::string err = out.error.empty() ? judge::op_dtype_error(op.kind, info_.values[oi.src].dtype) : out.error;
    if (!err.empty()) return OpStatus::error(err);
    TensorValue v = mem_.read(values_[oi.src]);
    judge::relu_elements(v.dtype, v.bytes.data(), v.numel());
    define(oi.result, std::move(v), out.layout, mem_.read_bounds(values_[oi.src]));  // slope 1
    return OpStatus::success();
  }
  // The inexact ops: computed in double, each element with its bound.
  OpStatus Sigmoid(const Op& op, const OpInfo& oi, int) {
    return inexact(op, oi, judge::sigmoid_elements,
                   [](ScalarType t, double, double y, double e) { return judge::sigmoid_bound(t, y, e); });
  }
  OpStatus Gelu(const Op& op, const OpInfo& oi, int) { return inexact(op, oi, judge::gelu_elements, judge::gelu_bound); }
  // add and mul of two tensors: one dtype, one size (the judge refuses others).
  OpStatus AddTensor(const Op& op, const OpInfo& oi, int) {
    return two_tensors(op, oi, judge::add_tensor_elements, [](ScalarType t, double, double, double y, double ea,
                                                              double eb) { return judge::add_tensor_bound(t, y, ea, eb); });
  }
  OpStatus MulTensor(const Op& op, const OpInfo& oi, int) {
    return two_tensors(op, oi, judge::mul_tensor_elements, judge::mul_tensor_bound);
  }
  OpStatus IndexCopy(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    std::string err = out.error;
    if (err.empty())
      err = judge::index_copy_error(layout_of(oi.src), info_.values[oi.src].dtype, layout_of(oi.other),
                                    info_.values[oi.other].dtype, op.dim, op.ints);
    if (!err.empty()) return OpStatus::error(err);
    TensorValue v = mem_.read(values_[oi.src]);
    const TensorValue source = mem_.read(values_[oi.other]);
    judge::index_copy_elements(v.bytes.data(), v.sizes, source.bytes.data(), op.dim, op.ints,
                               element_size(v.dtype));
    // The bounds move with their elements.
    std::vector<double> b = mem_.read_bounds(values_[oi.src]), sb = mem_.read_bounds(values_[oi.other]);
    if (!b.empty() || !sb.empty()) {
      b.resize(static_cast<size_t>(v.numel()), 0.0);
      sb.resize(static_cast<size_t>(source.numel()), 0.0);
      judge::index_copy_elements(reinterpret_cast<uint8_t*>(b.data()), v.sizes,
                                 reinterpret_cast<const uint8_t*>(sb.data()), op.dim, op.ints, sizeof(double));
    }
    define(oi.result, std::move(v), out.layout, b);
    return OpStatus::success();
  }
  OpStatus IndexPut(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    std::string err = out.error;
    if (err.empty())
      err = judge::index_put_error(layout_of(oi.src), info_.values[oi.src].dtype, layout_of(oi.other),
                                   info_.values[oi.other].dtype, op.dim, op.ints);
    if (!err.empty()) return OpStatus::error(err);
    TensorValue v = mem_.read(values_[oi.src]);
    const TensorValue values = mem_.read(values_[oi.other]);
    judge::index_put_elements(v.bytes.data(), v.sizes, values.bytes.data(), values.sizes, op.dim, op.ints,
                              element_size(v.dtype));
    std::vector<double> b = mem_.read_bounds(values_[oi.src]), vb = mem_.read_bounds(values_[oi.other]);
    if (!b.empty() || !vb.empty()) {
      b.resize(static_cast<size_t>(v.numel()), 0.0);
      vb.resize(static_cast<size_t>(values.numel()), 0.0);
      judge::index_put_elements(reinterpret_cast<uint8_t*>(b.data()), v.sizes,
                                reinterpret_cast<const uint8_t*>(vb.data()), values.sizes, op.dim, op.ints,
                                sizeof(double));
    }
    define(oi.result, std::move(v), out.layout, b);
    return OpStatus::success();
  }
  // Eager views (version 2): a new window onto the source's storage.
  OpStatus Slice(const Op& op, const OpInfo& oi, int) { return view(op, oi); }
  OpStatus Select(const Op& op, const OpInfo& oi, int) { return view(op, oi); }
  // In place, through whatever window the target is.
  OpStatus Add(const Op& op, const OpInfo& oi, int) {
    thread_local TensorValue v;  // scratch: read, added to, written back
    thread_local std::vector<double> b;
    mem_.read_into(values_[oi.target], v);
    mem_.read_bounds_into(values_[oi.target], b);
    add_all(v, op.scalar);
    mem_.write(values_[oi.target], v.bytes);
    if (!b.empty()) {
      update_bounds(v, b, [&](double y, double e) { return judge::add_bound(v.dtype, y, e); });
      mem_.write_bounds(values_[oi.target], b);
    }
    return OpStatus::success();
  }
  OpStatus Copy(const Op&, const OpInfo& oi, int) {
    std::string err = judge::copy_dtype_error(info_.values[oi.target].dtype, info_.values[oi.src].dtype);
    if (err.empty()) err = judge::copy_error(layout_of(oi.target), layout_of(oi.src));
    if (!err.empty()) return OpStatus::error(err);
    // Two views of one storage: torch refuses a partial overlap; an
    // order-dependent copy is not a program of the case language (the analysis
    // refuses it). Otherwise every order gives one result: read whole, then write.
    const Window& dst_w = values_[oi.target];
    const Window& src_w = values_[oi.src];
    if (oi.target != oi.src && dst_w.storage == src_w.storage) {
      const judge::CopyOverlap o = judge::copy_overlap(
          judge::StridedView{dst_w.sizes, dst_w.strides, dst_w.offset},
          judge::StridedView{src_w.sizes, src_w.strides, src_w.offset});
      if (o == judge::CopyOverlap::TorchRefuses) return OpStatus::error(judge::kCopyPartialOverlapError);
      if (o == judge::CopyOverlap::OrderDependent)
        return OpStatus::error("naive reference: an order-dependent copy_ ran (the analysis admits none)");
    }
    thread_local TensorValue src;  // scratch
    thread_local std::vector<double> b;
    mem_.read_into(values_[oi.src], src);
    mem_.read_bounds_into(values_[oi.src], b);
    mem_.write(values_[oi.target], src.bytes);
    mem_.write_bounds(values_[oi.target], b);  // the source's bounds, or exact
    return OpStatus::success();
  }

  void before_op(int) {}
  void after_op(int) {}
  TensorValue output(int v) { return mem_.read(values_[v]); }
  std::vector<double> output_bounds(int v) const { return mem_.read_bounds(values_[v]); }

 private:
  // A value's layout as this reference holds it: its window's sizes (computed
  // here, op by op) and the dim order the judge gives the value.
  judge::Layout layout_of(int v) const {
    return judge::Layout{values_[v].sizes, info_.values[v].dim_order};
  }
  // op_result over value `src`'s layout (as layout_of gives it), valid until the
  // next call: the query's vectors are reused across ops and cases.
  const judge::OpOutcome& outcome(const Op& op, int src) {
    thread_local judge::LayoutQuery query;
    return query.result(op, values_[src].sizes, info_.values[src].dim_order);
  }

  // Gives value `v` a fresh storage in its own dim order (the analysis's; the
  // op's own layout where the analysis knows none, past a failing op).
  // `bounds`: its elements' bounds, row-major (empty: exact).
  void define(int v, TensorValue&& value, const judge::Layout& layout, const std::vector<double>& bounds = {}) {
    const ValueInfo& vi = info_.values[v];
    const bool known = vi.known && vi.dim_order.size() == value.sizes.size();
    values_[v] = mem_.fresh(std::move(value), known ? vi.dim_order : layout.dim_order, bounds);
  }

  // `elements` computes a op b in place of a; `bound` each element's bound from
  // (dtype, a, b, y, a's bound, b's bound).
  template <typename Bound>
  OpStatus two_tensors(const Op& op, const OpInfo& oi, void (*elements)(ScalarType, uint8_t*, const uint8_t*, int64_t),
                       Bound bound) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    std::string err = out.error;
    if (err.empty())
      err = judge::other_operand_error(op.kind, layout_of(oi.src), info_.values[oi.src].dtype, layout_of(oi.other),
                                       info_.values[oi.other].dtype);
    if (!err.empty()) return OpStatus::error(err);
    TensorValue y = mem_.read(values_[oi.src]);
    const TensorValue a = y, b = mem_.read(values_[oi.other]);
    std::vector<double> ea = mem_.read_bounds(values_[oi.src]), eb = mem_.read_bounds(values_[oi.other]);
    elements(y.dtype, y.bytes.data(), b.bytes.data(), y.numel());
    std::vector<double> bounds;
    if (!ea.empty() || !eb.empty()) {
      ea.resize(static_cast<size_t>(y.numel()), 0.0);
      eb.resize(static_cast<size_t>(y.numel()), 0.0);
      bounds.resize(ea.size());
      const size_t es = element_size(y.dtype);
      for (size_t i = 0; i < bounds.size(); ++i) {
        const auto at = [&](const TensorValue& v) { return judge::element_value(v.dtype, v.bytes.data() + i * es); };
        bounds[i] = bound(y.dtype, at(a), at(b), at(y), ea[i], eb[i]);
      }
    }
    define(oi.result, std::move(y), out.layout, bounds);
    return OpStatus::success();
  }

  // sigmoid or gelu: `elements` computes the values, `bound` each one's bound
  // from (result dtype, x, y, x's bound).
  template <typename Bound>
  OpStatus inexact(const Op& op, const OpInfo& oi,
                   void (*elements)(ScalarType, const uint8_t*, ScalarType, uint8_t*, int64_t), Bound bound) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    const ScalarType from = info_.values[oi.src].dtype;
    std::string err = out.error.empty() ? judge::op_dtype_error(op.kind, from) : out.error;
    if (!err.empty()) return OpStatus::error(err);
    const TensorValue x = mem_.read(values_[oi.src]);
    std::vector<double> b = mem_.read_bounds(values_[oi.src]);
    TensorValue y;
    y.dtype = judge::op_result_dtype(op.kind, from);
    y.sizes = x.sizes;
    y.bytes.resize(static_cast<size_t>(x.numel()) * element_size(y.dtype));
    elements(from, x.bytes.data(), y.dtype, y.bytes.data(), x.numel());
    b.resize(static_cast<size_t>(x.numel()), 0.0);
    const size_t xs = element_size(from), ys = element_size(y.dtype);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = bound(y.dtype, judge::element_value(from, x.bytes.data() + i * xs),
                   judge::element_value(y.dtype, y.bytes.data() + i * ys), b[i]);
    define(oi.result, std::move(y), out.layout, b);
    return OpStatus::success();
  }

  OpStatus view_copy(const Op& op, const OpInfo& oi) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    if (!out.error.empty()) return OpStatus::error(out.error);
    // The op's view over the source's logical elements (row-major: always viewable).
    // The source's elements and both views are scratch kept across ops and cases.
    thread_local TensorValue in;
    thread_local judge::StridedView row_major, v;
    mem_.read_into(values_[oi.src], in);
    row_major.sizes.assign(in.sizes.begin(), in.sizes.end());
    judge::strides_into(in.sizes, {}, row_major.strides);
    row_major.offset = 0;
    if (!judge::op_view_into(op, row_major, v))
      return OpStatus::error("naive reference: no view of a row-major source (judge_layouts bug)");
    if (v.sizes != out.layout.sizes)
      return OpStatus::error("naive reference: the op's view has sizes " + sizes_string(v.sizes) +
                             " but its result " + sizes_string(out.layout.sizes) +
                             " (judge_layouts bug)");
    thread_local std::vector<double> in_bounds;
    mem_.read_bounds_into(values_[oi.src], in_bounds);
    std::vector<double> bounds;
    if (!in_bounds.empty()) {
      bounds.resize(static_cast<size_t>(naive::numel_of(v.sizes)));
      naive::read_view(reinterpret_cast<const uint8_t*>(in_bounds.data()), v.offset, v.sizes, v.strides,
                       sizeof(double), reinterpret_cast<uint8_t*>(bounds.data()));
    }
    define(oi.result, naive::gather(in, v.offset, v.sizes, v.strides), out.layout, bounds);
    return OpStatus::success();
  }

  OpStatus view(const Op& op, const OpInfo& oi) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    if (!out.error.empty()) return OpStatus::error(out.error);
    const Window& src = values_[oi.src];
    const std::optional<judge::StridedView> v =
        judge::op_view(op, judge::StridedView{src.sizes, src.strides, src.offset});
    if (!v) return OpStatus::error("naive reference: no view (judge_layouts bug)");
    values_[oi.result] = Window{src.storage, v->offset, v->sizes, v->strides};
    return OpStatus::success();
  }

  const ProgramInfo& info_;
  Memory mem_;
  std::vector<Window> values_;
};

}  // namespace

PathResult run_naive_reference(const Case& c, const ProgramInfo& info) {
  NaiveReference ev(info);
  PathResult r = interpret(c, info, ev);
  if (!r.complete()) return r;
  if (c.has_inexact_ops())
    for (int v : info.outputs) r.output_bounds.push_back(ev.output_bounds(v));
  return r;
}

}  // namespace slicefuzz
