// The naive reference: row-major buffers, one element at a time, its own index
// arithmetic in 128 bits. Deliberately shares nothing with the kernels' slicing.
#include <cstring>
#include <string>

#include "kernels/util/element_ops.h"
#include "oracles/oracle.h"

namespace slicefuzz {

namespace {

using i128 = __int128;

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// Returns an error message, or "" with `out` set.
std::string naive_slice(const TensorValue& in, const Op& op, TensorValue& out) {
  const int64_t r = static_cast<int64_t>(in.sizes.size());
  if (r == 0) return "cannot slice a 0-dim tensor";
  if (op.dim < -r || op.dim >= r) return "dim out of range";
  if (op.step <= 0) return "step must be positive";
  const int64_t d = op.dim < 0 ? op.dim + r : op.dim;
  const i128 n = in.sizes[d];
  auto norm = [&](std::optional<int64_t> v, i128 dflt) -> i128 {
    if (!v) return dflt;
    i128 x = *v;
    if (x < 0) x += n;
    return x < 0 ? 0 : x > n ? n : x;
  };
  const i128 s = norm(op.start, 0), e = norm(op.end, n);
  const i128 len = e > s ? (e - s + op.step - 1) / op.step : 0;

  out.dtype = in.dtype;
  out.sizes = in.sizes;
  out.sizes[d] = static_cast<int64_t>(len);
  const size_t es = element_size(in.dtype);
  const int64_t total = numel_of(out.sizes);
  out.bytes.assign(static_cast<size_t>(total) * es, 0);
  // Row-major strides of the input, computed here from its sizes (no shared code).
  // Element indices stay below the input's numel, so int64 holds them from here on.
  std::vector<int64_t> in_stride(r, 1);
  for (int64_t k = r - 2; k >= 0; --k) in_stride[k] = in_stride[k + 1] * in.sizes[k + 1];
  // (With one element along d, idx[d] is 0 and a huge step is never multiplied.)
  const int64_t start = static_cast<int64_t>(s), step = len > 1 ? op.step : 0;
  // Every output index in row-major order (an odometer), each mapped to its
  // input element: coordinate idx[k], except start + idx[d] * step along d.
  std::vector<int64_t> idx(r, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t src_flat = 0;
    for (int64_t k = 0; k < r; ++k)
      src_flat += (k == d ? start + idx[k] * step : idx[k]) * in_stride[k];
    std::memcpy(&out.bytes[flat * es], &in.bytes[static_cast<size_t>(src_flat) * es], es);
    for (int64_t k = r - 1; k >= 0 && ++idx[k] == out.sizes[k]; --k) idx[k] = 0;
  }
  return {};
}

}  // namespace

PathResult run_naive_reference(const Case& c, const ProgramInfo& info) {
  PathResult r;
  std::vector<TensorValue> values(info.values.size());
  values[0] = make_input_value(c.dtype, c.sizes);
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const Op& op = c.ops[i];
    const OpInfo& oi = info.ops[i];
    std::string err;
    switch (op.kind) {
      case OpKind::SliceCopy: err = naive_slice(values[oi.src], op, values[oi.result]); break;
      case OpKind::Clone: values[oi.result] = values[oi.src]; break;
      case OpKind::Add: {
        TensorValue& t = values[oi.target];
        add_scalar_elements(c.dtype, t.bytes.data(), t.numel(), op.scalar);
        break;
      }
      case OpKind::Copy:
        if (values[oi.target].sizes != values[oi.src].sizes) err = "copy_: sizes differ";
        else values[oi.target].bytes = values[oi.src].bytes;
        break;
    }
    if (!err.empty()) {
      r.error_op = static_cast<int>(i);
      r.error_message = err;
      return r;
    }
    if (static_cast<int>(i) == info.failing_op) {
      r.ran_past_failure = true;
      return r;
    }
  }
  for (int v : info.outputs) r.outputs.push_back(values[v]);
  return r;
}

}  // namespace slicefuzz
