#include "harness/run/alias_contract.h"

#include <algorithm>
#include <memory>
#include <string_view>

#include "oracles/judge_facts.h"
#include "oracles/judge_layouts.h"
#include "oracles/values.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {

std::string dims_string(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Tensor metadata of a value's own layout (sizes, dim order, dtype); no data.
Tensor meta_of(const ValueInfo& v) {
  Tensor t;
  uint8_t order[kMaxRank] = {};
  for (size_t i = 0; i < v.dim_order.size() && i < kMaxRank; ++i)
    order[i] = static_cast<uint8_t>(v.dim_order[i]);
  make_tensor_meta(v.dtype, static_cast<int>(v.sizes.size()), v.sizes.data(), order, t);
  return t;
}

bool same_meta(const Tensor& a, const Tensor& b) {
  return a.dtype == b.dtype && a.rank == b.rank && a.data == b.data &&
         a.capacity_nbytes == b.capacity_nbytes &&
         std::equal(a.sizes, a.sizes + kMaxRank, b.sizes) &&
         std::equal(a.dim_order, a.dim_order + kMaxRank, b.dim_order) &&
         std::equal(a.strides, a.strides + kMaxRank, b.strides);
}

}  // namespace

std::string alias_contract_violation(const char* prim, const Tensor& in, const Tensor& out,
                                     const TorchOpView& view,
                                     const std::vector<int>& want_order) {
  const int64_t es = static_cast<int64_t>(in.element_size());
  const int64_t delta = out.bytes() - in.bytes();
  const int64_t nbytes = static_cast<int64_t>(out.nbytes());
  const int r = out.rank;
  // The alias is read as a fresh tensor of its sizes in its dim order: its
  // strides must be that layout's (the judge's stride rule), and along every
  // dim with more than one element equal to torch's view strides.
  const std::vector<int64_t> want_strides = judge::strides_for(view.sizes, want_order);
  // (An empty view has no element to place: torch keeps the input's strides.)
  const bool empty = std::find(view.sizes.begin(), view.sizes.end(), 0) != view.sizes.end();
  auto torch_stride = [&](size_t j) {
    return j < view.sizes.size() && (view.sizes[j] <= 1 || empty) ? want_strides[j] : view.strides[j];
  };
  // Compared in place; the vectors for the messages are built only on a violation.
  auto same = [r](const auto* a, const auto& v) {
    if (static_cast<size_t>(r) != v.size()) return false;
    for (int i = 0; i < r; ++i)
      if (static_cast<int64_t>(a[i]) != static_cast<int64_t>(v[i])) return false;
    return true;
  };
  bool torch_ok = static_cast<size_t>(r) == view.strides.size();
  for (size_t j = 0; torch_ok && j < view.strides.size(); ++j) torch_ok = out.strides[j] == torch_stride(j);
  if (!same(out.sizes, view.sizes) || !same(out.dim_order, want_order) ||
      !same(out.strides, want_strides) || !torch_ok) {
    const std::vector<int64_t> sizes(out.sizes, out.sizes + r);
    const std::vector<int> order(out.dim_order, out.dim_order + r);
    const std::vector<int64_t> strides(out.strides, out.strides + r);
    const std::string p = prim;
    if (sizes != view.sizes)
      return p + " gave sizes " + sizes_string(sizes) + ", torch's view has " +
             sizes_string(view.sizes);
    if (order != want_order)
      return p + " gave the alias dim order " + dims_string(order) + ", the result must have " +
             dims_string(want_order);
    if (strides != want_strides)
      return p + " gave the alias strides " + sizes_string(strides) + ", a tensor of sizes " +
             sizes_string(sizes) + " in dim order " + dims_string(want_order) + " has " +
             sizes_string(want_strides);
    return "the alias strides " + sizes_string(strides) + " differ from torch's view strides " +
           sizes_string(view.strides);
  }
  if (delta < 0 || delta + nbytes > static_cast<int64_t>(in.nbytes()))
    return "the alias [" + std::to_string(delta) + ", " + std::to_string(delta + nbytes) +
           ") leaves the input's " + std::to_string(in.nbytes()) + " bytes";
  if (nbytes > 0 && delta != view.storage_offset * es)
    return "the alias starts " + std::to_string(delta) + " bytes into the input, torch's view "
           "at storage offset " + std::to_string(view.storage_offset) + " (" +
           std::to_string(view.storage_offset * es) + " bytes)";
  return {};
}

void check_alias_contract(const Case& c, const ProgramInfo& info,
                             const std::vector<TorchOpView>& views, const Backend& backend,
                             std::vector<Finding>& findings) {
  for (const TorchOpView& view : views) {
    const Op& op = c.ops[view.op];
    const OpInfo& oi = info.ops[view.op];
    // A prim op that takes sizes only (et_view) cannot see an op that reorders
    // the elements (a permute): no guard can refuse it, so none is asked of it
    // (the pass's decision on it is still judged).
    if (!view.dense && !judge::op_keeps_element_order(op, info.values[oi.src].sizes)) continue;
    const char* prim = op_alias_prim(op.kind);
    // Nor of an et_view its backend declares unguarded (ExecuTorch's: backend.h
    // et_view_guards_density).
    if (!view.dense && !backend.et_view_guards_density && std::string_view(prim) == "et_view") continue;
    const std::string what = op.kind == OpKind::SliceCopy ? "slice" : "view";
    const ValueInfo& result = info.values[oi.result];
    Tensor in = meta_of(info.values[oi.src]);
    // The prim op reads no data, but the pointer must be real for the bounds check.
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[std::max<size_t>(in.nbytes(), 1)]);
    in.data = buffer.get();
    in.capacity_nbytes = in.nbytes();
    // et_slice's out comes shaped like its input (it must resize it, as in
    // version 1); the other prim ops' out has the result's own static layout,
    // as ExecuTorch's planned out tensors do.
    Tensor out = meta_of(op.kind == OpKind::SliceCopy ? info.values[oi.src] : result);
    const Tensor before = out;
    KernelRuntimeContext ctx;
    call_alias_prim(backend.kernels, ctx, op, in, out);

    std::string why;
    if (!view.dense) {
      if (ctx.ok())
        why = std::string(prim) + " accepted a " + what + " that is not dense in the dim order "
              "(torch's view strides differ from a fresh tensor's): its runtime density guard is "
              "missing";
      else if (!same_meta(out, before))
        why = std::string(prim) + " refused the " + what + " but changed out";
    } else if (!ctx.ok()) {
      why = std::string(prim) + " refused a dense " + what + ": " + ctx.message();
    } else {
      why = alias_contract_violation(prim, in, out, view, result.dim_order);
    }
    if (!why.empty()) {
      // (The op's label only now: print_op on every call was a dozen allocations.)
      const std::string label = "op " + std::to_string(view.op) + " `" + print_op(op) + "`";
      // The finding's path is the prim op, by the schema's word for it.
      FindingPath path = FindingPath::Unknown;
      parse_word(prim, path);
      Finding f{FindingKind::ALIAS_VIOLATION, path, view.op, label + " called directly: " + why, false};
      f.sut_refused = view.dense && !ctx.ok();
      findings.push_back(f);
      return;
    }
  }
}

}  // namespace slicefuzz
