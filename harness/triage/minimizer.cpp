#include "harness/triage/minimizer.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <optional>

#include "generators/mutator.h"
#include "harness/triage/minimize_dynamic.h"
#include "harness/triage/signature.h"
#include "oracles/analysis.h"
#include "oracles/dynamic_analysis.h"
#include "oracles/judge_facts.h"
#include "vocab/program_info.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {

bool well_formed(const Case& c, int64_t budget) {
  ProgramInfo info;
  if (c.is_dynamic() || !c.runs.empty()) {  // version 4: every assignment, every execution
    DynamicInfo d;
    DynamicError err;
    return c.is_dynamic() && analyze_dynamic(c, budget, d, info, err);
  }
  AnalysisError err;
  return analyze(c, budget, info, err);
}

// Input `k` without its dim `removed`, in its dim order without that dim (taken
// before the sizes shrink: an identity order spelled out of the old rank).
void drop_input_dim(Case& c, size_t k, int removed) {
  InputDecl& in = c.inputs[k];
  std::vector<int> order;
  for (int d : in.effective_dim_order())
    if (d != removed) order.push_back(d > removed ? d - 1 : d);
  in.sizes.erase(in.sizes.begin() + removed);
  if (static_cast<size_t>(removed) < in.sym_sizes.size()) in.sym_sizes.erase(in.sym_sizes.begin() + removed);
  in.dim_order = order;
  canonicalize(c);
}

// Whether an op or an output names input `k`.
bool input_used(const Case& c, size_t k) {
  const std::string& name = c.inputs[k].name;
  for (const Op& op : c.ops)
    if (op.src == name || op.target == name || op.other == name) return true;
  for (const std::string& o : c.outputs)
    if (o == name) return true;
  return false;
}

// Where the dim at position `p` of an op's source is in its result (-1 once it is
// gone: squeezed or reshaped away), with the op's dim arguments renumbered around
// it, by what each argument means (its role in the op's schema, vocab/op_schema.h);
// nullopt when the op works on exactly that dim (slices, selects or narrows it),
// sizes would need new values (the dim has size > 1), or a second tensor operand
// of another shape would have to lose a dim too (index_copy's source). A wrong
// guess costs a candidate, never a reproducer: every candidate is run again.
std::optional<int> follow_dropped_dim(Op& op, int p, const std::vector<int64_t>& sizes, int result_rank) {
  const int rank = static_cast<int>(sizes.size());
  auto renumber = [p](int d) { return d > p ? d - 1 : d; };
  int result_at = p;  // ops that keep the source's dims keep its place
  for (const ArgSpec& a : op_kind_info(op.kind).args) {
    switch (a.role) {
      case ArgRole::Dim: {
        const int d = judge::dim_index(rank, op_int(op, a.slot));
        if (d < 0) break;  // an invalid dim: left as written
        if (d == p) return std::nullopt;
        op_int(op, a.slot) = renumber(d);
        if (result_rank == rank - 1) result_at = d < p ? p - 1 : p;  // the op removes its dim
        break;
      }
      case ArgRole::NewDim: {
        const int d = judge::dim_index(rank + 1, op_int(op, a.slot));
        if (d < 0) break;
        op_int(op, a.slot) = renumber(d);
        result_at = d <= p ? p + 1 : p;
        break;
      }
      case ArgRole::Dims: {
        std::vector<int64_t> dims;
        int squeezed_below = 0;
        bool squeezed_it = false;
        for (int64_t dim : op.ints) {
          const int d = judge::dim_index(std::max(rank, 1), dim);
          if (d < 0) {
            dims.push_back(dim);
            continue;
          }
          if (d == p) {  // the dim itself: gone from the input, so from the list
            squeezed_it = sizes[d] == 1;
            continue;
          }
          squeezed_below += d < p && sizes[d] == 1;
          dims.push_back(renumber(d));
        }
        if (dims.empty()) return std::nullopt;  // the op needs a dim left to name
        op.ints = dims;
        result_at = squeezed_it ? -1 : p - squeezed_below;
        break;
      }
      case ArgRole::Permutation: {
        // The dim leaves the list; the result's copy of it was where it was listed.
        std::vector<int64_t> dims;
        result_at = -1;
        for (int64_t dim : op.ints) {
          const int d = judge::dim_index(rank, dim);
          if (d < 0) return std::nullopt;  // not a permutation: nothing to follow
          if (d == p) {
            result_at = static_cast<int>(dims.size());
            continue;
          }
          dims.push_back(renumber(d));
        }
        op.ints = dims;
        break;
      }
      case ArgRole::Sizes:
        if (sizes[p] != 1) return std::nullopt;
        result_at = -1;  // a size-1 dim: the same elements under the same sizes
        break;
      case ArgRole::Layout:
        if (op.dim_order) {
          std::vector<int> order;
          for (int d : *op.dim_order)
            if (d != p) order.push_back(renumber(d));
          op.dim_order = order;
        }
        break;
      case ArgRole::Positions: return std::nullopt;  // an indexed write: its source keeps the dim
      case ArgRole::Operand:  // copy_'s source has the target's sizes: it loses the dim too
      case ArgRole::Position:
      case ArgRole::Extent:
      case ArgRole::Step:
      case ArgRole::Scalar: break;
    }
  }
  return result_at;
}

