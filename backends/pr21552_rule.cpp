// pr21552-rule: the draft pass of pytorch/executorch PR 21552, transcribed gate by
// gate from the PR head (refs/pull/21552/head = a18eb2a8a3, the rewrite in
// a5fda433b0): exir/passes/replace_slice_copy_with_slice_pass.py, kept unmodified
// at ../shared/pr21552/replace_slice_copy_with_slice_pass.py with the PR's whole
// diff beside it. Each gate below quotes the line of `ReplaceSliceCopyWithSlicePass
// .call` (or the helper it calls) that it follows, in the PR's order.
//
// Where slicefuzz's program cannot reach a gate's input, the comment says so:
// a static case's bases are static (so `is_static_shape_tensor` holds: version 4's
// dynamic bases are kept as the PR keeps them), every source is
// an fx Node with a spec (the lowering pipeline populates specs before the pass),
// and this backend models the slice pass alone: ExecuTorch's ReplaceViewCopyWith
// ViewPass, which the PR runs just before it (exir/program/_program.py,
// pre_memory_planning_passes), is not modelled, so view_copy stays a copy and
// `_is_aliasing_base`'s memory.view half is never reached.
//
// What the head does not check, modelled as the PR has it (docs/executorch.md):
//   - a start past the dim's size: `_compute_slice_byte_offset` does not clamp, so
//     the (empty) alias is placed past its base, where torch's view would start at
//     the clamped start;
//   - in-place writes to the slice or to its base while the slice is still read:
//     ExecuTorch's edge graph is functional, so these hazards exist only with the
//     experimental reinplace pass on (ExecutorchBackendConfig.run_reinplace_pass,
//     which runs in to_executorch before this pass, with an op set that reaches
//     the write);
//   - a base that is a program input or output: with the default config both are
//     memory-planned and the alias is placed into them; unplanned ones
//     (alloc_graph_input/output=False) have no mem_offset and `_emit_slice`'s
//     assertion fails at export, which slicefuzz's program cannot express.
// Aliases are placed by the plan only (`_SliceSpec.mem_offset = base.mem_offset +
// byte offset`); no runtime op runs. Kernels and planner are the reference's
// (`_SliceSpec` forwards lifetime, mem_id and alignment to its base, which is what
// the reference planner does for an alias: its root lives as long as the alias).
#include <algorithm>
#include <climits>
#include <numeric>
#include <vector>

#include "backends/backend.h"
#include "kernels/dim_order.h"
#include "vocab/case_format.h"
#include "program/op_layout_facts.h"

namespace slicefuzz {

namespace {

// exir/tensor.py `dim_order_from_stride` (read at pytorch/executorch 88901508fa;
// exir/ is not in ../shared): the dims sorted by stride, largest first, with
// Python's stable sort (equal strides keep their index order). A base's
// TensorSpec stride is its tensor's (`TensorSpec.from_tensor`: `spec.stride =
// tensor.stride()`, `spec.dim_order = dim_order_from_stride(spec.stride)`).
std::vector<int> dim_order_from_stride(const int64_t* strides, int rank) {
  std::vector<int> order(rank);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return strides[a] > strides[b]; });
  return order;
}

// `_has_default_dim_order(spec)`: `spec.dim_order == dim_order_from_stride(
// contiguous_stride_from_shape(spec.shape))`. Contiguous strides never increase
// with the index, so the right side is always the identity: the test is whether
// the base's strides sort to the identity (a dim order differing only in size-1
// dims, whose strides tie, counts as default, as it does upstream).
bool has_default_dim_order(const Tensor& base) {
  const std::vector<int> order = dim_order_from_stride(base.strides, base.rank);
  for (int i = 0; i < base.rank; ++i)
    if (order[i] != i) return false;
  return true;
}

RewriteDecision keep_copy(int op, int value, const char* rule, const char* reason) {
  return RewriteDecision{op, value, false, reason, rule};
}

