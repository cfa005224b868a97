// The naive reference: one element at a time, on the judge's facts
// (judge_facts.h). Shares nothing with the kernels; torch is the other witness.
//
// It models storage itself, as eager PyTorch has it: every value is a strided
// window (offset, sizes, strides) onto a storage. The input's storage is laid out
// with the case's dim order (the stride rule); a copy (slice_copy, clone, add)
// gets a fresh row-major storage; a view (slice, select) is a new window onto
// its source's storage, so add_ and copy_ through any window are seen by all.
#include <cstring>
#include <string>

#include "oracles/judge_facts.h"
#include "oracles/oracle.h"
#include "oracles/values.h"

namespace slicefuzz {

namespace {

using Storage = std::vector<uint8_t>;

struct Window {
  int storage = -1;
  int64_t offset = 0;  // elements
  std::vector<int64_t> sizes, strides;
};

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// Storage element index of every logical element of `w`, in row-major order (an
// odometer over the window's indices).
std::vector<int64_t> element_positions(const Window& w) {
  const int64_t total = numel_of(w.sizes);
  const size_t r = w.sizes.size();
  std::vector<int64_t> pos(static_cast<size_t>(total));
  std::vector<int64_t> idx(r, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t p = w.offset;
    for (size_t k = 0; k < r; ++k) p += idx[k] * w.strides[k];
    pos[flat] = p;
    for (size_t k = r; k-- > 0 && ++idx[k] == w.sizes[k];) idx[k] = 0;
  }
  return pos;
}

class Memory {
 public:
  explicit Memory(ScalarType t) : dtype_(t), es_(element_size(t)) {}

  // A fresh storage holding `value` (row-major logical elements) laid out with
  // `dim_order` (empty: row-major).
  Window fresh(const TensorValue& value, const std::vector<int>& dim_order) {
    Window w{static_cast<int>(storages_.size()), 0, value.sizes,
             judge::strides_for(value.sizes, dim_order)};
    storages_.emplace_back(value.bytes.size());
    write(w, value.bytes);
    return w;
  }
  // The window's logical elements, row-major.
  TensorValue read(const Window& w) const {
    TensorValue v;
    v.dtype = dtype_;
    v.sizes = w.sizes;
    const std::vector<int64_t> pos = element_positions(w);
    v.bytes.resize(pos.size() * es_);
    const Storage& s = storages_[w.storage];
    for (size_t i = 0; i < pos.size(); ++i)
      std::memcpy(&v.bytes[i * es_], &s[static_cast<size_t>(pos[i]) * es_], es_);
    return v;
  }
  void write(const Window& w, const std::vector<uint8_t>& row_major) {
    const std::vector<int64_t> pos = element_positions(w);
    Storage& s = storages_[w.storage];
    for (size_t i = 0; i < pos.size(); ++i)
      std::memcpy(&s[static_cast<size_t>(pos[i]) * es_], &row_major[i * es_], es_);
  }

 private:
  ScalarType dtype_;
  size_t es_;
  std::vector<Storage> storages_;
};

// The logical value of slice(in, op) (requires a valid slice), row-major.
TensorValue slice_value(const TensorValue& in, const Op& op) {
  const judge::SliceSpan span = judge::normalize_slice_args(in.sizes, op.dim, op.start, op.end, op.step);
  Window w{0, span.start * judge::strides_for(in.sizes, {})[span.dim], in.sizes,
           judge::strides_for(in.sizes, {})};
  w.sizes[span.dim] = span.length;
  // (With one element along d a huge step is never multiplied.)
  if (span.length > 1) w.strides[span.dim] *= span.step;
  TensorValue out;
  out.dtype = in.dtype;
  out.sizes = w.sizes;
  const size_t es = element_size(in.dtype);
  const std::vector<int64_t> pos = element_positions(w);
  out.bytes.resize(pos.size() * es);
  for (size_t i = 0; i < pos.size(); ++i)
    std::memcpy(&out.bytes[i * es], &in.bytes[static_cast<size_t>(pos[i]) * es], es);
  return out;
}

void add_all(TensorValue& v, int64_t k) {
  const size_t es = element_size(v.dtype);
  for (int64_t e = 0; e < v.numel(); ++e) judge::add_to_element(v.dtype, v.bytes.data() + e * es, k);
}

}  // namespace

PathResult run_naive_reference(const Case& c, const ProgramInfo& info) {
  PathResult r;
  Memory mem(c.dtype);
  std::vector<Window> values(info.values.size());
  values[0] = mem.fresh(make_input_value(c.dtype, c.sizes), c.dim_order);
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const Op& op = c.ops[i];
    const OpInfo& oi = info.ops[i];
    const Window* src = oi.src >= 0 ? &values[oi.src] : nullptr;
    std::string err;
    switch (op.kind) {
      case OpKind::SliceCopy:
      case OpKind::Slice: {
        err = judge::slice_error(static_cast<int>(src->sizes.size()), op.dim, op.step);
        if (!err.empty()) break;
        if (op.kind == OpKind::SliceCopy) {
          values[oi.result] = mem.fresh(slice_value(mem.read(*src), op), {});
          break;
        }
        const judge::SliceSpan span =
            judge::normalize_slice_args(src->sizes, op.dim, op.start, op.end, op.step);
        Window w = *src;
        w.sizes[span.dim] = span.length;
        if (span.length > 0) w.offset += span.start * src->strides[span.dim];
        if (span.length > 1) w.strides[span.dim] *= span.step;
        values[oi.result] = w;
        break;
      }
      case OpKind::Select: {
        err = judge::select_error(src->sizes, op.dim, op.index);
        if (!err.empty()) break;
        const int d = judge::dim_index(static_cast<int>(src->sizes.size()), op.dim);
        const int64_t index = op.index < 0 ? op.index + src->sizes[d] : op.index;
        Window w = *src;
        w.offset += index * src->strides[d];
        w.sizes.erase(w.sizes.begin() + d);
        w.strides.erase(w.strides.begin() + d);
        values[oi.result] = w;
        break;
      }
      case OpKind::Clone: values[oi.result] = mem.fresh(mem.read(*src), {}); break;
      case OpKind::AddOut: {
        TensorValue v = mem.read(*src);
        add_all(v, op.scalar);
        values[oi.result] = mem.fresh(v, {});
        break;
      }
      case OpKind::Add: {
        TensorValue v = mem.read(values[oi.target]);
        add_all(v, op.scalar);
        mem.write(values[oi.target], v.bytes);
        break;
      }
      case OpKind::Copy:
        // The source is read whole before the write (the case language's copy_).
        if (values[oi.target].sizes != src->sizes) err = "copy_: sizes differ";
        else mem.write(values[oi.target], mem.read(*src).bytes);
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
  for (int v : info.outputs) r.outputs.push_back(mem.read(values[v]));
  return r;
}

}  // namespace slicefuzz