// Drops input k's dim `removed`, following it through the program: per value,
// where that dim is (-1 once it is gone), and every op's dim arguments renumbered
// around it (follow_dropped_dim). False when an op cannot follow it. Ops past
// the first failing one keep their text.
bool drop_dim_through_layouts(Case& c, size_t input, int removed, int64_t budget) {
  ProgramInfo info;
  AnalysisError err;
  if (!analyze(c, budget, info, err)) return false;
  std::vector<int> at(info.values.size(), -1);  // where the dropped dim is in each value
  at[input] = removed;  // input k is value k
  for (size_t k = 0; k < c.ops.size() && k < info.ops.size(); ++k) {
    Op& op = c.ops[k];
    const OpInfo& oi = info.ops[k];
    if (op.kind == OpKind::Add) continue;  // no dims, no source, defines nothing
    if (oi.src < 0 || !info.values[oi.src].known) break;
    const int p = at[oi.src];
    int result_at = p;
    if (p >= 0) {
      const int result_rank = oi.result >= 0 && info.values[oi.result].known
                                  ? static_cast<int>(info.values[oi.result].sizes.size())
                                  : -1;
      const std::optional<int> followed = follow_dropped_dim(op, p, info.values[oi.src].sizes, result_rank);
      if (!followed) return false;
      result_at = *followed;
    }
    if (oi.result >= 0) at[oi.result] = result_at;
    if (static_cast<int>(k) == info.failing_op) break;
  }
  drop_input_dim(c, input, removed);
  return true;
}