RewritePlan pr21552_pass(const Case& c, const ProgramInfo& info, const PassContext& ctx) {
  RewritePlan plan = copy_only_plan(c, info);
  plan.decisions.clear();
  const int n = info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
  std::vector<bool> is_output(info.values.size(), false);
  for (int v : info.outputs) is_output[v] = true;
  // `for node in module.graph.nodes:` in program order.
  for (int k = 0; k < n; ++k) {
    const Op& op = c.ops[k];
    // `_is_slice_copy(node)`: aten/edge slice_copy.Tensor only (an eager `slice`
    // is aten.slice, a view, not a slice_copy).
    if (op.kind != OpKind::SliceCopy) continue;
    const OpInfo& oi = info.ops[k];
    const Tensor base = value_meta(info.values[oi.src]);
    // `is_contiguous_slice_copy`: `if step != 1: return False` (step as written).
    if (op.step != 1) {
      plan.decisions.push_back(keep_copy(k, oi.result, "pr21552-step", "PR 21552: step != 1"));
      continue;
    }
    // `dim = _normalize_dim(dim, rank)` (`dim + rank` when negative);
    // `return dim == 0`. Rank 0 never gets here: its slice is the failing op.
    const int64_t dim = op.dim < 0 ? op.dim + base.rank : op.dim;
    if (dim != 0) {
      plan.decisions.push_back(
          keep_copy(k, oi.result, "pr21552-dim", "PR 21552: dim does not normalise to 0"));
      continue;
    }
    // `all(u.op != "output" for u in node.users)`.
    if (is_output[oi.result]) {
      plan.decisions.push_back(
          keep_copy(k, oi.result, "output", "PR 21552: a user of the slice is the graph output"));
      continue;
    }
    // `not isinstance(base, torch.fx.Node) or "spec" not in base.meta or not
    // base.meta["spec"].is_static_shape_tensor`: always a Node with a spec here;
    // static unless the base's sizes vary over a version-4 case's symbols.
    if (info.values[oi.src].dynamic_shape) {
      plan.decisions.push_back(keep_copy(k, oi.result, "pr21552-dynamic-base",
                                         "PR 21552: the base is not a static-shape tensor"));
      continue;
    }
    if (ctx.keeps_copy(k)) {
      plan.decisions.push_back(keep_copy(k, oi.result, "copy-at-another-size",
                                         "kept a copy at another execution's sizes"));
      continue;
    }
    // `or not _has_default_dim_order(base.meta["spec"])`: continue.
    if (!has_default_dim_order(base)) {
      plan.decisions.push_back(keep_copy(k, oi.result, "pr21552-base-dim-order",
                                         "PR 21552: the base's dim order is not the default"));
      continue;
    }
    // `if _is_aliasing_base(base): continue` (base.target in (memory.slice,
    // memory.view)): a base this pass made a memory.slice stays a copy source.
    // memory.view needs the view pass, not modelled (see the top).
    if (plan.is_alias(oi.src)) {
      plan.decisions.push_back(keep_copy(k, oi.result, "pr21552-aliasing-base",
                                         "PR 21552: the base is itself an alias (memory.slice)"));
      continue;
    }
    // A start computed at run time (a SymInt: in the graph, an fx Node) reaches
    // `_slice_start_as_int(start)`, whose last line is `int(start)`: int() of an
    // fx Node raises TypeError at export (read from the source at a18eb2a8a3, not
    // run: exir is not installed here). Not modelled: kept a copy.
    if (ctx.with_symbols && k < static_cast<int>(ctx.with_symbols->ops.size())) {
      bool symbolic_start = false;
      for (const SymArg& a : ctx.with_symbols->ops[k].sym_args) symbolic_start |= a.slot == ArgSlot::Start;
      if (symbolic_start) {
        plan.decisions.push_back(keep_copy(k, oi.result, "pr21552-symbolic-start",
                                           "PR 21552 at a18eb2a8a3 would raise TypeError (int() of "
                                           "the start's fx Node); not modelled, kept a copy"));
        continue;
      }
    }
    // `if _slice_start_as_int(start) < 0: continue` (`start is None` -> 0).
    const int64_t start = op.start.value_or(0);
    if (start < 0) {
      plan.decisions.push_back(
          keep_copy(k, oi.result, "pr21552-negative-start", "PR 21552: negative start"));
      continue;
    }
    // `node.target = _SLICE_OP`; `_SliceSpec(base.meta["spec"], shape, dim, start)`
    // with `_byte_offset = _compute_slice_byte_offset(base, dim, start)` =
    // `start_int * base.stride[dim] * elem_size`: start as written, not clamped to
    // the dim's size; `base.stride[dim]` with the raw dim is Python indexing, so
    // stride[0] (the base's own stride: it is not an alias, so its TensorSpec's).
    // Python's ints do not overflow; an offset past int64 saturates (it is past
    // the arena either way, and the plan check reports it).
    const __int128 offset = static_cast<__int128>(start) * base.strides[0] *
                            static_cast<__int128>(base.element_size());
    // `mem_offset = base.mem_offset + _byte_offset`: the base is a root (delta 0).
    plan.root[oi.result] = plan.root[oi.src];
    plan.delta_bytes[oi.result] =
        offset > INT64_MAX ? INT64_MAX : static_cast<int64_t>(offset);
    RewriteDecision d{k, oi.result, true, "", "et_slice"};
    d.reason = "PR 21552: memory.slice at byte offset " + std::to_string(plan.delta_bytes[oi.result]) +
               " of '" + info.values[plan.root[oi.result]].name + "'";
    plan.decisions.push_back(std::move(d));
  }
  return plan;
}

}  // namespace

void add_pr21552_backend(std::vector<Backend>& out) {
  Backend b{"pr21552-rule",
            "PR 21552's pass at its head a18eb2a8a3 (dim 0, step 1, not an output, default "
            "base dim order, base not an alias, start >= 0; offset from the unclamped start), "
            "aliases placed by the plan",
            {}};
  b.pass = &pr21552_pass;
  b.alias_mode = AliasMode::Planned;
  // The PR rewrites only outermost-dim slices on purpose: missed rewrites are its design.
  b.tolerates_missed_rewrite = true;
  out.push_back(b);
}

}  // namespace slicefuzz
