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
#include "oracles/judge_index_copy.h"
#include "oracles/judge_index_put.h"
#include "oracles/judge_layouts.h"
#include "oracles/judge_overlap.h"
#include "oracles/oracle.h"
#include "oracles/values.h"
#include "vocab/interpreter.h"

namespace slicefuzz {

namespace {

struct Storage {
  ScalarType dtype = ScalarType::Float;
  std::vector<uint8_t> bytes;
};

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

// Calls row(i, p, n, stride) for every row of the strided view (offset, sizes,
// strides), rows in row-major order: the view's logical elements i, i+1, ...,
// i+n-1 (row-major indices) lie at storage element positions p, p + stride, ...,
// p + (n-1)*stride. An odometer over the view's outer indices that keeps p up to
// date as it turns (one add per row, a carry resets a digit); the elements of a
// row need no carry check.
//
// The rows are as long as the view allows: first the dims are coalesced, which
// keeps every (i, position) pair and their order. A dim of size 1 drops out (its
// index is always 0, so it moves neither i nor p). Dims k (outer) and k+1 (inner)
// with strides[k] == strides[k+1] * sizes[k+1] visit, in row-major order, the
// positions q + j * strides[k+1] for j = 0 .. sizes[k]*sizes[k+1]-1: one dim of
// the product size with the inner stride.
template <typename F>
void for_each_row(int64_t offset, const std::vector<int64_t>& sizes,
                  const std::vector<int64_t>& strides, F&& row) {
  const int64_t total = numel_of(sizes);
  if (total == 0) return;
  const size_t r = sizes.size();
  int64_t small[3 * 32];
  std::vector<int64_t> large(r > 32 ? 3 * r : 0);
  int64_t* size = r > 32 ? large.data() : small;  // coalesced dims, innermost first
  int64_t* stride = size + (r > 32 ? r : 32);
  int64_t* idx = stride + (r > 32 ? r : 32);
  size_t m = 0;
  for (size_t k = r; k-- > 0;) {
    if (sizes[k] == 1) continue;
    int64_t continued;  // the stride that continues the dim below (no merge on overflow)
    if (m > 0 && !__builtin_mul_overflow(stride[m - 1], size[m - 1], &continued) &&
        strides[k] == continued) {
      size[m - 1] *= sizes[k];  // <= total
      continue;
    }
    size[m] = sizes[k];
    stride[m] = strides[k];
    idx[m] = 0;
    ++m;
  }
  if (m == 0) return row(0, offset, 1, 1);  // one element
  int64_t p = offset;
  for (int64_t i = 0;;) {
    row(i, p, size[0], stride[0]);
    i += size[0];
    if (i == total) return;
    for (size_t k = 1; k < m; ++k) {
      if (++idx[k] < size[k]) {
        p += stride[k];
        break;
      }
      idx[k] = 0;
      p -= (size[k] - 1) * stride[k];
    }
  }
}

// Whether for_each_row would visit positions 0, 1, ..., n-1 in order: the
// view starts at element 0 and every dim with more than one element has the
// row-major stride (a fresh row-major storage, read or written whole).
bool positions_are_identity(int64_t offset, const std::vector<int64_t>& sizes,
                            const std::vector<int64_t>& strides) {
  if (offset != 0) return false;
  int64_t running = 1;
  for (size_t k = sizes.size(); k-- > 0;) {
    if (sizes[k] > 1 && strides[k] != running) return false;
    running *= sizes[k];
  }
  return true;
}

// One element of `es` bytes (1, 2, 4 or 8): a fixed-size copy, not a call.
inline void copy_element(uint8_t* dst, const uint8_t* src, size_t es) {
  switch (es) {
    case 1: *dst = *src; return;
    case 2: std::memcpy(dst, src, 2); return;
    case 4: std::memcpy(dst, src, 4); return;
    default: std::memcpy(dst, src, 8); return;
  }
}

// A row of stride 1 and at least this many bytes is copied as one block; a
// shorter one element by element (under ASan a memcpy of variable size is a
// checked call, an element copy two inline-checked moves).
constexpr size_t kBlockBytes = 64;

// row_major[i] = storage[p] for every element (i, p) of the strided view.
void read_view(const uint8_t* storage, int64_t offset, const std::vector<int64_t>& sizes,
               const std::vector<int64_t>& strides, size_t es, uint8_t* row_major) {
  for_each_row(offset, sizes, strides, [&](int64_t i, int64_t p, int64_t n, int64_t step) {
    uint8_t* to = row_major + static_cast<size_t>(i) * es;
    const uint8_t* from = storage + static_cast<size_t>(p) * es;
    if (step == 1 && static_cast<size_t>(n) * es >= kBlockBytes) {
      std::memcpy(to, from, static_cast<size_t>(n) * es);
      return;
    }
    for (int64_t j = 0; j < n; ++j, to += es)
      copy_element(to, from + static_cast<size_t>(j * step) * es, es);
  });
}

// storage[p] = row_major[i] for every element (i, p) of the strided view.
void write_view(const uint8_t* row_major, int64_t offset, const std::vector<int64_t>& sizes,
                const std::vector<int64_t>& strides, size_t es, uint8_t* storage) {
  for_each_row(offset, sizes, strides, [&](int64_t i, int64_t p, int64_t n, int64_t step) {
    const uint8_t* from = row_major + static_cast<size_t>(i) * es;
    uint8_t* to = storage + static_cast<size_t>(p) * es;
    if (step == 1 && static_cast<size_t>(n) * es >= kBlockBytes) {
      std::memcpy(to, from, static_cast<size_t>(n) * es);
      return;
    }
    for (int64_t j = 0; j < n; ++j, from += es)
      copy_element(to + static_cast<size_t>(j * step) * es, from, es);
  });
}

// The elements of `src` (row-major logical elements) that the strided view
// (offset, sizes, strides) over them selects, row-major.
TensorValue gather(const TensorValue& src, int64_t offset, const std::vector<int64_t>& sizes,
                   const std::vector<int64_t>& strides) {
  TensorValue out;
  out.dtype = src.dtype;
  out.sizes = sizes;
  const size_t es = element_size(src.dtype);
  out.bytes.resize(static_cast<size_t>(numel_of(sizes)) * es);
  read_view(src.bytes.data(), offset, sizes, strides, es, out.bytes.data());
  return out;
}

class Memory {
 public:
  void reserve(size_t n) { storages_.reserve(n); }
  // A fresh storage holding `value` (row-major logical elements) laid out with
  // `dim_order` (empty: row-major).
  // The value is consumed: laid out row-major, its bytes become the storage's
  // (no second buffer and copy per value).
  Window fresh(TensorValue&& value, const std::vector<int>& dim_order) {
    Window w{static_cast<int>(storages_.size()), 0, std::move(value.sizes), {}};
    w.strides = judge::strides_for(w.sizes, dim_order);
    if (positions_are_identity(w.offset, w.sizes, w.strides)) {
      storages_.push_back(Storage{value.dtype, std::move(value.bytes)});
      return w;
    }
    storages_.push_back(Storage{value.dtype, std::vector<uint8_t>(value.bytes.size())});
    write(w, value.bytes);
    return w;
  }
  // The window's logical elements, row-major.
  TensorValue read(const Window& w) const {
    TensorValue v;
    read_into(w, v);
    return v;
  }
  // The same into `v`, whose vectors keep their capacity (a scratch value).
  void read_into(const Window& w, TensorValue& v) const {
    const Storage& s = storages_[w.storage];
    v.dtype = s.dtype;
    v.sizes.assign(w.sizes.begin(), w.sizes.end());
    const size_t es = element_size(s.dtype);
    v.bytes.resize(static_cast<size_t>(numel_of(w.sizes)) * es);
    // Positions 0..n-1 in order: the same elements in the same order, as one block.
    if (positions_are_identity(w.offset, w.sizes, w.strides)) {
      if (!v.bytes.empty()) std::memcpy(v.bytes.data(), s.bytes.data(), v.bytes.size());
      return;
    }
    read_view(s.bytes.data(), w.offset, w.sizes, w.strides, es, v.bytes.data());
  }
  void write(const Window& w, const std::vector<uint8_t>& row_major) {
    Storage& s = storages_[w.storage];
    const size_t es = element_size(s.dtype);
    if (positions_are_identity(w.offset, w.sizes, w.strides)) {
      const size_t n = static_cast<size_t>(numel_of(w.sizes)) * es;
      if (n) std::memcpy(s.bytes.data(), row_major.data(), n);
      return;
    }
    write_view(row_major.data(), w.offset, w.sizes, w.strides, es, s.bytes.data());
  }