// The arguments of an op with no reductions of its own, shrunk by what each
// argument means (its role in the op's schema, vocab/op_schema.h): dims toward 0
// (a negative one first to its positive spelling), positions toward 0 (a negative
// one first to the same position counted from the start of `dim`) or None,
// extents and steps toward 1, lists shorter (a negative dim in a list to its
// positive spelling), a dim order dropped. `edit` keeps an edit only where the op
// still runs.
template <class Edit>
void generic_arg_reductions(const Op& op, const std::vector<int64_t>& src_sizes, Edit&& edit) {
  const int64_t rank = static_cast<int64_t>(src_sizes.size());
  // The size along the op's dim, for a negative position; -1 when there is none.
  int64_t dim_size = -1;
  for (const ArgSpec& a : op_kind_info(op.kind).args)
    if (a.role == ArgRole::Dim) {
      const int d = judge::dim_index(static_cast<int>(rank), op_int(op, a.slot));
      if (d >= 0) dim_size = src_sizes[static_cast<size_t>(d)];
    }
  for (const ArgSpec& a : op_kind_info(op.kind).args) {
    const ArgSlot slot = a.slot;
    if (a.kind == ArgKind::OptInt) {
      const std::optional<int64_t> v = op_opt_int(op, slot);
      if (v) edit([slot](Op& o) { op_opt_int(o, slot).reset(); });
      if (v && *v != 0) edit([slot](Op& o) { op_opt_int(o, slot) = 0; });
      if (v && (*v > 1 || *v < -1)) edit([slot](Op& o) { op_opt_int(o, slot) = *op_opt_int(o, slot) / 2; });
      continue;
    }
    if (a.kind == ArgKind::IntList || a.kind == ArgKind::DimList) {
      if (a.role == ArgRole::Sizes) {  // a result's sizes: the source's own, fewer, merged
        if (op.ints != src_sizes) edit([&src_sizes](Op& o) { o.ints = src_sizes; });
        for (size_t j = 0; op.ints.size() > 1 && j < op.ints.size(); ++j)  // drop a size 1
          if (op.ints[j] == 1) edit([j](Op& o) { o.ints.erase(o.ints.begin() + static_cast<std::ptrdiff_t>(j)); });
        for (size_t j = 0; j + 1 < op.ints.size(); ++j) {  // merge two neighbours
          const int64_t x = op.ints[j], y = op.ints[j + 1];
          if (x < 0 || y < 0 || (x > 0 && y > INT64_MAX / x)) continue;
          edit([j, x, y](Op& o) {
            o.ints[j] = x * y;
            o.ints.erase(o.ints.begin() + static_cast<std::ptrdiff_t>(j) + 1);
          });
        }
      }
      if (a.role == ArgRole::Permutation) {  // every dim stays listed: negatives counted from the front
        for (size_t j = 0; j < op.ints.size(); ++j)
          if (op.ints[j] < 0) edit([j, rank](Op& o) { o.ints[j] += rank; });
        continue;
      }
      for (size_t j = 0; op.ints.size() > 1 && j < op.ints.size(); ++j)
        edit([j](Op& o) { o.ints.erase(o.ints.begin() + static_cast<std::ptrdiff_t>(j)); });
      if (a.role == ArgRole::Dims)  // a 0-dim source names dim 0 or -1
        for (size_t j = 0; j < op.ints.size(); ++j)
          if (op.ints[j] < 0) edit([j, rank](Op& o) { o.ints[j] += std::max<int64_t>(rank, 1); });
      continue;
    }
    if (a.kind == ArgKind::DimOrder) {
      if (op.dim_order) edit([](Op& o) { o.dim_order.reset(); });
      continue;
    }
    if (a.kind != ArgKind::Int && a.kind != ArgKind::Scalar) continue;
    const int64_t v = op_int(op, slot);
    switch (a.role) {
      case ArgRole::Dim:
      case ArgRole::NewDim: {
        const int64_t span = a.role == ArgRole::NewDim ? rank + 1 : rank;
        if (v < 0) edit([slot, span](Op& o) { op_int(o, slot) += span; });
        if (v != 0) edit([slot](Op& o) { op_int(o, slot) = 0; });
        break;
      }
      case ArgRole::Step:
      case ArgRole::Extent:
      case ArgRole::Scalar:
        if (v != 1) edit([slot](Op& o) { op_int(o, slot) = 1; });
        if (v > 2 || v < -2) edit([slot](Op& o) { op_int(o, slot) /= 2; });
        break;
      case ArgRole::Position:
        if (v < 0 && dim_size >= 0) edit([slot, dim_size](Op& o) { op_int(o, slot) += dim_size; });
        [[fallthrough]];
      default:
        if (v != 0) edit([slot](Op& o) { op_int(o, slot) = 0; });
        if (v > 1 || v < -1) edit([slot](Op& o) { op_int(o, slot) /= 2; });
        break;
    }
  }
}

// Version 1: every value has the input's rank and dims, so each slice's dim is
// renumbered directly (the minimiser's behaviour on version-1 cases is unchanged).
bool drop_dim(Case& c, size_t input, int removed, int64_t budget) {
  if (c.min_version() >= 2) return drop_dim_through_layouts(c, input, removed, budget);
  const int rank = static_cast<int>(c.inputs[0].sizes.size());
  for (Op& op : c.ops) {
    if (op.kind != OpKind::SliceCopy) continue;
    const int d = judge::dim_index(rank, op.dim);
    if (d < 0) continue;  // an invalid dim stays invalid at the lower rank only if still out of range
    if (d == removed) return false;
    op.dim = d > removed ? d - 1 : d;
  }
  drop_input_dim(c, 0, removed);
  return true;
}

bool has_empty_dim(const Case& c) {
  for (const InputDecl& in : c.inputs)
    for (int64_t s : in.sizes)
      if (s == 0) return true;
  return false;
}

