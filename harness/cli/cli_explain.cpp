// `slicefuzz explain FILE [--json] [--svg OUT]`: the program, each slice's rewrite
// decision with its reason, the memory plan as a picture, and the comparison per path.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "harness/run/case_job.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_common.h"
#include "harness/export/export.h"
#include "harness/export/json_writer.h"
#include "harness/run/plan_codec.h"
#include "harness/export/plan_picture.h"
#include "oracles/judge_facts.h"
#include "oracles/judge_layouts.h"
#include "oracles/values.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "vocab/concretise.h"

namespace slicefuzz {

namespace {

// The path that failed (None: nothing failed); a worker that died noted none.
FindingPath failing_path(const CaseSummary& s) {
  if (!s.failed) return FindingPath::None;
  return s.path == FindingPath::None ? FindingPath::Worker : s.path;
}

// What a decision made of its op, from the op table: the alias prim op
// (et_slice, et_select, et_view) or the op itself, kept as a copy.
std::string decision_label(const Case& c, const RewriteDecision& d) {
  if (d.op < 0 || d.op >= static_cast<int>(c.ops.size()))
    return "op " + std::to_string(d.op) + "?";  // a pass's decision about no op of the case
  const OpKind kind = c.ops[d.op].kind;
  return d.alias ? op_alias_prim(kind) : op_kind_name(kind);
}

// Per path (oracle, copy, rewrite, in the order the runner compares them):
// "agrees with torch", the finding, or "not compared".
std::string path_status(const CaseSummary& s, FindingPath path) {
  static constexpr FindingPath kOrder[] = {FindingPath::Oracle, FindingPath::Copy, FindingPath::Rewrite};
  const std::string agrees = path == FindingPath::Oracle ? "torch and the naive reference agree" : "agrees with torch";
  const FindingPath bad = failing_path(s);
  if (bad == FindingPath::None) return agrees;
  if (bad == path) return std::string(finding_kind_name(s.kind)) + ": " + s.message;
  for (FindingPath earlier : kOrder) {
    if (earlier == path) break;
    if (bad == earlier) return "not compared (an earlier path failed)";
  }
  if (bad == FindingPath::Worker) return "unknown (the worker died)";
  return agrees;
}

void write_json(const std::string& name, const Case& c, const ProgramInfo& info,
                const RewritePlan& rw, const MemoryPlan& plan, const MemoryPlan& copy_plan,
                const CaseSummary& s) {
  JsonWriter j;
  j.begin_object().key("case").value(name);
  j.key("slices").begin_array();
  for (const RewriteDecision& d : rw.decisions)
    j.begin_object()
        .key("value").value(info.values[d.value].name)
        .key("op").value(d.op)
        .key("decision").value(decision_label(c, d))
        .key("reason").value(d.reason)
        .end_object();
  j.end_array();
  j.key("plan").begin_object().key("arena_bytes").value(plan.arena_bytes)
      .key("copy_only_arena_bytes").value(copy_plan.arena_bytes).key("tensors").begin_array();
  for (const TensorPlacement& t : plan.tensors)
    j.begin_object()
        .key("value").value(info.values[t.value].name)
        .key("alias").value(rw.is_alias(t.value))
        .key("root").value(info.values[t.root].name)
        .key("offset").value(t.offset)
        .key("nbytes").value(t.nbytes)
        .key("first_step").value(t.first_step)
        .key("last_step").value(t.last_step)
        .key("own_last_step").value(t.own_last_step)
        .end_object();
  j.end_array().end_object();
  j.key("paths").begin_object()
      .key(finding_path_word(FindingPath::Oracle)).value(path_status(s, FindingPath::Oracle))
      .key(finding_path_word(FindingPath::Copy)).value(path_status(s, FindingPath::Copy))
      .key(finding_path_word(FindingPath::Rewrite)).value(path_status(s, FindingPath::Rewrite))
      .end_object();
  j.key("result").begin_object().key("failed").value(s.failed);
  if (s.failed) j.key("kind").value(finding_kind_name(s.kind)).key("message").value(s.message);
  j.key("tolerated_findings").value(s.tolerated).end_object();
  j.end_object();
  std::printf("%s\n", j.str().c_str());
}

// torch's view of `value` inside its root storage (the judge's facts, composed
// along the alias chain): what the view-copy op really reads, whatever the pass
// claimed. False where torch has no view (view_copy of elements that are not
// row-major in memory) or the layout is unknown.
bool view_in_root(const Case& c, const ProgramInfo& info, const RewritePlan& rw, int value,
                  judge::StridedView& out) {
  const ValueInfo& v = info.values[value];
  if (!v.known) return false;
  if (value >= static_cast<int>(rw.root.size()) || !rw.is_alias(value) || v.def_op < 0) {
    out = {v.sizes, judge::strides_for(v.sizes, v.dim_order), 0};
    return true;
  }
  const Op& op = c.ops[v.def_op];
  const int src = info.ops[v.def_op].src;
  if (!op_is_view_copy(op.kind) || src < 0 || src == value) return false;
  judge::StridedView base;
  if (!view_in_root(c, info, rw, src, base)) return false;
  const judge::Layout in{info.values[src].sizes, info.values[src].dim_order};
  if (!judge::op_result(op, in).error.empty()) return false;
  std::optional<judge::StridedView> view = judge::op_view(op, base);
  if (!view) return false;
  out = *view;
  return true;
}

// The failure to mark in the pictures: rewrite-path findings only (a copy-path
// or oracle finding says nothing about the plan).
bool picture_failure(const Case& c, const ProgramInfo& info, const RewritePlan& rw,
                     const CaseSummary& s, PictureFailure& f) {
  if (failing_path(s) != FindingPath::Rewrite) return false;
  f.label = std::string(finding_kind_name(s.kind)) + ": " + s.message;
  if (s.op < 0 || s.op >= static_cast<int>(info.ops.size())) return true;
  f.value = info.ops[s.op].result;
  const OpKind kind = c.ops[s.op].kind;
  f.op_word = kind == OpKind::SliceCopy ? "slice" : op_kind_name(kind);
  if (op_is_view_copy(kind)) f.alias_prim = op_alias_prim(kind);
  judge::StridedView view;
  if (f.value < 0 || !view_in_root(c, info, rw, f.value, view)) return true;
  // Every element's offset, merged into byte runs; big views stay one band.
  int64_t n = 1;
  for (int64_t size : view.sizes) n *= size;
  if (n <= 0) return true;
  const int64_t es = static_cast<int64_t>(element_size(info.values[f.value].dtype));
  if (n > (int64_t{1} << 16)) {
    f.reads_truncated = true;
    return true;
  }
  std::vector<int64_t> offsets;
  std::vector<int64_t> index(view.sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = view.offset;
    for (size_t d = 0; d < index.size(); ++d) off += index[d] * view.strides[d];
    offsets.push_back(off);
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < view.sizes[d]) break;
      index[d] = 0;
    }
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  for (int64_t off : offsets) {
    if (!f.reads.empty() && f.reads.back().second == off * es)
      f.reads.back().second += es;
    else
      f.reads.push_back({off * es, (off + 1) * es});
  }
  if (f.reads.size() > 512) {  // too many bands to see: the whole span as one
    f.reads = {{f.reads.front().first, f.reads.back().second}};
    f.reads_truncated = true;
  }
  return true;
}

// The legend's name for the plan's aliases: the alias prim ops the pass used
// ("et_slice alias" when it used none or only et_slice).
std::string alias_legend(const Case& c, const RewritePlan& rw) {
  std::string prims;
  for (const OpKindInfo& row : kOpKinds) {
    if (row.alias_prim[0] == '\0' || prims.find(row.alias_prim) != std::string::npos) continue;
    for (const RewriteDecision& d : rw.decisions)
      if (d.alias && d.op >= 0 && d.op < static_cast<int>(c.ops.size()) &&
          op_alias_prim(c.ops[d.op].kind) == std::string_view(row.alias_prim)) {
        prims += (prims.empty() ? "" : "/") + std::string(row.alias_prim);
        break;
      }
  }
  return (prims.empty() ? std::string("et_slice") : prims) + " alias";
}

}  // namespace

