#include "program/rewrite_pass.h"

#include <algorithm>
#include <cstdio>

#include "kernels/kernel_runtime_context.h"
#include "kernels/util/slice_util.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {

int ops_that_run(const Case& c, const ProgramInfo& info) {
  return info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
}

template <class T>
std::string list_string(const T* v, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// list_string into a buffer on the stack, for the reasons the pass builds on
// every view-copy op (no heap string per list; 16 values of 20 digits fit).
using ListChars = char[400];
template <class T>
const char* list_chars(const T* v, int n, ListChars& out) {
  size_t at = 0;
  out[at++] = '[';
  for (int i = 0; i < n && at < sizeof(ListChars); ++i) {
    const int w = std::snprintf(out + at, sizeof(ListChars) - at, i ? ", %lld" : "%lld",
                                static_cast<long long>(v[i]));
    at = w < 0 ? at : std::min(sizeof(ListChars) - 1, at + static_cast<size_t>(w));
  }
  if (at + 2 <= sizeof(ListChars)) out[at++] = ']';
  out[at] = '\0';
  return out;
}

// Who shares whose storage, who reads and writes what: the program's uses as
// the pass needs them. Eager views (slice, select) share their source's storage,
// so a use of an eager view of y is a use of y's bytes.
struct ProgramUses {
  std::vector<int> view_parent;             // per value: its source if an eager view, else -1
  std::vector<int> last_use;                // last_direct_use
  std::vector<bool> is_output;
  std::vector<std::vector<int>> mutations;  // per value: the ops that mutate it in place

  ProgramUses(const Case& c, const ProgramInfo& info, int n)
      : view_parent(info.values.size(), -1), last_use(last_direct_use(c, info)),
        is_output(info.values.size(), false), mutations(info.values.size()) {
    for (int v : info.outputs) is_output[v] = true;
    for (int k = 0; k < n; ++k) {
      const OpInfo& oi = info.ops[k];
      if (oi.target >= 0) mutations[oi.target].push_back(k);
      if (op_is_view(c.ops[k].kind) && oi.result >= 0) view_parent[oi.result] = oi.src;
    }
  }
  // y and every eager view of it, transitively (views are defined after y), into
  // `f` (one vector reused for every op of the pass).
  void family(int y, std::vector<int>& f) const {
    f.assign(1, y);
    for (int v = y + 1; v < static_cast<int>(view_parent.size()); ++v)
      if (view_parent[v] >= 0 && std::find(f.begin(), f.end(), view_parent[v]) != f.end()) f.push_back(v);
  }
  // The value whose storage v uses: v itself, or the source of its eager views.
  int storage_owner(int v) const {
    while (view_parent[v] >= 0) v = view_parent[v];
    return v;
  }
};

std::string layout_string(const Tensor& t) {
  return std::string(scalar_type_name(t.dtype)) + " " + list_string(t.sizes, t.rank) +
         " in dim order " + list_string(t.dim_order, t.rank);
}

// Rule 5: y is planned with the layout the op's result must have.
bool layout_reason(const Op& op, const Tensor& src, const Tensor& y, const OpLayoutFacts& f,
                   std::string& reason) {
  const ResultLayout& r = f.result;
  const bool same = y.dtype == src.dtype && y.rank == r.rank &&
                    std::equal(r.sizes, r.sizes + r.rank, y.sizes) &&
                    std::equal(r.dim_order, r.dim_order + r.rank, y.dim_order);
  if (same) return true;
  Tensor want;
  make_tensor_meta(src.dtype, r.rank, r.sizes, r.dim_order, want);
  reason = format_msg("layout: '%s' is planned as %s, but %s gives %s", op.result.c_str(),
                      layout_string(y).c_str(), op_kind_name(op.kind), layout_string(want).c_str());
  return false;
}

// Rule 1 for slice_copy: the closed form, with the reason in words.
bool slice_dense_reason(const Op& op, const Tensor& meta, const PassRules& rules, std::string& reason,
                        std::string& rule) {
  const int d = *normalize_dim(op.dim, meta.rank);
  const SliceRange r = normalize_slice(meta.sizes[d], op.start, op.end, op.step);
  ListChars order_chars;
  const char* order = list_chars(meta.dim_order, meta.rank, order_chars);
  if (rules.outermost_only && (r.step != 1 || meta.dim_order[0] != d)) {
    reason = format_msg("conservative pass: only step-1 slices of the outermost dim (%d) become "
                        "aliases", meta.dim_order[0]);
    rule = "conservative";
    return false;
  }
  if (rules.dense(meta.sizes, meta.dim_order, meta.rank, d, r)) {
    reason = format_msg("dense in dim order %s (dim %d: start %lld, %lld of %lld elements, step %lld)",
                        order, d, (long long)r.start, (long long)r.length,
                        (long long)meta.sizes[d], (long long)r.step);
    return true;
  }
  if (r.step != 1 && r.length != 1) {
    reason = format_msg("not dense: step %lld on dim %d leaves gaps between the %lld elements",
                        (long long)r.step, d, (long long)r.length);
    rule = "not-dense-step";
  } else {
    reason = format_msg("not dense: keeps %lld of %lld elements of dim %d, and a dim before it "
                        "in dim order %s has size > 1, so the elements are not one block",
                        (long long)r.length, (long long)meta.sizes[d], d, order);
    rule = "not-dense-extent";
  }
  return false;
}

// Rule 1 for the other view copies: the general density rule over the op's view
// of its source, in y's dim order.
bool view_dense_reason(const Op& op, const Tensor& src, const Tensor& y, const OpLayoutFacts& f,
                       const PassRules& rules, std::string& reason, std::string& rule) {
  const char* name = op_kind_name(op.kind);
  if (rules.outermost_only) {
    reason = format_msg("conservative pass: only step-1 slices of the outermost dim become "
                        "aliases; a %s stays a copy", name);
    rule = "conservative";
    return false;
  }
  if (!f.view) {
    reason = format_msg("not viewable: the elements of '%s' (%s) are not one row-major block, so "
                        "%s must copy them", op.src.c_str(), layout_string(src).c_str(), name);
    rule = "not-viewable";
    return false;
  }
  const ViewLayout& v = *f.view;
  ListChars order_chars, sizes_chars, strides_chars;
  const char* order = list_chars(y.dim_order, y.rank, order_chars);
  if (rules.dense_view(v, y.dim_order)) {
    reason = format_msg("dense in dim order %s (%s of '%s': sizes %s, strides %s, offset %lld "
                        "elements)",
                        order, name, op.src.c_str(), list_chars(v.sizes, v.rank, sizes_chars),
                        list_chars(v.strides, v.rank, strides_chars), (long long)v.offset);
    return true;
  }
  reason = format_msg("not dense: the %s view of '%s' has strides %s where a fresh tensor of sizes "
                      "%s in dim order %s has %s, so its elements are not one block laid out "
                      "like the result",
                      name, op.src.c_str(), list_string(v.strides, v.rank).c_str(),
                      list_string(v.sizes, v.rank).c_str(), order,
                      list_string(y.strides, y.rank).c_str());
  rule = "not-dense";
  return false;
}

}  // namespace

