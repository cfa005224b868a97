// The libtorch oracle: the only translation unit besides the adapter that sees ATen.
// Values are independent tensors (copy semantics). Each value is laid out with the
// case's dim order by torch itself (empty + permute), never by our stride rule, so
// the view facts below are an independent check of it.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/Logging.h>

#include <cstring>
#include <mutex>

#include "oracles/domain_adapter.h"
#include "oracles/oracle.h"
#include "oracles/values.h"

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

// A fresh tensor of `sizes` whose memory order is `dim_order` (outermost first).
at::Tensor empty_with_dim_order(at::IntArrayRef sizes, const std::vector<int>& dim_order,
                                at::ScalarType dtype) {
  const size_t r = sizes.size();
  // A select view has a lower rank than the case's dim order: lay its copies out
  // row-major (values do not depend on layout; only the order's rank must fit).
  if (dim_order.size() != r) {
    std::vector<int> identity(r);
    for (size_t i = 0; i < r; ++i) identity[i] = static_cast<int>(i);
    return empty_with_dim_order(sizes, identity, dtype);
  }
  c10::SmallVector<int64_t, 16> permuted(r), inverse(r);  // rank <= 16: no heap
  for (size_t i = 0; i < r; ++i) {
    permuted[i] = sizes[dim_order[i]];
    inverse[dim_order[i]] = static_cast<int64_t>(i);
  }
  return at::empty(permuted, at::TensorOptions().dtype(dtype)).permute(inverse);
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

// `canonical`: a fresh tensor of the view's sizes in the case's dim order (the
// slice's result, which the oracle allocates anyway).
bool view_is_dense(const at::Tensor& view, const at::Tensor& canonical) {
  if (view.numel() == 0) return true;
  for (int64_t j = 0; j < view.dim(); ++j)
    if (view.size(j) > 1 && view.stride(j) != canonical.stride(j)) return false;
  return true;
}

// torch refuses bool + int; slicefuzz defines bool add_ as addition mod 2.
void add_scalar(at::Tensor& t, int64_t k, ScalarType dtype) {
  if (dtype == ScalarType::Bool) {
    if (k & 1) t.logical_not_();
  } else {
    t.add_(at::Scalar(k));
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

}  // namespace

TorchOracleResult run_torch_oracle(const Case& c, const ProgramInfo& info) {
  configure_torch_once();
  // No autograd: without it every view (permute, slice) also allocated autograd
  // view metadata; measured at ~40% of the oracle's allocations.
  c10::InferenceMode no_autograd;
  TorchOracleResult res;
  PathResult& r = res.path;
  const at::ScalarType dtype = to_aten(c.dtype);
  const std::vector<int> dim_order = c.effective_dim_order();
  std::vector<at::Tensor> values(info.values.size());

  TensorValue input = make_input_value(c.dtype, c.sizes);
  at::Tensor row_major =
      at::from_blob(input.bytes.data(), c.sizes, at::TensorOptions().dtype(dtype));
  values[0] = empty_with_dim_order(c.sizes, dim_order, dtype);
  values[0].copy_(row_major);

  for (size_t i = 0; i < c.ops.size(); ++i) {
    const Op& op = c.ops[i];
    const OpInfo& oi = info.ops[i];
    try {
      switch (op.kind) {
        case OpKind::SliceCopy: {
          const at::Tensor& src = values[oi.src];
          at::Tensor view = slice_view_in_torch(src, op);
          TorchSliceView facts;
          facts.op = static_cast<int>(i);
          facts.storage_offset = view.storage_offset() - src.storage_offset();
          facts.sizes = view.sizes().vec();
          facts.strides = view.strides().vec();
          values[oi.result] = empty_with_dim_order(view.sizes(), dim_order, dtype);
          facts.dense = view_is_dense(view, values[oi.result]);
          res.slice_views.push_back(std::move(facts));
          values[oi.result].copy_(view);
          break;
        }
        // Eager ops (version 2): a view IS torch's view, sharing the base's storage,
        // so add_/copy_ through it (or through the base) are seen by both.
        case OpKind::Slice: {
          values[oi.result] = slice_view_in_torch(values[oi.src], op);
          break;
        }
        case OpKind::Select:
          values[oi.result] = at::select(values[oi.src], op.dim, op.index);
          break;
        case OpKind::AddOut: {
          const at::Tensor& src = values[oi.src];
          values[oi.result] = empty_with_dim_order(src.sizes(), dim_order, dtype);
          values[oi.result].copy_(src);
          add_scalar(values[oi.result], op.scalar, c.dtype);
          break;
        }
        case OpKind::Clone: {
          const at::Tensor& src = values[oi.src];
          values[oi.result] = empty_with_dim_order(src.sizes(), dim_order, dtype);
          values[oi.result].copy_(src);
          break;
        }
        case OpKind::Add: add_scalar(values[oi.target], op.scalar, c.dtype); break;
        case OpKind::Copy:
          // slicefuzz programs do not broadcast; torch's copy_ would.
          if (!values[oi.target].sizes().equals(values[oi.src].sizes()))
            throw std::invalid_argument("copy_: sizes differ (slicefuzz does not broadcast)");
          // clone first: the source is read whole before the write (the case
          // language's copy_; torch's refuses partially overlapping views).
          values[oi.target].copy_(values[oi.src].clone());
          break;
      }
    } catch (const c10::Error& e) {
      r.error_op = static_cast<int>(i);
      r.error_message = e.what_without_backtrace();
      return res;
    } catch (const std::exception& e) {
      r.error_op = static_cast<int>(i);
      r.error_message = e.what();
      return res;
    }
    if (static_cast<int>(i) == info.failing_op) {
      r.ran_past_failure = true;
      return res;
    }
  }
  for (int v : info.outputs) r.outputs.push_back(to_value(values[v], c.dtype));
  return res;
}

}  // namespace slicefuzz
