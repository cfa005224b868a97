#include "generators/tensor_operands.h"

#include <string>
#include <vector>

#include "oracles/analysis.h"

namespace slicefuzz::gen {

bool make_two_tensor_op(Case& c, size_t i, std::mt19937_64& rng) {
  if (i >= c.ops.size() || (c.ops[i].kind != OpKind::AddOut && c.ops[i].kind != OpKind::MulOut)) return false;
  ProgramInfo info;
  AnalysisError err;
  if (!analyze(c, kDefaultByteBudget, info, err)) return false;
  // Past a failing op the analysis knows no sizes: nothing to match.
  if (info.failing_op >= 0 && static_cast<size_t>(info.failing_op) < i) return false;
  const ValueInfo& src = info.values[info.ops[i].src];
  std::vector<std::string> same;
  for (size_t v = 0; v < info.values.size(); ++v) {
    const ValueInfo& vi = info.values[v];
    const bool before = vi.def_op < static_cast<int>(i);  // inputs: -1
    if (before && vi.known && vi.dtype == src.dtype && vi.sizes == src.sizes) same.push_back(vi.name);
  }
  if (same.empty()) return false;
  Op& op = c.ops[i];
  op.kind = op.kind == OpKind::AddOut ? OpKind::AddTensor : OpKind::MulTensor;
  op.other = same[rng() % same.size()];
  op.scalar = 0;
  return true;
}

}  // namespace slicefuzz::gen
