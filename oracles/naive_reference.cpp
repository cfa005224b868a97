// The naive reference: row-major buffers, one element at a time, on the judge's
// facts (judge_facts.h). Shares nothing with the kernels; torch is the other witness.
#include <cstring>
#include <string>

#include "oracles/judge_facts.h"
#include "oracles/oracle.h"
#include "oracles/values.h"

namespace slicefuzz {

namespace {

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// Returns an error message, or "" with `out` set.
std::string naive_slice(const TensorValue& in, const Op& op, TensorValue& out) {
  const int64_t r = static_cast<int64_t>(in.sizes.size());
  std::string why = judge::slice_error(static_cast<int>(r), op.dim, op.step);
  if (!why.empty()) return why;
  const judge::SliceSpan span = judge::normalize_slice_args(in.sizes, op.dim, op.start, op.end, op.step);
  const int64_t d = span.dim;
  const int64_t len = span.length;
  out.dtype = in.dtype;
  out.sizes = in.sizes;
  out.sizes[d] = len;
  const size_t es = element_size(in.dtype);
  const int64_t total = numel_of(out.sizes);
  out.bytes.assign(static_cast<size_t>(total) * es, 0);
  // Row-major strides of the input (the stride rule with the identity order).
  // Element indices stay below the input's numel, so int64 holds them from here on.
  const std::vector<int64_t> in_stride = judge::strides_for(in.sizes, {});
  // (With one element along d, idx[d] is 0 and a huge step is never multiplied.)
  const int64_t start = span.start, step = len > 1 ? op.step : 0;
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
        const size_t es = element_size(c.dtype);
        for (int64_t e = 0; e < t.numel(); ++e)
          judge::add_to_element(c.dtype, t.bytes.data() + e * es, op.scalar);
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
