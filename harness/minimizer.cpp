#include "harness/minimizer.h"

#include <chrono>
#include <cstdio>

#include "generators/mutator.h"
#include "oracles/analysis.h"
#include "oracles/judge_facts.h"
#include "program/program_info.h"
#include "program/case_format.h"

namespace slicefuzz {

namespace {

bool well_formed(const Case& c, int64_t budget) {
  ProgramInfo info;
  AnalysisError err;
  return analyze(c, budget, info, err);
}

// Rewrites each slice's dim for a case whose dim `removed` was dropped; false if
// some slice slices exactly that dim.
bool drop_dim(Case& c, int removed) {
  const int rank = static_cast<int>(c.sizes.size());
  for (Op& op : c.ops) {
    if (op.kind != OpKind::SliceCopy) continue;
    const int d = judge::dim_index(rank, op.dim);
    if (d < 0) continue;  // an invalid dim stays invalid at the lower rank only if still out of range
    if (d == removed) return false;
    op.dim = d > removed ? d - 1 : d;
  }
  c.sizes.erase(c.sizes.begin() + removed);
  std::vector<int> order;
  for (int d : c.effective_dim_order())
    if (d != removed) order.push_back(d > removed ? d - 1 : d);
  c.dim_order = order;
  canonicalize(c);
  return true;
}

bool has_empty_dim(const Case& c) {
  for (int64_t s : c.sizes)
    if (s == 0) return true;
  return false;
}

// Candidates simplest-first: the bigger the step toward a small case, the earlier.
// Sizes shrink toward 1, never to 0, unless `allow_empty`: an empty tensor makes
// almost every finding vanish into "0 of 0 elements", a message nobody can act
// on, so a finding seen on non-empty data is minimised on non-empty data. Empty
// sizes are tried last, and only when the original case had an empty dim (then
// emptiness may be the trigger, e.g. an empty alias outside its root).
std::vector<Case> candidates(const Case& c, int64_t budget, bool allow_empty) {
  std::vector<Case> out;
  auto add = [&](Case k) {
    canonicalize(k);
    if (!(k == c) && well_formed(k, budget)) out.push_back(std::move(k));
  };
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
  for (int d = static_cast<int>(c.sizes.size()) - 1; d >= 0; --d) {  // reduce rank
    Case k = c;
    if (drop_dim(k, d)) add(k);
  }
  for (size_t d = 0; d < c.sizes.size(); ++d)  // shrink sizes toward 1
    for (int64_t s : {int64_t{1}, c.sizes[d] / 2, c.sizes[d] - 1})
      if (s >= 1 && s < c.sizes[d]) {
        Case k = c;
        k.sizes[d] = s;
        add(k);
      }
  for (size_t i = 0; i < c.ops.size(); ++i) {  // simplify arguments
    const Op& op = c.ops[i];
    auto with = [&](auto edit) {
      Case k = c;
      edit(k.ops[i]);
      add(k);
    };
    if (op.kind == OpKind::SliceCopy) {
      if (op.start) with([](Op& o) { o.start.reset(); });
      if (op.end) with([](Op& o) { o.end.reset(); });
      if (op.start && *op.start != 0) with([](Op& o) { o.start = 0; });
      if (op.start && (*op.start > 1 || *op.start < -1)) with([](Op& o) { o.start = *o.start / 2; });
      if (op.end && (*op.end > 1 || *op.end < -1)) with([](Op& o) { o.end = *o.end / 2; });
      if (op.step != 1) with([](Op& o) { o.step = 1; });
      if (op.step > 2) with([](Op& o) { o.step = o.step / 2; });
      if (op.dim < 0) with([&](Op& o) { o.dim += static_cast<int64_t>(c.sizes.size()); });
      if (op.dim != 0) with([](Op& o) { o.dim = 0; });
    }
    if (op.kind == OpKind::Add && op.scalar != 1) with([](Op& o) { o.scalar = 1; });
    if (op.kind == OpKind::Copy) {  // an in-place copy may be a clone in disguise
      Case k = c;
      k.ops.erase(k.ops.begin() + static_cast<std::ptrdiff_t>(i));
      add(k);
    }
  }
  if (!c.dim_order.empty()) {
    Case k = c;
    k.dim_order.clear();
    add(k);
  }
  if (c.dtype != ScalarType::Float) {
    Case k = c;
    k.dtype = ScalarType::Float;
    add(k);
  }
  for (size_t d = 0; allow_empty && d < c.sizes.size(); ++d)  // empty, last of all
    if (c.sizes[d] > 0) {
      Case k = c;
      k.sizes[d] = 0;
      add(k);
    }
  return out;
}

// The kind of op a finding is about ("" when it names none).
std::string finding_op_kind(const Case& c, const CaseSummary& s) {
  if (s.op < 0 || s.op >= static_cast<int>(c.ops.size())) return "";
  return op_kind_name(c.ops[s.op].kind);
}

}  // namespace

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
  const FindingKind kind = res.finding.kind;
  const std::string op_kind = finding_op_kind(original, res.finding);
  const bool allow_empty = has_empty_dim(original);

  for (bool progress = true; progress;) {
    progress = false;
    if (elapsed() > time_limit_s) {
      res.timed_out = true;
      break;
    }
    std::vector<Case> cands = candidates(res.minimized, options.byte_budget, allow_empty);
    run_jobs(cands.size(), job, [&](size_t i) { return print_case(cands[i]); },
             [&](size_t i, const JobOutcome& o) {
               ++res.candidates;
               CaseSummary s = decode_outcome(o);
               if (s.failed && s.kind == kind && finding_op_kind(cands[i], s) == op_kind) {
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
