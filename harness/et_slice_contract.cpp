#include "harness/et_slice_contract.h"

#include <algorithm>
#include <memory>

#include "oracles/judge_facts.h"
#include "oracles/values.h"
#include "program/case_format.h"
#include "program/copy_executor.h"

namespace slicefuzz {

namespace {
std::string dims_string(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
}  // namespace

void check_et_slice_contract(const Case& c, const ProgramInfo& info,
                             const std::vector<TorchSliceView>& views, const Backend& backend,
                             std::vector<Finding>& findings) {
  const int64_t es = static_cast<int64_t>(element_size(c.dtype));
  for (const TorchSliceView& view : views) {
    const Op& op = c.ops[view.op];
    const OpInfo& oi = info.ops[view.op];
    Tensor in = value_meta(c, info.values[oi.src].sizes);
    // et_slice reads no data, but the pointer must be real for the bounds check.
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[in.nbytes()]);
    in.data = buffer.get();
    in.capacity_nbytes = in.nbytes();
    Tensor out = value_meta(c, info.values[oi.src].sizes);
    const Tensor before = out;
    KernelRuntimeContext ctx;
    call_et_slice(backend.kernels, ctx, op, in, out);

    const std::string label = "op " + std::to_string(view.op) + " `" + print_op(op) + "`";
    std::string why;
    if (!view.dense) {
      if (ctx.ok())
        why = "et_slice accepted a slice that is not dense in the dim order (torch's view "
              "strides differ from a fresh tensor's): its runtime density guard is missing";
      else if (out.data != before.data)
        why = "et_slice refused the slice but changed out's data pointer";
    } else if (!ctx.ok()) {
      why = "et_slice refused a dense slice: " + ctx.message();
    } else {
      const int64_t delta = out.bytes() - in.bytes();
      const int64_t nbytes = static_cast<int64_t>(out.nbytes());
      std::vector<int64_t> sizes(out.sizes, out.sizes + out.rank);
      std::vector<int> order(out.dim_order, out.dim_order + out.rank);
      std::vector<int64_t> strides(out.strides, out.strides + out.rank);
      const std::vector<int> want_order = c.effective_dim_order();
      // The alias is read as a fresh tensor of its sizes in its dim order: its
      // strides must be that layout's (the judge's stride rule), and along every
      // dim with more than one element equal to torch's view strides.
      const std::vector<int64_t> want_strides = judge::strides_for(view.sizes, want_order);
      // (An empty view has no element to place: torch keeps the input's strides.)
      std::vector<int64_t> torch_strides = view.strides;
      const bool empty = std::find(view.sizes.begin(), view.sizes.end(), 0) != view.sizes.end();
      for (size_t j = 0; j < torch_strides.size(); ++j)
        if (view.sizes[j] <= 1 || empty) torch_strides[j] = want_strides[j];
      if (sizes != view.sizes)
        why = "et_slice gave sizes " + sizes_string(sizes) + ", torch's view has " +
              sizes_string(view.sizes);
      else if (order != want_order)
        why = "et_slice gave the alias dim order " + dims_string(order) + ", the input has " +
              dims_string(want_order);
      else if (strides != want_strides)
        why = "et_slice gave the alias strides " + sizes_string(strides) + ", a tensor of sizes " +
              sizes_string(sizes) + " in dim order " + dims_string(want_order) + " has " +
              sizes_string(want_strides);
      else if (strides != torch_strides)
        why = "the alias strides " + sizes_string(strides) + " differ from torch's view strides " +
              sizes_string(view.strides);
      else if (delta < 0 || delta + nbytes > static_cast<int64_t>(in.nbytes()))
        why = "the alias [" + std::to_string(delta) + ", " + std::to_string(delta + nbytes) +
              ") leaves the input's " + std::to_string(in.nbytes()) + " bytes";
      else if (nbytes > 0 && delta != view.storage_offset * es)
        why = "the alias starts " + std::to_string(delta) + " bytes into the input, torch's view "
              "at storage offset " + std::to_string(view.storage_offset) + " (" +
              std::to_string(view.storage_offset * es) + " bytes)";
    }
    if (!why.empty()) {
      Finding f{FindingKind::ALIAS_VIOLATION, "et_slice", view.op,
                label + " called directly: " + why, false};
      f.sut_refused = view.dense && !ctx.ok();
      findings.push_back(f);
      return;
    }
  }
}

}  // namespace slicefuzz
