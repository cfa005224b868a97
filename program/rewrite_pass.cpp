#include "program/rewrite_pass.h"

#include <algorithm>

#include "kernels/kernel_runtime_context.h"
#include "kernels/util/slice_util.h"
#include "program/case_format.h"
#include "program/copy_executor.h"

namespace slicefuzz {

namespace {

int ops_that_run(const Case& c, const ProgramInfo& info) {
  return info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
}

std::string dims_string(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A slice of a source tensor, normalised once for every rule that needs it.
struct NormalizedSlice {
  Tensor src;  // metadata only
  int d;
  SliceRange r;
};

NormalizedSlice normalized_slice(const Case& c, const ValueInfo& src, const Op& op) {
  NormalizedSlice s{value_meta(c, src.sizes), 0, {}};
  s.d = *normalize_dim(op.dim, s.src.rank);
  s.r = normalize_slice(s.src.sizes[s.d], op.start, op.end, op.step);
  return s;
}

// Rule 1, with the reason in words.
bool dense_reason(const Case& c, const NormalizedSlice& s, const PassRules& rules,
                  std::string& reason) {
  const Tensor& meta = s.src;
  const int d = s.d;
  const SliceRange& r = s.r;
  const std::string order = dims_string(c.effective_dim_order());
  if (rules.outermost_only && (r.step != 1 || meta.dim_order[0] != d)) {
    reason = format_msg("conservative pass: only step-1 slices of the outermost dim (%d) become "
                        "aliases", meta.dim_order[0]);
    return false;
  }
  if (rules.dense(meta.sizes, meta.dim_order, meta.rank, d, r)) {
    reason = format_msg("dense in dim order %s (dim %d: start %lld, %lld of %lld elements, step %lld)",
                        order.c_str(), d, (long long)r.start, (long long)r.length,
                        (long long)meta.sizes[d], (long long)r.step);
    return true;
  }
  if (r.step != 1 && r.length != 1)
    reason = format_msg("not dense: step %lld on dim %d leaves gaps between the %lld elements",
                        (long long)r.step, d, (long long)r.length);
  else
    reason = format_msg("not dense: keeps %lld of %lld elements of dim %d, and a dim before it "
                        "in dim order %s has size > 1, so the elements are not one block",
                        (long long)r.length, (long long)meta.sizes[d], d, order.c_str());
  return false;
}

}  // namespace

std::vector<int> last_direct_use(const Case& c, const ProgramInfo& info) {
  std::vector<int> last(info.values.size(), -1);
  for (int k = 0; k < ops_that_run(c, info); ++k) {
    const OpInfo& oi = info.ops[k];
    if (oi.src >= 0) last[oi.src] = k;
    if (oi.target >= 0) last[oi.target] = k;
  }
  return last;
}

RewritePlan copy_only_plan(const Case& c, const ProgramInfo& info) {
  RewritePlan plan;
  plan.root.resize(info.values.size());
  for (size_t v = 0; v < info.values.size(); ++v) plan.root[v] = static_cast<int>(v);
  plan.delta_bytes.assign(info.values.size(), 0);
  for (int k = 0; k < ops_that_run(c, info); ++k)
    if (c.ops[k].kind == OpKind::SliceCopy)
      plan.decisions.push_back({k, info.ops[k].result, false, "copy-only plan", "copy-only"});
  return plan;
}

RewritePlan replace_slice_copy_with_slice(const Case& c, const ProgramInfo& info) {
  return rewrite_with_rules(c, info, PassRules{});
}

RewritePlan rewrite_with_rules(const Case& c, const ProgramInfo& info, const PassRules& rules) {
  RewritePlan plan = copy_only_plan(c, info);
  plan.decisions.clear();
  const int n = ops_that_run(c, info);
  const std::vector<int> last_use = last_direct_use(c, info);
  std::vector<bool> is_output(info.values.size(), false);
  for (int v : info.outputs) is_output[v] = true;
  // mutations[v]: the ops that mutate v in place.
  std::vector<std::vector<int>> mutations(info.values.size());
  for (int k = 0; k < n; ++k)
    if (info.ops[k].target >= 0) mutations[info.ops[k].target].push_back(k);

  for (int k = 0; k < n; ++k) {
    const Op& op = c.ops[k];
    if (op.kind != OpKind::SliceCopy) continue;
    const OpInfo& oi = info.ops[k];
    SliceDecision d{k, oi.result, false, "", ""};
    const int root = plan.root[oi.src];
    const std::string& y = op.result;
    const NormalizedSlice slice = normalized_slice(c, info.values[oi.src], op);
    if (!dense_reason(c, slice, rules, d.reason)) {
      d.rule = d.reason.rfind("not dense: step", 0) == 0  ? "not-dense-step"
               : d.reason.rfind("conservative", 0) == 0 ? "conservative"
                                                          : "not-dense-extent";
    } else if (rules.output_rule && is_output[oi.result]) {
      d.rule = "output";
      d.reason = "'" + y + "' is a program output: the runtime may repoint output buffers";
    } else if (rules.mutation_rule && !mutations[oi.result].empty()) {
      const int m = mutations[oi.result].front();
      d.rule = "mutated";
      d.reason = "'" + y + "' is mutated in place by op " + std::to_string(m) + " `" +
                 print_op(c.ops[m]) + "`; as an alias the write would reach '" +
                 info.values[root].name + "'";
    } else {
      // Rule 4. Aliases of y are decided later and check their own reads against
      // the same root, so y's own reads are what matter here.
      const int reads_until = last_use[oi.result];
      auto hazard = std::find_if(mutations[root].begin(), mutations[root].end(),
                                 [&](int m) { return m > k && m <= reads_until; });
      if (!rules.root_mutation_rule) hazard = mutations[root].end();
      if (hazard != mutations[root].end()) {
        d.rule = "root-written";
        d.reason = "root '" + info.values[root].name + "' is mutated by op " +
                   std::to_string(*hazard) + " `" + print_op(c.ops[*hazard]) + "` while '" + y +
                   "' is still read (until op " + std::to_string(reads_until) +
                   "); the copy took a snapshot, an alias would see the write";
      } else {
        // Rule 5 holds by construction: every value of a case shares its dtype and
        // dim order (slice_copy and clone preserve both).
        d.alias = true;
        d.rule = "et_slice";
        plan.root[oi.result] = root;
        plan.delta_bytes[oi.result] =
            plan.delta_bytes[oi.src] +
            slice_alias_offset_elems(slice.src, slice.d, slice.r) *
                static_cast<int64_t>(slice.src.element_size());
        d.reason = "et_slice of '" + info.values[root].name + "' at byte offset " +
                   std::to_string(plan.delta_bytes[oi.result]) + ": " + d.reason;
      }
    }
    plan.decisions.push_back(std::move(d));
  }
  return plan;
}

}  // namespace slicefuzz