// Candidates simplest-first: the bigger the step toward a small case, the earlier.
// Sizes shrink toward 1, never to 0, unless `allow_empty`: an empty tensor makes
// almost every finding vanish into "0 of 0 elements", a message nobody can act
// on, so a finding seen on non-empty data is minimised on non-empty data. Empty
// sizes are tried last, and only when the original case had an empty dim (then
// emptiness may be the trigger, e.g. an empty alias outside its root).
std::vector<Case> candidates_of(const Case& c, int64_t budget, bool allow_empty) {
  std::vector<Case> out;
  auto add = [&](Case k) {
    canonicalize(k);
    if (!(k == c) && well_formed(k, budget)) out.push_back(std::move(k));
  };
  for (Case& k : dynamic_candidates(c)) add(std::move(k));  // version 4: executions, symbols
  for (size_t i = c.ops.size(); i-- > 0;) {  // drop an op (readers re-sourced)
    Case k = c;
    k.ops.erase(k.ops.begin() + static_cast<std::ptrdiff_t>(i));
    repair_case(k, budget);
    add(k);
  }
  for (size_t i = 0; c.outputs.size() > 1 && i < c.outputs.size(); ++i) {
    Case k = c;
    k.outputs.erase(k.outputs.begin() + static_cast<std::ptrdiff_t>(i));
    add(k);
  }
  for (size_t i = c.inputs.size(); c.inputs.size() > 1 && i-- > 0;)  // drop an unused input
    if (!input_used(c, i)) {
      Case k = c;
      k.inputs.erase(k.inputs.begin() + static_cast<std::ptrdiff_t>(i));
      add(k);
    }
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const std::vector<int64_t>& sizes = c.inputs[i].sizes;
    for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {  // reduce rank
      Case k = c;
      if (drop_dim(k, i, d, budget)) add(k);
    }
    for (size_t d = 0; d < sizes.size(); ++d) {  // shrink sizes toward 1
      if (d < c.inputs[i].sym_sizes.size() && c.inputs[i].sym_sizes[d] >= 0) continue;  // its range's
      for (int64_t s : {int64_t{1}, sizes[d] / 2, sizes[d] - 1})
        if (s >= 1 && s < sizes[d]) {
          Case k = c;
          k.inputs[i].sizes[d] = s;
          add(k);
        }
    }
  }
  ProgramInfo info;
  AnalysisError err;
  const bool analysed = analyze(c, budget, info, err);
  for (size_t i = 0; i < c.ops.size(); ++i) {  // simplify arguments
    const Op& op = c.ops[i];
    // An op with a symbolic argument: made literal first (dynamic_candidates);
    // its fields hold 0 until an execution puts the values in.
    if (!op.sym_args.empty()) continue;
    // An op's edits: only where op i still runs (an op that now must
    // fail would leave the minimised case with a broken op that says nothing).
    auto with_running = [&](auto edit) {
      Case k = c;
      edit(k.ops[i]);
      ProgramInfo ki;
      AnalysisError ke;
      if (analysed && info.failing_op != static_cast<int>(i) && analyze(k, budget, ki, ke) &&
          ki.failing_op == static_cast<int>(i))
        return;
      add(k);
    };
    // The source's sizes (the first input's when the analysis cannot say).
    const int src = analysed && i < info.ops.size() ? info.ops[i].src : -1;
    const std::vector<int64_t>& src_sizes =
        src >= 0 && info.values[src].known ? info.values[src].sizes : c.inputs[0].sizes;
    if (op_is_view_copy(op.kind) && op.kind != OpKind::SliceCopy) {
      // A simpler op in its place, from the same source: a whole-tensor slice_copy
      // (still a view-copy op, so still a possible alias) or a clone. The finding
      // must keep its signature (kind, op kind, rule), so this succeeds where the op is a
      // bystander of the bug, never where it is the culprit.
      with_running([](Op& o) {
        Op whole;
        whole.kind = OpKind::SliceCopy;
        whole.result = o.result;
        whole.src = o.src;
        o = whole;
      });
      with_running([](Op& o) {
        Op clone;
        clone.kind = OpKind::Clone;
        clone.result = o.result;
        clone.src = o.src;
        o = clone;
      });
    }
    if (op.kind == OpKind::Copy) {  // an in-place copy may be a clone in disguise
      Case k = c;
      k.ops.erase(k.ops.begin() + static_cast<std::ptrdiff_t>(i));
      add(k);
    } else if (!is_eager_op(op.kind)) {  // eager programs: shrunk by dropping ops and sizes
      generic_arg_reductions(op, src_sizes, with_running);
    }
  }
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (!c.inputs[i].dim_order.empty()) {
      Case k = c;
      k.inputs[i].dim_order.clear();
      add(k);
    }
  if (c.dtype != ScalarType::Float) {
    Case k = c;
    k.dtype = ScalarType::Float;
    add(k);
  }
  int own_dtypes = 0;
  for (const InputDecl& in : c.inputs) own_dtypes += in.dtype.has_value();
  if (own_dtypes > 1) {  // every input in the default dtype at once (a copy_ between them stays valid)
    Case k = c;
    for (InputDecl& in : k.inputs) in.dtype.reset();
    add(k);
  }
  for (size_t i = 0; i < c.inputs.size(); ++i)  // an input's own dtype: the default
    if (c.inputs[i].dtype) {
      Case k = c;
      k.inputs[i].dtype.reset();
      add(k);
    }
  for (size_t i = 0; allow_empty && i < c.inputs.size(); ++i)  // empty, last of all
    for (size_t d = 0; d < c.inputs[i].sizes.size(); ++d)
      if (c.inputs[i].sizes[d] > 0 && !(d < c.inputs[i].sym_sizes.size() && c.inputs[i].sym_sizes[d] >= 0)) {
        Case k = c;
        k.inputs[i].sizes[d] = 0;
        add(k);
      }
  return out;
}

}  // namespace

