// The libtorch oracle: the only translation unit besides the adapter that sees ATen.
// An evaluator of the shared op loop (vocab/interpreter.h), which owns dispatch,
// the failing-op protocol and output collection; each member below only runs one
// op in torch. Values are independent tensors (copy semantics). Each value that
// owns its bytes is laid out in its own dim order (info.values[v].dim_order) by
// torch itself (empty, its strides then permuted as permute does), never by our
// stride rule, so the view facts below are an independent check of it. A view-copy op (op_is_view_copy) is
// torch's view of the source (the op the table names), copied into the fresh result; the view's
// storage offset, sizes and strides are the alias facts the rewrite path is held
// to (TorchOpView). Where torch 1.13 differs from our semantics, the domain
// adapter (domain_adapter.h) maps or refuses the arguments first.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <c10/util/Logging.h>

#include <array>
#include <cstring>
#include <mutex>
#include <string_view>

#include "oracles/domain_adapter.h"
#include "oracles/judge_layouts.h"
#include "oracles/oracle.h"
#include "oracles/values.h"
#include "vocab/interpreter.h"

namespace slicefuzz {

namespace {

at::ScalarType to_aten(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return at::kBool;
    case ScalarType::Byte: return at::kByte;
    case ScalarType::Char: return at::kChar;
    case ScalarType::Short: return at::kShort;
    case ScalarType::Int: return at::kInt;
    case ScalarType::Long: return at::kLong;
    case ScalarType::Half: return at::kHalf;
    case ScalarType::BFloat16: return at::kBFloat16;
    case ScalarType::Float: return at::kFloat;
    case ScalarType::Double: return at::kDouble;
  }
  return at::kFloat;
}

// A fresh tensor of `sizes` whose memory order is `dim_order` (outermost first;
// a permutation of 0..rank-1).
at::Tensor empty_with_dim_order(at::IntArrayRef sizes, const std::vector<int>& dim_order,
                                at::ScalarType dtype, bool meta = false) {
  const at::TensorOptions options =
      meta ? at::TensorOptions().dtype(dtype).device(at::kMeta) : at::TensorOptions().dtype(dtype);
  const size_t r = sizes.size();
  bool identity = true;
  for (size_t i = 0; i < r; ++i) identity = identity && dim_order[i] == static_cast<int>(i);
  // Row-major: torch's own contiguous tensor (permuting by the identity would
  // only add a view of it, a TensorImpl and its allocations per value).
  if (identity) return at::empty(sizes, options);
  c10::SmallVector<int64_t, 16> permuted(r), inverse(r);  // rank <= 16: no heap
  for (size_t i = 0; i < r; ++i) {
    permuted[i] = sizes[dim_order[i]];
    inverse[dim_order[i]] = static_cast<int64_t>(i);
  }
  at::Tensor t = at::empty(permuted, options);
  // What .permute(inverse) returns, made in place: dim i takes the size and
  // torch's contiguous stride of the empty tensor's dim inverse[i]. permute
  // itself would build three vectors and a second TensorImpl per value (the
  // oracle's largest malloc site, issue 11); as_strided_ only re-describes the
  // fresh tensor. The strides are still torch's, only permuted.
  c10::SmallVector<int64_t, 16> strides(r);
  for (size_t i = 0; i < r; ++i) strides[i] = t.stride(inverse[i]);
  t.as_strided_(sizes, strides, 0);
  return t;
}

TensorValue to_value(const at::Tensor& t, ScalarType dtype) {
  TensorValue v;
  v.dtype = dtype;
  v.sizes = t.sizes().vec();
  at::Tensor c = t.contiguous();
  v.bytes.resize(c.nbytes());
  if (c.nbytes()) std::memcpy(v.bytes.data(), c.data_ptr(), c.nbytes());
  return v;
}

// `canonical`: a fresh tensor of the view's sizes in the result value's dim order
// (the op's result, which the oracle allocates anyway).
bool view_is_dense(const at::Tensor& view, const at::Tensor& canonical) {
  if (view.numel() == 0) return true;
  for (int64_t j = 0; j < view.dim(); ++j)
    if (view.size(j) > 1 && view.stride(j) != canonical.stride(j)) return false;
  return true;
}

// t.add_(at::Scalar(k)) as libtorch 1.13 runs it, without its per-call tensors.
// torch's add_(Scalar) wraps k in a fresh 0-dim int64 wrapped-number tensor,
// and TensorIterator converts that operand to t's dtype with .to() (a second
// fresh tensor): six heap allocations per add_, the oracle's largest site
// (issue 11). The same two steps, still done by torch, into tensors kept per
// thread: k goes into a kept 0-dim int64 tensor, copy_ converts it into a kept
// 0-dim tensor of t's dtype (.to() is that copy_), and t.add_ of it has nothing
// left to promote. Probed against t.add_(at::Scalar(k)): equal bytes for every
// non-bool dtype, ~2,000 values of k (the int64 extremes, the float16/bfloat16
// rounding edges, random), contiguous, strided and 0-dim t.
void add_int64_in_torch(at::Tensor& t, int64_t k) {
  thread_local at::Tensor k_as_int64 = at::empty({}, at::TensorOptions().dtype(at::kLong));
  thread_local std::array<at::Tensor, 64> k_as_dtype;  // by at::ScalarType
  const auto slot = static_cast<size_t>(t.scalar_type());
  if (slot >= k_as_dtype.size()) {  // a dtype the case language never makes
    t.add_(at::Scalar(k));
    return;
  }
  at::Tensor& converted = k_as_dtype[slot];
  if (!converted.defined()) converted = at::empty({}, at::TensorOptions().dtype(t.scalar_type()));
  *k_as_int64.data_ptr<int64_t>() = k;
  converted.copy_(k_as_int64);
  t.add_(converted);
}

// mul(t, k) in place: k cast to t's dtype by torch (a zero-dim tensor of it, as
// add_int64_in_torch casts k), then torch's product in that dtype (for bool,
// torch's mul is `and`).
void mul_int64_in_torch(at::Tensor& t, int64_t k) {
  at::Tensor k_as_dtype = at::scalar_tensor(at::Scalar(k), at::TensorOptions().dtype(at::kLong)).to(t.scalar_type());
  t.mul_(k_as_dtype);
}

// torch refuses bool + int; slicefuzz defines bool add_ as addition mod 2.
void add_scalar(at::Tensor& t, int64_t k, ScalarType dtype) {
  if (dtype == ScalarType::Bool) {
    if (k & 1) t.logical_not_();
  } else {
    add_int64_in_torch(t, k);
  }
}

// torch's view of slice(src, op), with the arguments mapped into the domain
// libtorch 1.13 handles (domain_adapter.h); slice_copy copies it, slice keeps it.
at::Tensor slice_view_in_torch(const at::Tensor& src, const Op& op) {
  // Index the size only when torch itself will accept the dim.
  int64_t size = 0;
  if (src.dim() > 0 && op.dim >= -src.dim() && op.dim < src.dim())
    size = src.size(op.dim < 0 ? op.dim + src.dim() : op.dim);
  TorchSliceArgs a = adapt_slice_args_for_torch(size, op.start, op.end, op.step);
  c10::optional<int64_t> start, end;
  if (a.start) start = *a.start;
  if (a.end) end = *a.end;
  return at::slice(src, op.dim, start, end, a.step);
}

// squeeze_copy(dims) in torch 1.13: squeeze.dim once per dim, highest first.
at::Tensor squeeze_view_in_torch(const at::Tensor& src, const Op& op) {
  at::Tensor v = src;
  for (int64_t d : squeeze_dims_for_torch(src.dim(), op.ints)) v = at::squeeze(v, d);
  return v;
}

// Where the case language refuses what torch 1.13 runs (domain_adapter.h): each
// op's own entry; an op with none is torch's to refuse.
void check_schema_op_domain_for_torch(const at::Tensor& src, const Op& op) {
  switch (op.kind) {
    case OpKind::UnsqueezeCopy: return check_unsqueeze_for_torch(src.dim());
    case OpKind::ExpandCopy: return check_expand_sizes_for_torch(op.ints);
    default: return;
  }
}

// torch's view of any other view-copy op: the op the table names
// (`torch_view`, "name" or "name.overload") called by name through torch's
// dispatcher, with the op's arguments in schema order and torch's defaults for
// the rest, so that a new op needs no code here (vocab/op_schema.h).
at::Tensor schema_view_in_torch(const at::Tensor& src, const Op& op) {
  check_schema_op_domain_for_torch(src, op);
  // torch 1.13 has no squeeze.dims: squeeze.dim once per dim (domain_adapter.h).
  if (op.kind == OpKind::SqueezeCopy) return squeeze_view_in_torch(src, op);
  // torch 1.13's slice cannot take every int64: its arguments mapped first.
  if (op.kind == OpKind::SliceCopy) return slice_view_in_torch(src, op);
  const OpKindInfo& info = op_kind_info(op.kind);
  const std::string_view named = info.torch_view;
  if (named.empty())
    throw std::invalid_argument(std::string(info.name) + ": the op table names no torch view op");
  const size_t dot = named.find('.');
  const std::string name = "aten::" + std::string(named.substr(0, dot));
  const std::string overload = dot == std::string_view::npos ? "" : std::string(named.substr(dot + 1));
  const c10::OperatorHandle handle = c10::Dispatcher::singleton().findSchemaOrThrow(name.c_str(), overload.c_str());
  torch::jit::Stack stack;
  stack.emplace_back(src);
  for (const ArgSpec& a : info.args) {
    switch (a.kind) {
      case ArgKind::Scalar:
      case ArgKind::Int: stack.emplace_back(op_int(op, a.slot)); break;
      case ArgKind::OptInt: {
        const std::optional<int64_t>& v = op_opt_int(op, a.slot);
        stack.emplace_back(v ? c10::IValue(*v) : c10::IValue());
        break;
      }
      case ArgKind::IntList:
      case ArgKind::DimList: stack.emplace_back(op.ints); break;
      case ArgKind::DimOrder:
      case ArgKind::NamedTensor:
      case ArgKind::Tensor: throw std::invalid_argument("no torch view takes this argument");
    }
  }
  const std::vector<c10::Argument>& params = handle.schema().arguments();
  if (stack.size() > params.size())
    throw std::invalid_argument(name + " takes fewer arguments than " + info.name + "'s schema");
  for (size_t i = stack.size(); i < params.size(); ++i) {
    if (!params[i].default_value())
      throw std::invalid_argument(name + "'s argument " + params[i].name() + " has no default");
    stack.push_back(*params[i].default_value());
  }
  handle.callBoxed(&stack);
  return stack.at(0).toTensor();
}

void configure_torch_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Programs are tiny: intra-op threads only cost wake-ups and nondeterminism.
    at::set_num_threads(1);
    // Every c10::Error symbolises a backtrace (dladdr per frame): measured at half
    // of all oracle time when ~5% of cases raise. The message is all we report.
    c10::SetStackTraceFetcher([] { return std::string(); });
  });
}