namespace {

int explain_parsed(const std::string& file, const ParseResult& p, const CliArgs& args,
                   const CommonOptions& common);

int explain_one(const std::string& file, const CliArgs& args, const CommonOptions& common) {
  std::string text, error;
  if (!read_text_file(file, 1 << 20, text, error)) {
    std::fprintf(stderr, "slicefuzz explain: %s: %s\n", file.c_str(), error.c_str());
    return 2;
  }
  ParseResult p = parse_case(text, file, common.options.byte_budget);
  if (!p.ok) {
    std::fprintf(stderr, "slicefuzz explain: PARSE_ERROR: %s\n", p.error.c_str());
    return 1;
  }
  if (!p.c.is_dynamic()) return explain_parsed(file, p, args, common);
  // Version 4, step 1: each execution explained as the static case it runs as.
  if (args.has("--json") || args.get("--svg")) {
    std::fprintf(stderr, "slicefuzz explain: %s has symbols (version 4): --json and --svg are "
                         "not implemented for it yet (issue 23)\n", file.c_str());
    return 2;
  }
  std::printf("case %s (backend %s), %zu executions\n\nprogram:\n%s\n", file.c_str(),
              common.backend->name.c_str(), p.dynamic.runs.size(), print_case(p.c).c_str());
  std::printf("bounds (the largest size of each value over the %lld assignments within the ranges):\n",
              static_cast<long long>(p.dynamic.assignments));
  for (size_t v = 0; v < p.dynamic.bound_sizes.size() && v < p.info.values.size(); ++v)
    std::printf("  %-8s %s\n", p.info.values[v].name.c_str(),
                p.dynamic.bound_sizes[v].empty() ? "(never computed)" : sizes_string(p.dynamic.bound_sizes[v]).c_str());
  int status = 0;
  for (size_t k = 0; k < p.dynamic.runs.size(); ++k) {
    const ExecutionInfo& e = p.dynamic.runs[k];
    std::printf("\n==== execution %zu of %zu: %s ====\n", k + 1, p.dynamic.runs.size(),
                describe_execution(p.c, e.values).c_str());
    if (!e.in_range) {
      std::printf("outside the symbols' ranges: must be refused where the inputs are set (the input "
                  "check is not under test yet)\n");
      continue;
    }
    ParseResult one;
    one.ok = true;
    one.c = e.c;
    one.info = e.info;
    status = std::max(status, explain_parsed(file + " (execution " + std::to_string(k + 1) + ")", one, args, common));
  }
  return status;
}

int explain_parsed(const std::string& file, const ParseResult& p, const CliArgs& args,
                   const CommonOptions& common) {
  std::string error;
  // The pass, the planner and the paths run in a worker: the system under test
  // never runs in this process, so a crash in it is a finding explain reports.
  const Backend& backend = *common.backend;
  PlansForExplain plans;
  bool have_plans = false;
  CaseSummary s;
  run_jobs(
      1,
      [&](size_t, const std::string&) {
        PlansForExplain made;
        made.rewrite = backend.pass(p.c, p.info, {});
        made.plan = backend.planner(p.c, p.info, made.rewrite);
        made.copy_plan = backend.planner(p.c, p.info, copy_only_plan(p.c, p.info));
        const std::string encoded = encode_plans(made);
        return std::to_string(encoded.size()) + "\n" + encoded +
               encode_summary(summarize(run_case(p.c, p.info, backend, common.options)));
      },
      nullptr, [&](size_t, const JobOutcome& o) {
        JobOutcome rest = o;
        size_t nl = o.text.find('\n');
        if (o.status == JobOutcome::Status::Ok && nl != std::string::npos) {
          const size_t len = std::strtoull(o.text.c_str(), nullptr, 10);
          if (nl + 1 + len <= o.text.size()) {
            have_plans = decode_plans(o.text.substr(nl + 1, len), plans);
            rest.text = o.text.substr(nl + 1 + len);
          }
        }
        s = decode_outcome(rest);
        return true;
      }, common.isolation);
  if (!have_plans) {
    std::printf("case %s (backend %s)\n\nprogram:\n%s\n", file.c_str(), backend.name.c_str(),
                print_case(p.c).c_str());
    std::printf("the worker running the pass and the planner died: %s: %s\n",
                std::string(finding_kind_name(s.kind)).c_str(), s.message.c_str());
    return 1;
  }
  const RewritePlan& rw = plans.rewrite;
  const MemoryPlan& plan = plans.plan;
  const MemoryPlan& copy_plan = plans.copy_plan;

  PictureFailure failure;
  const PictureFailure* marked = picture_failure(p.c, p.info, rw, s, failure) ? &failure : nullptr;
  if (marked && s.kind == FindingKind::ALIAS_VIOLATION && failure.value >= 0) {
    // Where the alias prim op really put the alias: executed in a worker, as export does.
    RewriteReplay replay;
    if (collect_rewrite_replay(p.c, backend, common.options, common.isolation, replay) &&
        static_cast<size_t>(failure.value) < replay.executed.size() &&
        replay.executed[failure.value])
      failure.executed_delta = replay.executed_delta[failure.value];
  }
  if (auto svg = args.get("--svg")) {
    if (!write_file_atomic(*svg, plan_svg(file, p.info, rw, plan, &copy_plan, marked,
                                         alias_legend(p.c, rw)), error)) {
      std::fprintf(stderr, "slicefuzz explain: %s\n", error.c_str());
      return 2;
    }
  }
  if (args.has("--json")) {
    write_json(file, p.c, p.info, rw, plan, copy_plan, s);
    return s.failed ? 1 : 0;
  }

  std::printf("case %s (backend %s)\n\nprogram:\n", file.c_str(), backend.name.c_str());
  std::string header = print_case(p.c);
  std::printf("%s\n", header.c_str());
  if (p.info.failing_op >= 0)
    std::printf("op %d must fail in every path (%s); nothing after it runs\n\n",
                p.info.failing_op, p.info.failing_reason.c_str());
  std::printf("rewrite decisions:\n");
  if (rw.decisions.empty())
    std::printf("  (no %s runs)\n", p.c.min_version() >= 2 ? "view-copy op" : "slice_copy");
  int width = 10;  // the v1 labels' width (slice_copy): v1 explanations keep their columns
  for (const RewriteDecision& d : rw.decisions)
    width = std::max(width, static_cast<int>(decision_label(p.c, d).size()));
  for (const RewriteDecision& d : rw.decisions)
    std::printf("  op %d %-*s %s: %s\n", d.op, width, decision_label(p.c, d).c_str(),
                d.value >= 0 && d.value < static_cast<int>(p.info.values.size())
                    ? p.info.values[d.value].name.c_str() : "?",
                d.reason.c_str());
  std::printf("\nmemory plan: arena %lld bytes with the rewrite, %lld bytes copy-only%s\n",
              static_cast<long long>(plan.arena_bytes), static_cast<long long>(copy_plan.arena_bytes),
              plan.arena_bytes > copy_plan.arena_bytes
                  ? " (the rewrite grew it: an alias keeps its whole root alive)" : "");
  std::printf("%s", plan_text_picture(p.info, rw, plan, &copy_plan, marked).c_str());
  std::printf("  # live, + kept alive by aliases, = alias (shares its root's bytes)\n\n");
  std::printf("comparison:\n  oracle:  %s\n  copy:    %s\n  rewrite: %s\n",
              path_status(s, FindingPath::Oracle).c_str(), path_status(s, FindingPath::Copy).c_str(),
              path_status(s, FindingPath::Rewrite).c_str());
  if (s.tolerated) std::printf("  (%d tolerated findings, e.g. MISSED_REWRITE)\n", s.tolerated);
  std::printf("\nresult: %s\n", s.failed ? ("FAIL " + std::string(finding_kind_name(s.kind))).c_str() : "PASS");
  return s.failed ? 1 : 0;
}

}  // namespace

int cli_explain(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {"--svg"}, {"--json"}, common)) return 2;
  const auto& files = args.positional();
  if (files.empty() || (files.size() > 1 && (!args.has("--json") || args.has("--svg")))) {
    std::fprintf(stderr,
                 "usage: slicefuzz explain FILE [--json] [--svg OUT] [--backend NAME]\n"
                 "       slicefuzz explain --json FILE...   (one JSON object per line)\n");
    return 2;
  }
  int status = 0;
  for (const std::string& file : files) status = std::max(status, explain_one(file, args, common));
  return status;
}

}  // namespace slicefuzz
