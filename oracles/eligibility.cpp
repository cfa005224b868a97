#include "oracles/eligibility.h"

#include <algorithm>

#include "oracles/judge_layouts.h"

namespace slicefuzz {

namespace {

std::string quoted(const ProgramInfo& info, int v) { return "'" + info.values[v].name + "'"; }

}  // namespace

std::vector<EligibilityVerdict> judge_eligibility(const Case& c, const ProgramInfo& info,
                                                  const std::vector<TorchOpView>& views,
                                                  const std::vector<int>& aliased_ops) {
  // Ops from the failing one on never run, so they neither read nor write, and
  // outputs are read (at the end) only when the program runs to the end.
  const int ran = info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
  const int nv = static_cast<int>(info.values.size());
  auto aliased = [&](int k) {
    return std::find(aliased_ops.begin(), aliased_ops.end(), k) != aliased_ops.end();
  };
  // parent[v]: the value whose bytes v shares, given the pass's decisions (an
  // eager view always; a view-copy op when the pass made it an alias), or -1.
  std::vector<int> parent(nv, -1);
  for (int k = 0; k < ran; ++k) {
    const int y = info.ops[k].result;
    if (y >= 0 && (op_is_view(c.ops[k].kind) || (op_is_view_copy(c.ops[k].kind) && aliased(k))))
      parent[y] = info.ops[k].src;
  }
  auto storage_of = [&](int v) {
    while (parent[v] >= 0) v = parent[v];
    return v;
  };
  // Whether v is `of` or an alias of it, transitively.
  auto within = [&](int v, int of) {
    for (; v >= 0; v = parent[v])
      if (v == of) return true;
    return false;
  };
  std::vector<bool> is_output(nv, false);
  for (int v : info.outputs) is_output[v] = true;

  std::vector<EligibilityVerdict> out;
  for (const TorchOpView& view : views) {
    const int k = view.op;
    const OpInfo& oi = info.ops[k];
    const int y = oi.result, x = oi.src;
    const int storage = storage_of(x);  // where y's bytes would live as an alias
    EligibilityVerdict v{k, false, EligibilityRule::None, ""};

    // Rule 3: the first in-place write to y or to an alias of y.
    int mutated_op = -1, mutated_value = -1;
    for (int m = k + 1; m < ran && mutated_op < 0; ++m) {
      const int t = info.ops[m].target;
      if (op_mutated(c.ops[m]).empty() || t < 0 || !within(t, y)) continue;
      mutated_op = m;
      mutated_value = t;
    }
    // Rule 4: the storage is written at op m (through any value living in it)
    // while y, or an alias of y, is still read at m or later (outputs: at the end).
    // (The value read: y or the alias it is read through; -1 when none is.)
    auto read_from = [&](int m) {
      for (int u = m; u < ran; ++u)
        for (int used : {info.ops[u].src, info.ops[u].target})
          if (used >= 0 && within(used, y)) return used;
      if (info.failing_op < 0)
        for (int o : info.outputs)
          if (within(o, y)) return o;
      return -1;
    };
    int hazard = -1, written_value = -1, read_value = -1;
    for (int m = k + 1; m < ran && hazard < 0; ++m) {
      const int t = info.ops[m].target;
      if (op_mutated(c.ops[m]).empty() || t < 0 || storage_of(t) != storage) continue;
      read_value = read_from(m);
      if (read_value >= 0) hazard = m, written_value = t;
    }
    // Rule 5: the layout y must have, from the judge's semantics of the op.
    // (A query kept per thread: no layout vectors copied per op.)
    thread_local judge::LayoutQuery layout_query;
    const judge::OpOutcome& want =
        layout_query.result(c.ops[k], info.values[x].sizes, info.values[x].dim_order);
    const bool layout_ok = want.error.empty() && info.values[y].dtype == info.values[x].dtype &&
                           info.values[y].dim_order == want.layout.dim_order;

    if (!view.dense) {
      v.broken = EligibilityRule::NotDense;
      v.reason = "torch's view is not dense in the dim order";
    } else if (is_output[y]) {
      v.broken = EligibilityRule::ProgramOutput;
      v.reason = "program output";
    } else if (mutated_op >= 0) {
      v.broken = EligibilityRule::AliasMutated;
      v.reason = mutated_value == y ? "mutated in place"
                                    : quoted(info, mutated_value) + ", an alias of " +
                                          quoted(info, y) + ", is mutated in place by op " +
                                          std::to_string(mutated_op);
    } else if (hazard >= 0) {
      v.broken = EligibilityRule::RootWrittenWhileRead;
      v.reason = quoted(info, storage) + " is written by op " + std::to_string(hazard) +
                 (written_value != storage ? " (through " + quoted(info, written_value) + ")" : "") +
                 " while " + quoted(info, y) + " is still read" +
                 (read_value != y ? " (through its alias " + quoted(info, read_value) + ")" : "");
    } else if (!layout_ok) {
      v.broken = EligibilityRule::Layout;
      v.reason = "the result's layout is not what the op must produce";
    } else {
      v.eligible = true;
      v.reason = "eligible";
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace slicefuzz