class TorchEvaluator {
 public:
  // `meta`: views only (run_torch_views): every tensor on the meta device.
  TorchEvaluator(const ProgramInfo& info, TorchOracleResult& res, bool meta = false)
      : info_(info), res_(res), values_(info.values.size()), meta_(meta) {
    // Each input in its own layout and dtype, holding the documented fill (read
    // in place from the fill's cache: torch copies it into the value).
    const std::vector<int64_t> starts = input_fill_starts(info);
    for (size_t k = 0; k < starts.size(); ++k) {
      const ValueInfo& in = info.values[k];
      if (meta_) {
        values_[k] = fresh(static_cast<int>(k), in.sizes);
        continue;
      }
      const TensorValue& fill = cached_input_value(in.dtype, in.sizes, starts[k]);
      at::Tensor row_major = at::from_blob(const_cast<uint8_t*>(fill.bytes.data()), in.sizes,
                                           at::TensorOptions().dtype(to_aten(in.dtype)));
      values_[k] = fresh(static_cast<int>(k), in.sizes);
      values_[k].copy_(row_major);
    }
  }

  // view_copy: the functional op first (its own member: see there), then torch's view.
  OpStatus ViewCopy(const Op& op, const OpInfo& oi, int k) {
    return run([&] {
      const at::Tensor& src = values_[oi.src];
      check_view_sizes_for_torch(op.ints);
      // The functional op first: it raises torch's own errors for bad sizes, and
      // copies even where torch cannot view the source.
      at::Tensor copied = at::view_copy(src, op.ints);
      at::Tensor& out = values_[oi.result] = fresh(oi.result, copied.sizes());
      TorchOpView facts;
      facts.op = k;
      facts.sizes = copied.sizes().vec();
      try {
        at::Tensor view = src.view(op.ints);
        facts.storage_offset = view.storage_offset() - src.storage_offset();
        facts.strides = view.strides().vec();
        facts.dense = view_is_dense(view, out);
      } catch (const c10::Error&) {
        facts.dense = false;  // torch cannot view it: never an alias
      }
      res_.op_views.push_back(std::move(facts));
      if (!meta_) out.copy_(copied);
    });
  }
  // Every other view-copy op: torch's view by the table's name, copied.
  OpStatus schema_op(const Op& op, const OpInfo& oi, int k) {
    return run([&] {
      if (!op_is_view_copy(op.kind))
        throw std::invalid_argument(std::string("torch oracle: no semantics for ") + op_kind_name(op.kind));
      const at::Tensor view = schema_view_in_torch(values_[oi.src], op);
      copy_view(k, oi, view);
      // et_view, the alias prim op of such an op, keeps the element count: a view
      // that holds more or fewer elements than its source (a broadcast, an empty
      // expand) is no alias of it, however its strides look.
      // Nor one that lists the elements in another order (a permute): et_view
      // takes sizes only and re-reads its input's elements in their order.
      if (std::string_view(op_alias_prim(op.kind)) == "et_view" &&
          (view.numel() != values_[oi.src].numel() ||
           !judge::op_keeps_element_order(op, values_[oi.src].sizes().vec())))
        res_.op_views.back().dense = false;
    });
  }
  OpStatus Clone(const Op& op, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& src = values_[oi.src];
      // torch's permute refuses an order that is not a permutation of the dims
      // (the parser admits only entries 0..15, so permute's wrapping of negative
      // dims never comes into play).
      if (op.dim_order)
        (void)src.permute(std::vector<int64_t>(op.dim_order->begin(), op.dim_order->end()));
      values_[oi.result] = fresh(oi.result, src.sizes());
      if (!meta_) values_[oi.result].copy_(src);
    });
  }
  OpStatus AddOut(const Op& op, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& src = values_[oi.src];
      values_[oi.result] = fresh(oi.result, src.sizes());
      if (!meta_) values_[oi.result].copy_(src);
      if (!meta_) add_scalar(values_[oi.result], op.scalar, info_.values[oi.result].dtype);
    });
  }
  OpStatus MulOut(const Op& op, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& src = values_[oi.src];
      values_[oi.result] = fresh(oi.result, src.sizes());
      if (!meta_) values_[oi.result].copy_(src);
      if (!meta_) mul_int64_in_torch(values_[oi.result], op.scalar);
    });
  }
  // add and mul of two tensors: torch's add.Tensor and mul.Tensor, on operands of
  // one dtype and one size (torch would cast and broadcast; programs do neither).
  OpStatus AddTensor(const Op&, const OpInfo& oi, int) {
    return two_tensors(oi, "add", [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); });
  }
  OpStatus MulTensor(const Op&, const OpInfo& oi, int) {
    return two_tensors(oi, "mul", [](const at::Tensor& a, const at::Tensor& b) { return at::mul(a, b); });
  }
  template <typename F>
  OpStatus two_tensors(const OpInfo& oi, const char* name, F f) {
    return run([&] {
      const at::Tensor& a = values_[oi.src];
      const at::Tensor& b = values_[oi.other];
      if (a.scalar_type() != b.scalar_type())
        throw std::invalid_argument(std::string(name) + ": dtypes differ (slicefuzz programs do not cast)");
      if (a.sizes() != b.sizes())
        throw std::invalid_argument(std::string(name) + ": sizes differ (slicefuzz programs do not broadcast)");
      values_[oi.result] = fresh(oi.result, a.sizes());
      if (!meta_) values_[oi.result].copy_(f(a, b));
    });
  }
  OpStatus Relu(const Op&, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& src = values_[oi.src];
      values_[oi.result] = fresh(oi.result, src.sizes());
      if (!meta_) values_[oi.result].copy_(at::relu(src));
    });
  }
  // torch's own kernels on the source as it lies (promoting an integer tensor to
  // float32): their rounding depends on the layout (vectorised or not), so these
  // values are compared within the naive reference's bounds (oracles/tolerance.h).
  OpStatus Sigmoid(const Op&, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& src = values_[oi.src];
      values_[oi.result] = fresh(oi.result, src.sizes());
      if (!meta_) values_[oi.result].copy_(at::sigmoid(src));
    });
  }
  OpStatus Gelu(const Op&, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& src = values_[oi.src];
      values_[oi.result] = fresh(oi.result, src.sizes());
      if (!meta_) values_[oi.result].copy_(at::gelu(src));
    });
  }
  OpStatus IndexCopy(const Op& op, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& self = values_[oi.src];
      const at::Tensor& source = values_[oi.other];
      // slicefuzz programs do not cast; the index is an int64 tensor of the entries.
      if (self.scalar_type() != source.scalar_type())
        throw std::invalid_argument("index_copy: dtypes differ (slicefuzz programs do not cast)");
      at::Tensor result;
      if (!meta_) result = at::index_copy(self, op.dim, at::tensor(op.ints, at::kLong), source);
      values_[oi.result] = fresh(oi.result, self.sizes());
      if (!meta_) values_[oi.result].copy_(result);
    });
  }
  OpStatus IndexPut(const Op& op, const OpInfo& oi, int) {
    return run([&] {
      const at::Tensor& self = values_[oi.src];
      const at::Tensor& values = values_[oi.other];
      if (self.scalar_type() != values.scalar_type())
        throw std::invalid_argument("index_put: dtypes differ (slicefuzz programs do not cast)");
      // indices = [None] * dim + [index] (a 0-dim self: [index], which torch refuses).
      const int64_t rank = self.dim();
      const int64_t dim = rank > 0 && op.dim < 0 ? op.dim + rank : op.dim;
      if (rank > 0 && (dim < 0 || dim >= rank))
        throw std::invalid_argument("index_put: dim " + std::to_string(op.dim) + " is out of range");
      c10::List<c10::optional<at::Tensor>> indices;
      for (int64_t i = 0; i < dim; ++i) indices.push_back(c10::nullopt);
      indices.push_back(at::tensor(op.ints, at::kLong));
      at::Tensor result;
      if (!meta_) result = at::index_put(self, indices, values);
      values_[oi.result] = fresh(oi.result, self.sizes());
      if (!meta_) values_[oi.result].copy_(result);
    });
  }
  // Eager ops (version 2): a view IS torch's view, sharing the base's storage,
  // so add_/copy_ through it (or through the base) are seen by both.
  OpStatus Slice(const Op& op, const OpInfo& oi, int) {
    return run([&] { values_[oi.result] = slice_view_in_torch(values_[oi.src], op); });
  }
  OpStatus Select(const Op& op, const OpInfo& oi, int) {
    return run([&] { values_[oi.result] = at::select(values_[oi.src], op.dim, op.index); });
  }
  OpStatus Add(const Op& op, const OpInfo& oi, int) {
    return run([&] {
      if (!meta_) add_scalar(values_[oi.target], op.scalar, info_.values[oi.target].dtype);
    });
  }
  OpStatus Copy(const Op&, const OpInfo& oi, int) {
    return run([&] {
      // slicefuzz programs do not cast; torch's copy_ would.
      if (values_[oi.target].scalar_type() != values_[oi.src].scalar_type())
        throw std::invalid_argument("copy_: dtypes differ (slicefuzz programs do not cast)");
      // slicefuzz programs do not broadcast; torch's copy_ would.
      if (!values_[oi.target].sizes().equals(values_[oi.src].sizes()))
        throw std::invalid_argument("copy_: sizes differ (slicefuzz does not broadcast)");
      // As the user wrote it: torch refuses partially overlapping views itself
      // (the analysis predicts it, judge_overlap.h) and admits the rest.
      if (!meta_) values_[oi.target].copy_(values_[oi.src]);
    });
  }

  void before_op(int) {}
  void after_op(int) {}
  TensorValue output(int v) {
    if (!meta_) return to_value(values_[v], info_.values[v].dtype);
    TensorValue sizes_only;
    sizes_only.dtype = info_.values[v].dtype;
    sizes_only.sizes = values_[v].sizes().vec();
    return sizes_only;
  }

 private:
  template <class F>
  static OpStatus run(F&& f) {
    try {
      f();
    } catch (const c10::Error& e) {
      return OpStatus::error(e.what_without_backtrace());
    } catch (const std::exception& e) {
      return OpStatus::error(e.what());
    }
    return OpStatus::success();
  }

  // A fresh tensor for value `v` of `sizes`, in the value's own dim order and
  // dtype. (Past an op the judge says must fail, the value has no known layout:
  // row-major then; the loop stops right after.)
  at::Tensor fresh(int v, at::IntArrayRef sizes) {
    const ValueInfo& vi = info_.values[v];
    if (vi.known && vi.dim_order.size() == sizes.size())
      return empty_with_dim_order(sizes, vi.dim_order, to_aten(vi.dtype), meta_);
    std::vector<int> order(sizes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    return empty_with_dim_order(sizes, order, to_aten(vi.dtype), meta_);
  }

  // Copies torch's `view` of op k's source into the op's fresh result and records
  // the view's facts.
  void copy_view(int k, const OpInfo& oi, const at::Tensor& view) {
    const at::Tensor& src = values_[oi.src];
    TorchOpView facts;
    facts.op = k;
    facts.storage_offset = view.storage_offset() - src.storage_offset();
    facts.sizes = view.sizes().vec();
    facts.strides = view.strides().vec();
    values_[oi.result] = fresh(oi.result, view.sizes());
    facts.dense = view_is_dense(view, values_[oi.result]);
    res_.op_views.push_back(std::move(facts));
    if (!meta_) values_[oi.result].copy_(view);
  }

  const ProgramInfo& info_;
  TorchOracleResult& res_;
  std::vector<at::Tensor> values_;
  bool meta_ = false;
};

}  // namespace

TorchOracleResult run_torch_oracle(const Case& c, const ProgramInfo& info) {
  configure_torch_once();
  // No autograd: without it every view (permute, slice) also allocated autograd
  // view metadata; measured at ~40% of the oracle's allocations.
  c10::InferenceMode no_autograd;
  TorchOracleResult res;
  res.op_views.reserve(c.ops.size());  // at most one per op: no regrowth
  TorchEvaluator ev(info, res);
  res.path = interpret(c, info, ev);
  return res;
}

TorchOracleResult run_torch_views(const Case& c, const ProgramInfo& info) {
  configure_torch_once();
  c10::InferenceMode no_autograd;
  TorchOracleResult res;
  res.op_views.reserve(c.ops.size());
  TorchEvaluator ev(info, res, /*meta=*/true);
  res.path = interpret(c, info, ev);
  return res;
}

}  // namespace slicefuzz
