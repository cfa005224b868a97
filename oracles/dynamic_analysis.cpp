#include "oracles/dynamic_analysis.h"

#include <cstdint>
#include <algorithm>
#include <map>

#include "oracles/analysis.h"
#include "oracles/judge_facts.h"
#include "vocab/concretise.h"

namespace slicefuzz {

std::string constant_write_error(const Case& c, int& op) {
  // The storage a name lives in: an eager view shares its source's.
  std::map<std::string, std::string> root;
  for (const InputDecl& in : c.inputs) root[in.name] = in.name;
  auto root_of = [&](const std::string& n) {
    auto it = root.find(n);
    return it == root.end() ? n : it->second;
  };
  for (size_t k = 0; k < c.ops.size(); ++k) {
    const Op& o = c.ops[k];
    if (op_defines(o.kind)) root[o.result] = op_is_view(o.kind) ? root_of(o.src) : o.result;
    const std::string& written = op_mutated(o);
    if (written.empty()) continue;
    const InputDecl* in = c.find_input(root_of(written));
    if (in && in->constant) {
      op = static_cast<int>(k);
      return "'" + written + "' is " +
             (written == in->name ? std::string("a constant") : "a view of constant '" + in->name + "'") +
             ", which is never written (a constant lives in the program, not in planned memory)";
    }
  }
  return {};
}

namespace {

bool analysed(const Case& c, const std::vector<int64_t>& values, int64_t budget, Case& concrete,
              ProgramInfo& info, std::string& why) {
  if (!concretise(c, values, concrete, why)) return false;
  AnalysisError e;
  if (!analyze(concrete, budget, info, e)) {
    why = e.message;
    return false;
  }
  return true;
}

}  // namespace

bool analyze_dynamic(const Case& c, int64_t budget, DynamicInfo& out, ProgramInfo& first,
                     DynamicError& err, bool keep_every) {
  using W = DynamicError::Where;
  auto fail = [&](W where, int index, std::string message) {
    err.where = where;
    err.index = index;
    err.message = std::move(message);
    return false;
  };
  // Symbols and tensors are different things: one name, one meaning.
  for (size_t k = 0; k < c.syms.size(); ++k) {
    bool clash = c.find_input(c.syms[k].name) != nullptr;
    for (const Op& o : c.ops) clash = clash || (op_defines(o.kind) && o.result == c.syms[k].name);
    if (clash) return fail(W::Sym, static_cast<int>(k), "symbol '" + c.syms[k].name + "' also names a tensor");
  }
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (c.inputs[i].constant && c.inputs[i].is_dynamic())
      return fail(W::Input, static_cast<int>(i), "a constant's sizes are static");
  int op = -1;
  if (std::string why = constant_write_error(c, op); !why.empty()) return fail(W::Op, op, why);

  out = DynamicInfo{};
  out.assignments = assignment_count(c);
  if (out.assignments > kMaxAssignments)
    return fail(W::Sym, 0, "the symbols' ranges allow " +
                               (out.assignments == INT64_MAX ? std::string("more than 2^63")
                                                             : std::to_string(out.assignments)) +
                               " assignments; the judge enumerates at most " +
                               std::to_string(kMaxAssignments) + " (narrow a range)");

  // The bounds: every assignment within the ranges, each value's largest sizes.
  Case concrete;
  ProgramInfo info;
  std::string why;
  bool ok = true;
  std::vector<std::pair<int, std::string>> rank_at;  // per value: its rank, and where first seen
  std::vector<std::vector<int64_t>> least;           // per value: each dim's smallest size
  for_each_assignment(c, [&](const std::vector<int64_t>& values) {
    if (!analysed(c, values, budget, concrete, info, why)) {
      fail(W::Sym, 0, "at " + describe_execution(c, values) + ": " + why);
      return ok = false;
    }
    if (out.bound_sizes.size() < info.values.size()) out.bound_sizes.resize(info.values.size());
    if (rank_at.size() < info.values.size()) rank_at.resize(info.values.size(), {-1, {}});
    for (size_t v = 0; v < info.values.size(); ++v) {
      const ValueInfo& vi = info.values[v];
      if (!vi.known) continue;
      // One value is one planned tensor: its rank may not depend on a symbol
      // (squeeze_copy of a dim that is 1 at some sizes only, for one).
      const int rank = static_cast<int>(vi.sizes.size());
      if (rank_at[v].first >= 0 && rank_at[v].first != rank) {
        fail(W::Sym, 0, "'" + vi.name + "' has rank " + std::to_string(rank_at[v].first) + " at " +
                            rank_at[v].second + " and rank " + std::to_string(rank) + " at " +
                            describe_execution(c, values) + ": a value's rank may not depend on a symbol");
        return ok = false;
      }
      if (rank_at[v].first < 0) rank_at[v] = {rank, describe_execution(c, values)};
      std::vector<int64_t>& b = out.bound_sizes[v];
      if (b.empty()) b.assign(vi.sizes.size(), 0);
      for (size_t d = 0; d < vi.sizes.size() && d < b.size(); ++d) b[d] = std::max(b[d], vi.sizes[d]);
      if (least.size() < info.values.size()) least.resize(info.values.size());
      if (least[v].empty()) least[v] = vi.sizes;
      for (size_t d = 0; d < vi.sizes.size() && d < least[v].size(); ++d)
        least[v][d] = std::min(least[v][d], vi.sizes[d]);
    }
    if (keep_every) {  // moved, not copied: the next assignment analyses afresh
      ExecutionInfo e;
      e.values = values;
      e.c = std::move(concrete);
      e.info = std::move(info);
      e.run_line = SIZE_MAX;  // no `run` line: an assignment the ranges allow
      out.every.push_back(std::move(e));
    }
    return true;
  });
  if (!ok) return false;
  // The last assignment's value table (each assignment's is the same).
  const ProgramInfo& table = keep_every && !out.every.empty() ? out.every.back().info : info;
  // The plan holds every value at its bound, whose dims may each come from another
  // assignment (an empty [0, 2^31] at one, [4, 0] at another: [4, 2^31]): the bytes
  // at the bounds count against the budget, before anything is allocated.
  {
    __int128 total = 0;
    for (size_t v = 0; v < out.bound_sizes.size() && v < table.values.size(); ++v) {
      if (out.bound_sizes[v].empty() && !table.values[v].known) continue;
      const std::optional<int64_t> bytes = judge::tensor_bytes(out.bound_sizes[v], table.values[v].dtype);
      total += bytes ? *bytes : (static_cast<__int128>(budget) + 1);
      if (total > budget)
        return fail(W::Sym, 0, "at their bounds the case's tensors take more than the byte budget of " +
                                   std::to_string(budget) + " bytes ('" + table.values[v].name + "' at " +
                                   "its bound is one of them; change it with --max-bytes)");
    }
  }

  // A symbol that sizes an input is checked where the inputs are set; one that
  // sizes none is a runtime integer the program computes, so its value must lie in
  // its range (no input check could refuse it).
  std::vector<bool> sizes_an_input(c.syms.size(), false);
  for (const InputDecl& in : c.inputs)
    for (int s : in.sym_sizes)
      if (s >= 0) sizes_an_input[s] = true;
  // Each execution, in order.
  for (size_t r = 0; r < c.runs.size(); ++r) {
    ExecutionInfo e;
    e.values = c.runs[r].values;
    e.run_line = r;
    for (size_t k = 0; k < c.syms.size(); ++k) {
      if (!sizes_an_input[k] && (e.values[k] < c.syms[k].lo || e.values[k] > c.syms[k].hi))
        return fail(W::Run, static_cast<int>(r),
                    "'" + c.syms[k].name + "' sizes no input, so its value must lie in its range [" +
                        std::to_string(c.syms[k].lo) + ", " + std::to_string(c.syms[k].hi) + "]");
      // An input's dim has an upper bound in the program (program.fbs), no lower
      // one: a size below the range's bottom is refused by no input check.
      if (sizes_an_input[k] && e.values[k] < c.syms[k].lo)
        return fail(W::Run, static_cast<int>(r),
                    "'" + c.syms[k].name + "' = " + std::to_string(e.values[k]) + " lies below its range's "
                    "bottom " + std::to_string(c.syms[k].lo) + ": a program has no lower bound to check "
                    "an input against (program.fbs), so only past the top is the input check's test");
    }
    e.in_range = in_range(c, e.values);
    if (e.in_range && keep_every) {  // analysed already, as one of the assignments
      const ExecutionInfo& at = out.every[assignment_index(c, e.values)];
      e.c = at.c;
      e.info = at.info;
    } else if (!concretise(c, e.values, e.c, why)) {
      if (e.in_range) return fail(W::Run, static_cast<int>(r), why);
      // Outside the ranges and not even a tensor: refused where the inputs are set.
    } else {
      AnalysisError ae;
      if (!analyze(e.c, budget, e.info, ae)) {
        if (e.in_range) return fail(W::Run, static_cast<int>(r), ae.message);
        e.info = ProgramInfo{};  // refused at the inputs anyway
      }
    }
    // The program's metadata: which values' shapes vary over the ranges.
    for (size_t v = 0; v < e.info.values.size() && v < least.size(); ++v)
      e.info.values[v].dynamic_shape = least[v] != out.bound_sizes[v];
    out.runs.push_back(std::move(e));
  }
  for (ExecutionInfo& e : out.every)
    for (size_t v = 0; v < e.info.values.size() && v < least.size(); ++v)
      e.info.values[v].dynamic_shape = least[v] != out.bound_sizes[v];
  first = out.runs.empty() ? ProgramInfo{} : out.runs.front().info;
  return true;
}

}  // namespace slicefuzz
