#include "harness/export/export.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "harness/run/runner.h"
#include "oracles/dynamic_analysis.h"
#include "oracles/values.h"
#include "program/arena_executor.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "vocab/concretise.h"

namespace slicefuzz {

namespace export_text {

std::string finding_line(const CaseSummary& f) {
  if (!f.failed) return "no finding (the case passed when exported)";
  std::string s = std::string(finding_kind_name(f.kind)) + ": " + f.message;
  for (char& ch : s)
    if (ch == '\n') ch = ' ';
  return s;
}

std::string comment_block(const std::string& text, const char* prefix) {
  std::string out;
  size_t b = 0;
  while (b <= text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    if (e > b) out += prefix + text.substr(b, e - b) + "\n";
    b = e + 1;
  }
  return out;
}

}  // namespace export_text

using export_text::comment_block;
using export_text::finding_line;

namespace {

// A worker's "[EXECUTION] VALUE DELTA NBYTES" lines (the execution column for a
// case with symbols) into each execution's replay: where each alias went.
void decode_alias_lines(const std::string& text, size_t values, bool with_execution,
                        std::vector<RewriteReplay>& out) {
  for (RewriteReplay& r : out) {
    r.executed_delta.assign(values, 0);
    r.executed.assign(values, false);
    r.executed_nbytes.assign(values, -1);
  }
  size_t pos = 0;
  while (pos < text.size()) {
    long long f[5] = {0, -1, 0, -1, -1};  // execution, value, delta, nbytes (and room for a shift)
    long long* at = with_execution ? f : f + 1;
    const int want = with_execution ? 4 : 3;
    if (std::sscanf(text.c_str() + pos, "%lld %lld %lld %lld", &at[0], &at[1], &at[2], &at[3]) >= want - 1 &&
        f[0] >= 0 && static_cast<size_t>(f[0]) < out.size() && f[1] >= 0 && static_cast<size_t>(f[1]) < values) {
      RewriteReplay& r = out[f[0]];
      r.executed_delta[f[1]] = f[2], r.executed[f[1]] = true, r.executed_nbytes[f[1]] = f[3];
    }
    const size_t nl = text.find('\n', pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
}

// Tensor metadata of a value's own layout (sizes, dim order, dtype); no data.
Tensor meta_of(const ValueInfo& v) {
  Tensor t;
  uint8_t order[kMaxRank] = {};
  for (size_t i = 0; i < v.dim_order.size() && i < kMaxRank; ++i)
    order[i] = static_cast<uint8_t>(v.dim_order[i]);
  make_tensor_meta(v.dtype, static_cast<int>(v.sizes.size()), v.sizes.data(), order, t);
  return t;
}

// Where each alias prim op puts its alias, called directly in program order
// ("value delta" lines, bytes from the root): an alias of an alias starts where
// its source's call put the source. The ops read no data; the buffer is real so
// that a bounds check inside them sees a real pointer. Runs in a worker.
std::string alias_prims_called_directly(const Case& c, const ProgramInfo& info,
                                        const RewritePlan& rw, const Backend& backend) {
  std::vector<int64_t> delta(info.values.size(), 0);
  std::string text;
  for (size_t k = 0; k < c.ops.size() && k < info.ops.size(); ++k) {
    const OpInfo& oi = info.ops[k];
    if (oi.result < 0 || oi.src < 0 || static_cast<size_t>(oi.result) >= rw.root.size() ||
        !rw.is_alias(oi.result) || !op_is_view_copy(c.ops[k].kind) ||
        !info.values[oi.src].known || !info.values[oi.result].known)
      continue;
    Tensor in = meta_of(info.values[oi.src]);
    std::vector<uint8_t> buffer(std::max<size_t>(in.nbytes(), 1));
    in.data = buffer.data();
    in.capacity_nbytes = in.nbytes();
    // et_slice's out comes shaped like its input (it resizes it); the other prim
    // ops' out has the result's static layout (as in the contract check).
    Tensor out = meta_of(c.ops[k].kind == OpKind::SliceCopy ? info.values[oi.src]
                                                             : info.values[oi.result]);
    KernelRuntimeContext ctx;
    call_alias_prim(backend.kernels, ctx, c.ops[k], in, out);
    if (!ctx.ok()) continue;
    const int64_t src_delta = rw.is_alias(oi.src) ? delta[oi.src] : 0;
    delta[oi.result] = src_delta + (static_cast<const uint8_t*>(out.data) - buffer.data());
    text += std::to_string(oi.result) + " " + std::to_string(delta[oi.result]) + " " +
            std::to_string(out.nbytes()) + "\n";
  }
  return text;
}

}  // namespace

bool collect_rewrite_replay(const Case& c, const Backend& backend, const RunOptions& options,
                            const IsolationOptions& isolation, RewriteReplay& out) {
  // The judge's analysis runs here; the pass, the planners and the executor only
  // in the workers.
  ParseResult p = parse_case(print_case(c), "export", options.byte_budget);
  if (!p.ok) return false;
  out.never_grows_arena = backend.never_grows_arena;
  bool have_plans = false;
  // Job 0 asks the pass and the planners; job 1 also executes the rewrite path to
  // learn where each alias really went (the alias prim op's pointer in runtime-op
  // mode, root offset + delta in planned mode). Job 1 may die (an unsound plan on
  // a poisoned arena, an alias prim op's wrong pointer read): job 2 then calls
  // the alias prim ops directly, in program order, on an unpoisoned buffer,
  // which is all a pointer takes. Job 0's answer is in by then.
  const AliasMode mode =
      backend.alias_mode == AliasMode::Planned ? AliasMode::Planned : AliasMode::RuntimeOp;
  const size_t n = p.info.values.size();
  std::string direct;  // job 2's answer
  bool executed = false;
  auto decode_deltas = [&](const std::string& text) {
    std::vector<RewriteReplay> one(1);
    decode_alias_lines(text, n, false, one);
    out.executed_delta = std::move(one[0].executed_delta);
    out.executed = std::move(one[0].executed);
    out.executed_nbytes = std::move(one[0].executed_nbytes);
  };
  run_jobs(
      mode == AliasMode::RuntimeOp ? 3 : 2,
      [&](size_t job, const std::string&) {
        PlansForExplain made;
        made.rewrite = backend.pass(p.c, p.info, {});
        made.plan = backend.planner(p.c, p.info, made.rewrite);
        if (job == 0) {
          made.copy_plan = backend.planner(p.c, p.info, copy_only_plan(p.c, p.info));
          return encode_plans(made);
        }
        if (job == 2) return alias_prims_called_directly(p.c, p.info, made.rewrite, backend);
        RewritePathResult rw =
            make_rewrite_method(backend, MethodSpec{p.info, made.rewrite, made.plan, backend.kernels, mode})
                ->execute_twice(p.c, p.info, make_input_values(p.info));
        std::string text;
        for (const AliasRecord& a : rw.aliases)
          text += std::to_string(a.value) + " " + std::to_string(a.delta_bytes) + " " +
                  std::to_string(a.nbytes) + "\n";
        return text;
      },
      nullptr,
      [&](size_t job, const JobOutcome& o) {
        if (o.status != JobOutcome::Status::Ok) return job != 0;
        if (job == 0) return have_plans = decode_plans(o.text, out.plans);
        if (job == 2) {
          direct = o.text;
          return true;
        }
        executed = true;
        decode_deltas(o.text);
        return true;
      },
      isolation);
  if (!executed && !direct.empty()) {
    decode_deltas(direct);
    out.called_directly = true;
  }
  return have_plans;
}

bool collect_dynamic_rewrite_replay(const Case& c, const Backend& backend, const RunOptions& options,
                                    const IsolationOptions& isolation, std::vector<RewriteReplay>& out) {
  out.clear();
  // The judge's analysis runs here (each execution's static case and the
  // bounds); the pass, the planners and the method only in the workers.
  DynamicInfo dynamic;
  ProgramInfo first;
  DynamicError err;
  if (backend.out_of_process() || !analyze_dynamic(c, options.byte_budget, dynamic, first, err, /*keep_every=*/true)) return false;
  std::vector<const ExecutionInfo*> running;
  for (const ExecutionInfo& e : dynamic.runs)
    if (e.in_range) running.push_back(&e);
  if (running.empty()) return false;
  const AliasMode mode =
      backend.alias_mode == AliasMode::Planned ? AliasMode::Planned : AliasMode::RuntimeOp;
  const size_t n = running.front()->info.values.size();
  PlansForExplain plans;
  bool have_plans = false, executed = false;
  std::string direct;
  out.assign(running.size(), RewriteReplay{});
  // As collect_rewrite_replay: job 0 asks for the plans, job 1 runs the method
  // over every execution in order (run_executions' way: one method, its values
  // kept, each execution twice), job 2 (runtime-op mode) calls the alias prim
  // ops directly at each execution's sizes, for when job 1 dies.
  run_jobs(
      mode == AliasMode::RuntimeOp ? 3 : 2,
      [&](size_t job, const std::string&) {
        const ScheduledRewrite s = decide_rewrite_for_executions(c, running, dynamic, backend);
        if (job == 0) {
          PlansForExplain made;
          made.rewrite = s.rewrite;
          made.plan = s.plan;
          made.copy_plan = s.copy_plan;
          return encode_plans(made);
        }
        std::string text;
        if (job == 2) {
          for (size_t k = 0; k < running.size(); ++k) {
            const std::string lines = alias_prims_called_directly(running[k]->c, running[k]->info, s.rewrite, backend);
            for (size_t b = 0; b < lines.size();) {
              const size_t e = lines.find('\n', b);
              text += std::to_string(k) + " " + lines.substr(b, e - b) + "\n";
              b = e == std::string::npos ? lines.size() : e + 1;
            }
          }
          return text;
        }
        const std::unique_ptr<MethodUnderTest> method = make_rewrite_method(
            backend, MethodSpec{s.bound_info, s.rewrite, s.plan, backend.kernels, mode, &dynamic.bound_sizes, &c});
        for (size_t k = 0; k < running.size(); ++k) {
          const RewritePathResult r = method->execute_twice(running[k]->c, running[k]->info,
                                                            make_input_values(running[k]->info), &running[k]->values);
          for (const AliasRecord& a : r.aliases)
            text += std::to_string(k) + " " + std::to_string(a.value) + " " +
                    std::to_string(a.delta_bytes) + " " + std::to_string(a.nbytes) + "\n";
        }
        return text;
      },
      nullptr,
      [&](size_t job, const JobOutcome& o) {
        if (o.status != JobOutcome::Status::Ok) return job != 0;
        if (job == 0) return have_plans = decode_plans(o.text, plans);
        if (job == 2) {
          direct = o.text;
          return true;
        }
        executed = true;
        decode_alias_lines(o.text, n, true, out);
        return true;
      },
      isolation);
  if (!have_plans) return false;
  if (!executed && !direct.empty()) decode_alias_lines(direct, n, true, out);
  for (RewriteReplay& r : out) {
    r.plans = plans;
    r.never_grows_arena = backend.never_grows_arena;
    r.called_directly = !executed && !direct.empty();
    if (!executed && direct.empty()) r.executed.clear(), r.executed_delta.clear(), r.executed_nbytes.clear();
  }
  return true;
}

namespace {

// The project's kernel an op runs on the copy path (kernels/kernels.h), from the
// op table; clone with a dim order is _clone_dim_order.out. nullptr for eager ops.
const char* copy_path_kernel(const Op& op) {
  if (op.kind == OpKind::Clone && op.dim_order) return "clone_dim_order_out";
  const char* kernel = op_kind_info(op.kind).kernel;
  return kernel[0] ? kernel : nullptr;
}

// A version-2 case's inputs (with several, or one of its own dtype): each one's
// dtype and where its fill starts (README "Input fill").
std::string input_terms(const Case& c) {
  if (c.inputs.size() < 2 && !c.inputs[0].dtype) return {};
  std::string s = "// Inputs (row-major fill from the index given, README 'Input fill'):\n";
  int64_t start = 0;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const InputDecl& in = c.inputs[k];
    s += "//   " + in.name + ": " + std::string(scalar_type_name(c.input_dtype(k))) + " " +
         sizes_string(in.sizes) + ", fill from index " + std::to_string(start) + "\n";
    int64_t n = 1;
    for (int64_t d : in.sizes) n = d == 0 || n == 0 ? 0 : n * d;  // a parsed case: fits
    start += n;
  }
  return s;
}

// A version-2 case's ops in the project's kernels' terms: what each op calls on
// the copy path and, for a view-copy op, the alias prim op the pass may make it.
std::string kernel_terms(const Case& c) {
  std::string s = input_terms(c) + "// The ops in the project's kernels' terms (kernels/kernels.h):\n";
  for (size_t k = 0; k < c.ops.size(); ++k) {
    const Op& op = c.ops[k];
    s += "//   op " + std::to_string(k) + " `" + print_op(op) + "`: ";
    if (const char* kernel = copy_path_kernel(op)) {
      s += kernel;
      if (op_is_view_copy(op.kind))
        s += std::string("; ") + op_alias_prim(op.kind) + " when the pass makes it an alias";
    } else {
      s += "an eager view or out-of-place op (torch oracle and out-of-process backends only)";
    }
    s += "\n";
  }
  return s;
}

}  // namespace

std::string export_gtest(const Case& c, const CaseSummary& f, const std::string& backend,
                         const std::string& test_name) {
  std::string name;
  for (char ch : test_name) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name = "Case_" + name;
  std::string s;
  s += "// slicefuzz reproducer (gtest). Finding on backend '" + backend + "':\n";
  s += comment_block(finding_line(f), "//   ");
  s += "// To build and run it, copy this file into tests/ of a slicefuzz checkout as\n";
  s += "// " + name + "_test.cpp; ci/test.sh builds every tests/*_test.cpp and runs it.\n";
  s += "// The test fails while the finding reproduces.\n";
  if (c.min_version() >= 2) s += kernel_terms(c);  // version-1 reproducers keep their text
  if (c.is_dynamic()) {
    s += "// Executions, in order (each the case at its symbols' values; the rewrite is\n"
         "// decided once for them all and planned at the bounds, docs/design.md section 8):\n";
    for (size_t k = 0; k < c.runs.size(); ++k)
      s += "//   " + std::to_string(k + 1) + ": " + describe_execution(c, c.runs[k].values) + "\n";
  }
  s += "#include <gtest/gtest.h>\n\n#include <string>\n\n";
  s += "#include \"backends/backend.h\"\n#include \"harness/run/runner.h\"\n";
  s += "#include \"oracles/parse_case.h\"\n\n";
  s += "TEST(SlicefuzzReproducer, " + name + ") {\n";
  s += "  const char* kCase = R\"slicefuzz(" + print_case(c) + ")slicefuzz\";\n";
  s += "  slicefuzz::ParseResult p = slicefuzz::parse_case(kCase, \"" + name + ".case\");\n";
  s += "  ASSERT_TRUE(p.ok) << p.error;\n";
  s += "  const slicefuzz::Backend* backend = slicefuzz::find_backend(\"" + backend + "\");\n";
  s += "  ASSERT_NE(backend, nullptr) << \"backend '" + backend + "' is not registered\";\n";
  s += "  slicefuzz::CaseReport report = slicefuzz::run_case(p.c, p.info, *backend, {});\n";
  s += "  const slicefuzz::Finding* f = report.first_failure();\n";
  s += "  EXPECT_EQ(f, nullptr) << (f ? std::string(slicefuzz::finding_kind_name(f->kind)) + \" (\" +\n";
  s += "                                    slicefuzz::finding_path_word(f->path) + \" path): \" + f->message\n";
  s += "                              : std::string());\n";
  s += "}\n";
  return s;
}

}  // namespace slicefuzz
