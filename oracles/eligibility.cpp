#include "oracles/eligibility.h"

#include <algorithm>
#include <map>

namespace slicefuzz {

namespace {

bool mutates(const Op& op, const std::string& name) {
  return (op.kind == OpKind::Add || op.kind == OpKind::Copy) && op.target == name;
}

bool uses(const Op& op, const std::string& name) {
  return op.src == name || op.target == name;
}

}  // namespace

std::vector<EligibilityVerdict> judge_eligibility(const Case& c, const ProgramInfo& info,
                                                  const std::vector<TorchSliceView>& views,
                                                  const std::vector<int>& aliased_ops) {
  std::vector<EligibilityVerdict> out;
  // storage_of[name]: the name of the tensor whose bytes `name` lives in, given
  // the pass's decisions for the slices before it.
  std::map<std::string, std::string> storage_of;
  // Ops from the failing one on never run, so they neither read nor write.
  const size_t ran = info.failing_op >= 0 ? static_cast<size_t>(info.failing_op) : c.ops.size();
  storage_of[c.input] = c.input;
  for (const TorchSliceView& view : views) {
    const Op& op = c.ops[view.op];
    const std::string& y = op.result;
    const std::string storage = storage_of.count(op.src) ? storage_of[op.src] : op.src;
    EligibilityVerdict v{view.op, false, ""};
    bool is_output = false;
    for (const std::string& o : c.outputs) is_output = is_output || o == y;
    bool y_mutated = false;
    for (size_t m = view.op + 1; m < ran; ++m) y_mutated = y_mutated || mutates(c.ops[m], y);
    // The storage is written at op m while y is still used at m or later.
    int hazard = -1;
    for (size_t m = view.op + 1; m < ran && hazard < 0; ++m) {
      if (!mutates(c.ops[m], storage)) continue;
      for (size_t u = m; u < ran; ++u)
        if (uses(c.ops[u], y)) hazard = static_cast<int>(m);
    }
    if (!view.dense) v.reason = "torch's view is not dense in the dim order";
    else if (is_output) v.reason = "program output";
    else if (y_mutated) v.reason = "mutated in place";
    else if (hazard >= 0)
      v.reason = "'" + storage + "' is written by op " + std::to_string(hazard) + " while '" + y +
                 "' is still read";
    else v.eligible = true, v.reason = "eligible";
    const bool aliased =
        std::find(aliased_ops.begin(), aliased_ops.end(), view.op) != aliased_ops.end();
    storage_of[y] = aliased ? storage : y;
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace slicefuzz
