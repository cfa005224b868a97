#include "oracles/plan_check.h"

#include <algorithm>
#include <climits>

#include "oracles/judge_facts.h"

namespace slicefuzz {

namespace {

struct Span {
  int first = 0, last = 0;  // steps, inclusive
};

std::string range(int64_t off, int64_t n) {
  const __int128 end = static_cast<__int128>(off) + n;  // a pass may hand over any offset
  return "[" + std::to_string(off) + ", " +
         (end > INT64_MAX ? std::string("past 2^63") : std::to_string(static_cast<int64_t>(end))) + ")";
}
std::string steps(int a, int b) { return std::to_string(a) + ".." + std::to_string(b); }

}  // namespace

PlanVerdict judge_plan(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                       const MemoryPlan& plan, const std::vector<int64_t>& torch_delta,
                       int64_t alignment, bool alias_placements) {
  using I = PlanInvariant;
  const int ops_run = info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
  const int end_step = ops_run + 1;
  int nv = 0;  // values that exist in this run are a prefix: defined before failing_op
  while (nv < static_cast<int>(info.values.size()) && info.values[nv].known) ++nv;
  auto name = [&](int v) { return "'" + info.values[v].name + "'"; };
  if (static_cast<int>(plan.tensors.size()) < nv || static_cast<int>(rewrite.root.size()) < nv)
    return {I::TensorCount, "the plan places " + std::to_string(plan.tensors.size()) + " tensors but " +
           std::to_string(nv) + " values exist"};

  // Bytes each value needs, from the judge's sizes.
  std::vector<int64_t> bytes(nv, 0);
  for (int v = 0; v < nv; ++v)
    bytes[v] = judge::tensor_bytes(info.values[v].sizes, info.values[v].dtype).value_or(0);

  // Lifetimes from the program: a value lives from the step that defines it to
  // its last read or write (outputs: the end); a storage root as long as anything
  // that lives in it.
  std::vector<Span> live(nv);
  for (int v = 0; v < nv; ++v) live[v].first = live[v].last = info.values[v].def_op + 1;
  for (int k = 0; k < ops_run; ++k)
    for (int v : {info.ops[k].src, info.ops[k].target, info.ops[k].other})
      if (v >= 0 && v < nv) live[v].last = std::max(live[v].last, k + 1);
  for (int v : info.outputs)
    if (v < nv) live[v].last = end_step;
  std::vector<Span> storage = live;
  std::vector<int> last_user(nv);  // the value whose use ends each storage's life
  for (int v = 0; v < nv; ++v) last_user[v] = v;
  for (int v = 0; v < nv; ++v) {
    const int r = rewrite.root[v];
    if (r < 0 || r >= nv || rewrite.root[r] != r || (r != v && info.values[r].def_op >= info.values[v].def_op))
      return {I::BadRoot, "alias " + name(v) + " resolves to " +
             (r >= 0 && r < nv ? name(r) : "value " + std::to_string(r)) +
             ", which is not a storage root defined before it"};
    if (live[v].last > storage[r].last) storage[r].last = live[v].last, last_user[r] = v;
  }

  // Version 4: a constant's bytes, and so its aliases', are the program's; the
  // arena holds none of them, and nothing else lives among the constants.
  for (int a = 0; a < nv; ++a) {
    const bool constant = info.values[rewrite.root[a]].constant;
    if (plan.tensors[a].constant != constant)
      return {I::ConstantPlacement,
              constant ? name(a) + (rewrite.root[a] == a ? std::string(" is a constant")
                                                         : " aliases the constant " + name(rewrite.root[a])) +
                             ", but the plan places it in the arena (at byte " +
                             std::to_string(plan.tensors[a].offset) + "), where the constant's bytes never are"
                       : name(a) + " is planned among the program's constants, but it is no constant"};
  }
  for (int a = 0; a < nv; ++a) {
    const TensorPlacement& ta = plan.tensors[a];
    if (ta.constant && rewrite.root[a] == a) continue;  // the program's bytes: no arena facts
    if (rewrite.root[a] != a) {
      if (!alias_placements) continue;
      const int r = rewrite.root[a];
      const int64_t root_off = plan.tensors[r].offset;
      // 128 bits: a pass may hand over any delta.
      const __int128 delta = static_cast<__int128>(ta.offset) - root_off;
      // An empty alias reads nothing, so it may sit anywhere in its root, but not
      // past the arena: ExecuTorch resolves every planned tensor through
      // HierarchicalAllocator::get_offset_address, which refuses an offset + size
      // past its buffer (runtime/core/hierarchical_allocator.h at cff6f4dd), so
      // the Method does not load.
      if (bytes[a] == 0 && !ta.constant && (ta.offset < 0 || ta.offset > plan.arena_bytes))
        return {I::OutsideArena, "empty alias " + name(a) + " is planned at byte " + std::to_string(ta.offset) +
               ", outside the " + std::to_string(plan.arena_bytes) +
               "-byte arena (ExecuTorch refuses a planned offset past its buffer: the Method "
               "would not load)"};
      if (bytes[a] > 0 && (delta < 0 || delta + bytes[a] > bytes[r]))
        return {I::AliasOutsideRoot, "alias " + name(a) + " " + range(ta.offset, bytes[a]) + " lies outside its root " +
               name(r) + " " + range(root_off, bytes[r])};
      if (bytes[a] > 0 && a < static_cast<int>(torch_delta.size()) &&
          delta != torch_delta[a])
        return {I::AliasOffset, "alias " + name(a) + " is planned " + std::to_string(static_cast<int64_t>(delta)) +
               " bytes into its root " + name(r) + ", but torch's view starts " +
               std::to_string(torch_delta[a]) + " bytes in"};
      continue;
    }
    if (ta.nbytes < bytes[a])
      return {I::TooFewBytes, name(a) + " needs " + std::to_string(bytes[a]) + " bytes but the plan gives it " +
             std::to_string(ta.nbytes)};
    if (ta.offset < 0 || static_cast<__int128>(ta.offset) + bytes[a] > plan.arena_bytes)
      return {I::OutsideArena, name(a) + " " + range(ta.offset, bytes[a]) + " lies outside the " +
             std::to_string(plan.arena_bytes) + "-byte arena"};
    if (bytes[a] > 0 && ta.offset % alignment != 0)
      return {I::Misaligned, name(a) + " starts at byte " + std::to_string(ta.offset) + ", not aligned to " +
             std::to_string(alignment) + " bytes"};
    // The executor opens and closes each region at the plan's steps: a lifetime
    // shorter than the program's uses is a read of a dead (poisoned) region.
    if (ta.first_step > storage[a].first || ta.last_step < storage[a].last)
      return {I::LifetimeEndsEarly, name(a) + " is used at steps " + steps(storage[a].first, storage[a].last) +
             (last_user[a] != a ? " (the last through its alias " + name(last_user[a]) + ")" : "") +
             " but the plan keeps it alive at steps " + steps(ta.first_step, ta.last_step)};
    for (int b = a + 1; b < nv; ++b) {
      const TensorPlacement& tb = plan.tensors[b];
      if (rewrite.root[b] != b || tb.constant || bytes[a] == 0 || bytes[b] == 0) continue;
      const bool co_live = storage[a].first <= storage[b].last && storage[b].first <= storage[a].last;
      const bool share = ta.offset < tb.offset + bytes[b] && tb.offset < ta.offset + bytes[a];
      if (co_live && share)
        return {I::Overlap, name(a) + " " + range(ta.offset, bytes[a]) + " and " + name(b) + " " +
               range(tb.offset, bytes[b]) + " overlap in bytes while both live (the program uses "
               "them at steps " + steps(storage[a].first, storage[a].last) + " and " +
               steps(storage[b].first, storage[b].last) + "; the plan says " +
               steps(ta.first_step, ta.last_step) + " and " + steps(tb.first_step, tb.last_step) + ")"};
    }
  }
  return {};
}

std::string check_plan(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                       const MemoryPlan& plan, const std::vector<int64_t>& torch_delta,
                       int64_t alignment) {
  return judge_plan(c, info, rewrite, plan, torch_delta, alignment).message;
}

}  // namespace slicefuzz
