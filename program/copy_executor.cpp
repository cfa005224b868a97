#include "program/tensor_conversion.h"
#include "program/copy_executor.h"

#include <cstring>
#include <memory>


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
  return o;
}

bool untouched(const OwnedTensor& o) {
  for (size_t i = 0; i < o.t.capacity_nbytes; ++i)
    if (o.buffer[i] != kSentinel) return false;
  return true;
}
}  // namespace

Tensor value_meta(const Case& c, const std::vector<int64_t>& sizes) {
  Tensor t;
  // c.effective_dim_order() without its vector (this runs for every tensor).
  uint8_t dim_order[kMaxRank] = {};
  for (size_t i = 0; i < sizes.size() && i < kMaxRank; ++i)
    dim_order[i] = static_cast<uint8_t>(c.dim_order.empty() ? i : c.dim_order[i]);
  make_tensor_meta(c.dtype, static_cast<int>(sizes.size()), sizes.data(), dim_order, t);
  return t;
}

PathResult run_copy_path(const Case& c, const ProgramInfo& info, const TensorValue& input,
                         const KernelTable& k) {
  PathResult r;
  std::vector<OwnedTensor> values(info.values.size());
  values[0] = allocate(value_meta(c, c.sizes));
  write_tensor_value(input, values[0].t);

  for (size_t i = 0; i < c.ops.size(); ++i) {
    const Op& op = c.ops[i];
    const OpInfo& oi = info.ops[i];
    const bool must_fail = static_cast<int>(i) == info.failing_op;
    KernelRuntimeContext ctx;
    OwnedTensor* out = nullptr;
    if (oi.result >= 0) {
      // A failing slice gets an out shaped like its input: the kernel must refuse
      // before touching it.
      const ValueInfo& v = info.values[oi.result];
      values[oi.result] = allocate(value_meta(c, must_fail ? info.values[oi.src].sizes : v.sizes));
      out = &values[oi.result];
    }
    switch (op.kind) {
      case OpKind::SliceCopy:
        k.slice_copy(ctx, values[oi.src].t, op.dim, op.start, op.end, op.step, out->t);
        break;
      case OpKind::Clone: k.clone(ctx, values[oi.src].t, MemoryFormat::Preserve, out->t); break;
      case OpKind::Add: k.add(ctx, values[oi.target].t, op.scalar); break;
      case OpKind::Copy: k.copy(ctx, values[oi.target].t, values[oi.src].t, false); break;
    }
    if (!ctx.ok()) {
      r.error_op = static_cast<int>(i);
      r.error_message = ctx.message();
      r.partial_write = out != nullptr && !untouched(*out);
      return r;
    }
    if (must_fail) {
      r.ran_past_failure = true;
      return r;
    }
  }
  for (int v : info.outputs) r.outputs.push_back(to_tensor_value(values[v].t));
  return r;
}

}  // namespace slicefuzz
