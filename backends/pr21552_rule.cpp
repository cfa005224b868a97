// pr21552-rule: the eligibility rule and offset formula of the draft pass in
// pytorch/executorch PR 21552 (exir/passes/replace_slice_copy_with_slice_pass.py
// on the PR branch), transcribed as faithfully as a C++ pass over slicefuzz's
// program can be, to let slicefuzz say what that design rule gets wrong:
//   - rewrite iff the dim normalises to 0 (negative dims + rank), step == 1, and no
//     user of the slice is a program output (`all(u.op != "output" ...)`); the base
//     has a static shape (always, here);
//   - byte offset = start * base.stride[dim] * element_size, with start taken as
//     given (None = 0): no normalisation of negative or out-of-range values;
//     base.stride is the base's TensorSpec stride (its dim order's), and for a base
//     that is itself a slice, _SliceSpec's contiguous_stride_from_shape;
//   - no check of the base's dim order, of in-place mutation of the slice, or of
//     writes to the base while the slice is live.
// Aliases are placed by the plan (_SliceSpec.mem_offset = base offset + byte
// offset); no runtime op runs. Kernels and planner are the reference's.
#include <vector>

#include "backends/backend.h"
#include "kernels/dim_order.h"
#include "program/case_format.h"
#include "program/op_layout_facts.h"

namespace slicefuzz {

namespace {

RewritePlan pr21552_pass(const Case& c, const ProgramInfo& info) {
  RewritePlan plan = copy_only_plan(c, info);
  plan.decisions.clear();
  const int n = info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
  std::vector<bool> is_output(info.values.size(), false);
  for (int v : info.outputs) is_output[v] = true;
  for (int k = 0; k < n; ++k) {
    const Op& op = c.ops[k];
    if (op.kind != OpKind::SliceCopy) continue;
    const OpInfo& oi = info.ops[k];
    const std::vector<int64_t>& base_sizes = info.values[oi.src].sizes;
    const int64_t rank = static_cast<int64_t>(base_sizes.size());
    const int64_t dim = op.dim < 0 ? op.dim + rank : op.dim;  // _normalize_dim
    SliceDecision d{k, oi.result, false, "", ""};
    if (op.step != 1) {
      d.rule = "pr21552-step";
      d.reason = "PR 21552: step != 1";
    } else if (dim != 0) {
      d.rule = "pr21552-dim";
      d.reason = "PR 21552: dim does not normalise to 0";
    } else if (is_output[oi.result]) {
      d.rule = "output";
      d.reason = "PR 21552: a user of the slice is the graph output";
    } else {
      // The base's TensorSpec stride: a real tensor's follows its dim order; a
      // _SliceSpec's is contiguous_stride_from_shape (row-major).
      // (The stride rule is the kernels' one, with the identity order for a
      // _SliceSpec. Rank 0 never gets here: its slice is the failing op, and no op
      // from that one on is decided.)
      Tensor base = value_meta(info.values[oi.src]);
      if (plan.is_alias(oi.src)) {
        uint8_t row_major[kMaxRank];
        identity_dim_order(base.rank, row_major);
        dim_order_to_strides(base.sizes, row_major, base.rank, base.strides);
      }
      const int64_t stride0 = base.strides[0];
      const int64_t start = op.start.value_or(0);  // _slice_start_as_int: no normalisation
      const int64_t es = static_cast<int64_t>(base.element_size());
      d.alias = true;
      d.rule = "et_slice";
      plan.root[oi.result] = plan.root[oi.src];
      // Wrapping arithmetic: Python's ints do not overflow, but an offset past
      // int64 is wrong either way and the plan check reports it.
      plan.delta_bytes[oi.result] = static_cast<int64_t>(
          static_cast<uint64_t>(plan.delta_bytes[oi.src]) +
          static_cast<uint64_t>(start) * static_cast<uint64_t>(stride0) * static_cast<uint64_t>(es));
      d.reason = "PR 21552: memory.slice at byte offset " + std::to_string(plan.delta_bytes[oi.result]) +
                 " of '" + info.values[plan.root[oi.result]].name + "'";
    }
    plan.decisions.push_back(std::move(d));
  }
  return plan;
}

}  // namespace

void add_pr21552_backend(std::vector<Backend>& out) {
  Backend b{"pr21552-rule",
            "PR 21552's draft pass rule and offset formula (dim 0, step 1, not an output; "
            "offset from the raw start), aliases placed by the plan",
            {}};
  b.pass = &pr21552_pass;
  b.alias_mode = AliasMode::Planned;
  // The PR rewrites only outermost-dim slices on purpose: missed rewrites are its design.
  b.tolerates_missed_rewrite = true;
  out.push_back(b);
}

}  // namespace slicefuzz