std::vector<int> last_direct_use(const Case& c, const ProgramInfo& info) {
  std::vector<int> last(info.values.size(), -1);
  for (int k = 0; k < ops_that_run(c, info); ++k) {
    const OpInfo& oi = info.ops[k];
    if (oi.src >= 0) last[oi.src] = k;
    if (oi.target >= 0) last[oi.target] = k;
    if (oi.other >= 0) last[oi.other] = k;
  }
  return last;
}

RewritePlan copy_only_plan(const Case& c, const ProgramInfo& info) {
  RewritePlan plan;
  plan.root.resize(info.values.size());
  for (size_t v = 0; v < info.values.size(); ++v) plan.root[v] = static_cast<int>(v);
  plan.delta_bytes.assign(info.values.size(), 0);
  for (int k = 0; k < ops_that_run(c, info); ++k)
    if (op_is_view_copy(c.ops[k].kind))
      plan.decisions.push_back({k, info.ops[k].result, false, "copy-only plan", "copy-only"});
  return plan;
}

RewritePlan replace_slice_copy_with_slice(const Case& c, const ProgramInfo& info, const PassContext& ctx) {
  return rewrite_with_rules(c, info, PassRules{}, ctx);
}

RewritePlan rewrite_with_rules(const Case& c, const ProgramInfo& info, const PassRules& rules,
                               const PassContext& ctx) {
  RewritePlan plan = copy_only_plan(c, info);
  plan.decisions.clear();
  const int n = ops_that_run(c, info);
  const ProgramUses uses(c, info, n);
  std::vector<int> family;

  for (int k = 0; k < n; ++k) {
    const Op& op = c.ops[k];
    if (!op_is_view_copy(op.kind)) continue;
    const OpInfo& oi = info.ops[k];
    RewriteDecision d{k, oi.result, false, "", ""};
    const int root = plan.root[oi.src];
    const std::string& y = op.result;
    const Tensor src = value_meta(info.values[oi.src]);
    const Tensor out = value_meta(info.values[oi.result]);
    const OpLayoutFacts facts = op_layout_facts(op, src, rules.reshape);
    uses.family(oi.result, family);
    // Rule 3 over y and its eager views: the first op that writes y's bytes.
    int mutated_by = -1, mutated_value = -1;
    for (int v : family)
      for (int m : uses.mutations[v])
        if (mutated_by < 0 || m < mutated_by) mutated_by = m, mutated_value = v;
    const bool output = rules.output_rule_next_node_only
                            ? uses.is_output[oi.result] && k + 1 == static_cast<int>(c.ops.size())
                            : std::any_of(family.begin(), family.end(),
                                          [&](int v) { return uses.is_output[v]; });

    if (ctx.keeps_copy(k)) {
      d.rule = "copy-at-another-size";
      d.reason = "it stays a copy at another execution's sizes, so at every one";
    } else if (!facts.error.empty()) {
      // The analysis found the arguments valid; the kernels' own checks do not.
      // Never alias what the system under test cannot describe (the copy kernel
      // reports the disagreement when it runs).
      d.rule = "invalid-args";
      d.reason = "the kernels' own checks reject the arguments: " + facts.error;
    } else if (rules.layout_rule && !layout_reason(op, src, out, facts, d.reason)) {
      d.rule = "layout";
    } else if (op.kind == OpKind::SliceCopy ? !slice_dense_reason(op, src, rules, d.reason, d.rule)
                                            : !view_dense_reason(op, src, out, facts, rules, d.reason, d.rule)) {
      // rule 1: reason and tag set
    } else if (rules.output_rule && output) {
      d.rule = "output";
      d.reason = "'" + y + "' is a program output: the runtime may repoint output buffers";
      if (!uses.is_output[oi.result])
        d.reason = "an eager view of '" + y + "' is a program output: the runtime may repoint "
                   "output buffers";
    } else if (rules.mutation_rule && mutated_by >= 0) {
      d.rule = "mutated";
      d.reason = "'" + y + "' is mutated in place by op " + std::to_string(mutated_by) + " `" +
                 print_op(c.ops[mutated_by]) + "`; as an alias the write would reach '" +
                 info.values[root].name + "'";
      if (mutated_value != oi.result)
        d.reason = "'" + info.values[mutated_value].name + "', an eager view of '" + y +
                   "', is mutated in place by op " + std::to_string(mutated_by) + " `" +
                   print_op(c.ops[mutated_by]) + "`; as an alias the write would reach '" +
                   info.values[root].name + "'";
    } else {
      // Rule 4. Aliases of y are decided later and check their own reads against
      // the same root, so the reads of y (and of its eager views) are what matter
      // here; a write to the root storage is a write through any name of it.
      int reads_until = -1;
      for (int v : family) reads_until = std::max(reads_until, uses.last_use[v]);
      int hazard = -1;
      for (int m = k + 1; rules.root_mutation_rule && m <= reads_until && hazard < 0; ++m) {
        const int t = info.ops[m].target;
        if (t >= 0 && op_mutated(c.ops[m]) != "" && plan.root[uses.storage_owner(t)] == root) hazard = m;
      }
      if (hazard >= 0) {
        d.rule = "root-written";
        d.reason = "root '" + info.values[root].name + "' is mutated by op " +
                   std::to_string(hazard) + " `" + print_op(c.ops[hazard]) + "` while '" + y +
                   "' is still read (until op " + std::to_string(reads_until) +
                   "); the copy took a snapshot, an alias would see the write";
      } else {
        d.alias = true;
        d.rule = op_alias_prim(op.kind);
        plan.root[oi.result] = root;
        int64_t offset_elems = alias_offset_elems(*facts.view);
        if (op.kind == OpKind::SliceCopy) {
          const int dim = *normalize_dim(op.dim, src.rank);
          offset_elems = slice_alias_offset_elems(
              src, dim, normalize_slice(src.sizes[dim], op.start, op.end, op.step));
        }
        plan.delta_bytes[oi.result] =
            plan.delta_bytes[oi.src] + offset_elems * static_cast<int64_t>(src.element_size());
        // One string of the final length (a chain of + reallocates at each step).
        const std::string& root_name = info.values[root].name;
        const std::string offset = std::to_string(plan.delta_bytes[oi.result]);
        std::string reason;
        reason.reserve(d.rule.size() + root_name.size() + offset.size() + d.reason.size() + 24);
        reason.append(d.rule).append(" of '").append(root_name).append("' at byte offset ");
        reason.append(offset).append(": ").append(d.reason);
        d.reason = std::move(reason);
      }
    }
    plan.decisions.push_back(std::move(d));
  }
  return plan;
}

}  // namespace slicefuzz