 private:
  std::vector<Storage> storages_;
};

void add_all(TensorValue& v, int64_t k) {
  judge::add_to_elements(v.dtype, v.bytes.data(), v.numel(), k);
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
    define(oi.result, mem_.read(values_[oi.src]), out.layout);
    return OpStatus::success();
  }
  OpStatus AddOut(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    if (!out.error.empty()) return OpStatus::error(out.error);
    TensorValue v = mem_.read(values_[oi.src]);
    add_all(v, op.scalar);
    define(oi.result, std::move(v), out.layout);
    return OpStatus::success();
  }
  OpStatus MulOut(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    if (!out.error.empty()) return OpStatus::error(out.error);
    TensorValue v = mem_.read(values_[oi.src]);
    judge::mul_elements(v.dtype, v.bytes.data(), v.numel(), op.scalar);
    define(oi.result, std::move(v), out.layout);
    return OpStatus::success();
  }
  OpStatus Relu(const Op& op, const OpInfo& oi, int) {
    const judge::OpOutcome& out = outcome(op, oi.src);
    std::string err = out.error.empty() ? judge::op_dtype_error(op.kind, info_.values[oi.src].dtype) : out.error;
    if (!err.empty()) return OpStatus::error(err);
    TensorValue v = mem_.read(values_[oi.src]);
    judge::relu_elements(v.dtype, v.bytes.data(), v.numel());
    define(oi.result, std::move(v), out.layout);
    return OpStatus::success();
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
    define(oi.result, std::move(v), out.layout);
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
    define(oi.result, std::move(v), out.layout);
    return OpStatus::success();
  }
  // Eager views (version 2): a new window onto the source's storage.
  OpStatus Slice(const Op& op, const OpInfo& oi, int) { return view(op, oi); }
  OpStatus Select(const Op& op, const OpInfo& oi, int) { return view(op, oi); }
  // In place, through whatever window the target is.
  OpStatus Add(const Op& op, const OpInfo& oi, int) {
    thread_local TensorValue v;  // scratch: read, added to, written back
    mem_.read_into(values_[oi.target], v);
    add_all(v, op.scalar);
    mem_.write(values_[oi.target], v.bytes);
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
    mem_.read_into(values_[oi.src], src);
    mem_.write(values_[oi.target], src.bytes);
    return OpStatus::success();
  }

  void before_op(int) {}
  void after_op(int) {}
  TensorValue output(int v) { return mem_.read(values_[v]); }

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
  void define(int v, TensorValue&& value, const judge::Layout& layout) {
    const ValueInfo& vi = info_.values[v];
    const bool known = vi.known && vi.dim_order.size() == value.sizes.size();
    values_[v] = mem_.fresh(std::move(value), known ? vi.dim_order : layout.dim_order);
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
    define(oi.result, gather(in, v.offset, v.sizes, v.strides), out.layout);
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
  return interpret(c, info, ev);
}

}  // namespace slicefuzz