std::vector<Case> minimize_candidates(const Case& c, int64_t byte_budget, bool allow_empty) {
  return candidates_of(c, byte_budget, allow_empty);
}

MinimizeResult minimize_case(const Case& original, const Backend& backend,
                             const RunOptions& options, const IsolationOptions& isolation,
                             double time_limit_s) {
  MinimizeResult res;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  IsolationOptions iso = isolation;
  iso.jobs = 1;  // in order, so the first accepted candidate is the simplest
  const JobFn job = [&](size_t, const std::string& text) {
    return run_case_text_job(text, backend, options);
  };

  run_jobs(1, job, [&](size_t) { return print_case(original); },
           [&](size_t, const JobOutcome& o) {
             res.finding = decode_outcome(o);
             return true;
           },
           iso);
  res.minimized = original;
  res.reproduced = res.finding.failed;
  if (!res.reproduced) return res;
  // A candidate must keep the finding's root-cause signature (its kind, the op
  // kind it names, the judge's rule or invariant, a sanitizer's top frame, a
  // worker's diagnosed cause), not only its kind: a smaller case of another root
  // cause is another finding (issue 22: a pr21552-rule write to the base shrank
  // into a write to the slice).
  const std::string signature = finding_signature(original, res.finding);
  const bool allow_empty = has_empty_dim(original);
  // A rule broken at sizes no execution runs (version 4): those sizes become an
  // execution of the case, where the reproducer shows them, if the finding
  // stays the same with it (a pass that decides for every size the ranges allow
  // decides the same; one that looks at the schedule may not, and then the case
  // keeps its schedule and the finding names the sizes).
  if (!res.finding.off_schedule.empty()) {
    Case shown = original;
    shown.runs.push_back(Execution{res.finding.off_schedule});
    run_jobs(1, job, [&](size_t) { return print_case(shown); },
             [&](size_t, const JobOutcome& o) {
               ++res.candidates;
               CaseSummary s = decode_outcome(o);
               if (s.failed && finding_signature(shown, s) == signature) {
                 res.minimized = shown;
                 res.finding = s;
                 ++res.accepted;
               }
               return true;
             },
             iso);
  }

  for (bool progress = true; progress;) {
    progress = false;
    if (elapsed() > time_limit_s) {
      res.timed_out = true;
      break;
    }
    std::vector<Case> cands = candidates_of(res.minimized, options.byte_budget, allow_empty);
    run_jobs(cands.size(), job, [&](size_t i) { return print_case(cands[i]); },
             [&](size_t i, const JobOutcome& o) {
               ++res.candidates;
               CaseSummary s = decode_outcome(o);
               // Once the sizes a rule breaks at are an execution, a smaller case
               // keeps them one (dropping that execution hides them again).
               const bool hides = !s.off_schedule.empty() && res.finding.off_schedule.empty();
               if (s.failed && !hides && finding_signature(cands[i], s) == signature) {
                 res.minimized = cands[i];
                 res.finding = s;
                 ++res.accepted;
                 progress = true;
                 return false;  // restart from the new, smaller case
               }
               return elapsed() <= time_limit_s;
             },
             iso);
  }
  return res;
}

}  // namespace slicefuzz
