// `slicefuzz minimize FILE -o OUT [--time S]` and
// `slicefuzz export --python|--gtest FILE [-o OUT]`.
#include <cstdint>
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/cli/cli_common.h"
#include "harness/export/export.h"
#include "harness/export/export_worker.h"
#include "harness/export/json_writer.h"
#include "harness/triage/minimizer.h"
#include "harness/triage/signature.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {

namespace {

bool load_case(const std::string& file, int64_t budget, Case& out, const char* verb) {
  std::string text, error;
  if (!read_text_file(file, 1 << 20, text, error)) {
    std::fprintf(stderr, "slicefuzz %s: %s: %s\n", verb, file.c_str(), error.c_str());
    return false;
  }
  ParseResult p = parse_case(text, file, budget);
  if (!p.ok) {
    std::fprintf(stderr, "slicefuzz %s: PARSE_ERROR: %s\n", verb, p.error.c_str());
    return false;
  }
  out = p.c;
  return true;
}

// The case's current finding, run in a worker.
CaseSummary run_isolated(const Case& c, const CommonOptions& common) {
  CaseSummary s;
  run_jobs(
      1,
      [&](size_t, const std::string& text) {
        return run_case_text_job(text, *common.backend, common.options);
      },
      [&](size_t) { return print_case(c); },
      [&](size_t, const JobOutcome& o) {
        s = decode_outcome(o);
        return true;
      },
      common.isolation);
  return s;
}

}  // namespace

int cli_minimize(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {"-o", "--time"}, {}, common)) return 2;
  int64_t time_s = 300;
  std::string error;
  if (!args.get_int("--time", time_s, error) || args.positional().size() != 1 || !args.get("-o")) {
    std::fprintf(stderr, "usage: slicefuzz minimize FILE -o OUT [--time S] [--backend NAME]%s%s\n",
                 error.empty() ? "" : "\n", error.c_str());
    return 2;
  }
  Case c;
  if (!load_case(args.positional()[0], common.options.byte_budget, c, "minimize")) return 2;
  MinimizeResult r = minimize_case(c, *common.backend, common.options, common.isolation,
                                   static_cast<double>(time_s));
  if (!r.reproduced) {
    std::fprintf(stderr, "slicefuzz minimize: %s passes on backend %s: nothing to minimize\n",
                 args.positional()[0].c_str(), common.backend->name.c_str());
    return 1;
  }
  std::string text = "# minimized by slicefuzz minimize (backend " + common.backend->name +
                     ") from " + args.positional()[0] + "\n# finding: " +
                     std::string(finding_kind_name(r.finding.kind)) + ": " + r.finding.message +
                     "\n" + print_case(r.minimized);
  if (!write_file_atomic(*args.get("-o"), text, error)) {
    std::fprintf(stderr, "slicefuzz minimize: %s\n", error.c_str());
    return 2;
  }
  // The rank of the first input (the only one of a version-1 case), and the
  // input count where it changed.
  std::string inputs;
  if (c.inputs.size() != r.minimized.inputs.size())
    inputs = ", " + std::to_string(c.inputs.size()) + " inputs -> " + std::to_string(r.minimized.inputs.size());
  std::printf("minimized %s: %zu ops -> %zu ops, rank %zu -> %zu%s, %d candidates run, %d kept%s\n"
              "finding: %s: %s\nwrote %s\n",
              args.positional()[0].c_str(), c.ops.size(), r.minimized.ops.size(), c.inputs[0].sizes.size(),
              r.minimized.inputs[0].sizes.size(), inputs.c_str(), r.candidates, r.accepted,
              r.timed_out ? " (time limit reached)" : "",
              std::string(finding_kind_name(r.finding.kind)).c_str(), r.finding.message.c_str(),
              args.get("-o")->c_str());
  return 0;
}

int cli_export(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {"-o", "--mode"}, {"--python", "--gtest", "--pte"}, common)) return 2;
  const bool python = args.has("--python"), gtest = args.has("--gtest"), pte = args.has("--pte");
  if (python + gtest + pte != 1 || args.positional().size() != 1 || (args.has("--mode") && !pte)) {
    std::fprintf(stderr, "usage: slicefuzz export --python|--gtest FILE [-o OUT] [--backend NAME]\n"
                         "       slicefuzz export --pte FILE -o DIR [--mode planned|runtime-op] [--backend NAME]\n");
    return 2;
  }
  const std::string file = args.positional()[0];
  if (pte) {
    std::string text, error;
    if (!read_text_file(file, 1 << 20, text, error)) {
      std::fprintf(stderr, "slicefuzz export: %s: %s\n", file.c_str(), error.c_str());
      return 2;
    }
    return cli_export_pte(args, common, file, text);
  }
  Case c;
  if (!load_case(file, common.options.byte_budget, c, "export")) return 2;
  if (python && c.is_dynamic() && common.backend->out_of_process()) {
    // The protocol carries one static program: no execution schedule to replay.
    std::fprintf(stderr, "slicefuzz export: %s has symbols (version 4) and backend %s is out of "
                 "process: its script needs one static program; export one execution (`slicefuzz "
                 "minimize` keeps the failing one alone when it can) or use --gtest\n",
                 file.c_str(), common.backend->name.c_str());
    return 2;
  }
  CaseSummary finding = run_isolated(c, common);
  std::string stem = file.substr(file.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  // Test names must differ between cases (the nightly job names every file
  // minimized.case): the stem plus a hash of the case text.
  uint32_t h = 2166136261u;
  for (unsigned char ch : print_case(c) + common.backend->name) h = (h ^ ch) * 16777619u;
  char hash[16];
  std::snprintf(hash, sizeof hash, "_%08x", h);
  stem += hash;
  // The rewrite replay needs the backend's own decisions: asked in workers. An
  // out-of-process backend has none: its script rebuilds the backend's transform.
  const Backend& backend = *common.backend;
  RewriteReplay replay;
  std::vector<RewriteReplay> replays;  // version 4: one per execution that runs
  const bool dynamic = c.is_dynamic();
  const bool have_replay =
      python && !backend.out_of_process() &&
      (dynamic ? collect_dynamic_rewrite_replay(c, backend, common.options, common.isolation, replays)
               : collect_rewrite_replay(c, backend, common.options, common.isolation, replay));
  if (python && backend.out_of_process() && !exportable_worker(backend)) {
    std::fprintf(stderr, "slicefuzz export: backend %s is a user worker; its transform cannot be "
                 "rebuilt without it (the script exports the torch.fx backends only)\n",
                 backend.name.c_str());
    return 2;
  }
  const std::string text =
      python && backend.out_of_process()
          ? export_python_worker(c, parse_case(print_case(c), file, common.options.byte_budget).info,
                                 finding, backend)
      : python && dynamic
          ? export_python_dynamic(c, finding, backend.name, have_replay ? &replays : nullptr,
                                  common.options.byte_budget)
      : python ? export_python(c, finding, backend.name, have_replay ? &replay : nullptr)
               : export_gtest(c, finding, backend.name, stem);
  if (auto out = args.get("-o")) {
    std::string error;
    if (!write_file_atomic(*out, text, error)) {
      std::fprintf(stderr, "slicefuzz export: %s\n", error.c_str());
      return 2;
    }
    std::fprintf(stderr, "wrote %s\n", out->c_str());
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace slicefuzz

namespace slicefuzz {

// `slicefuzz triage FILE...`: one tab-separated line per file that fails:
// SIGNATURE, KIND, FILE, MESSAGE, STATUS (the nightly job deduplicates on the
// first column; STATUS is NEW, or KNOWN when the signature is listed in the
// backend's known findings). Files that pass print nothing; files that do not
// parse are PARSE_ERROR. The signature is the root-cause signature: a
// VALUE_MISMATCH is re-run cut after each op to blame the op that misbehaved.
// One finding as a JSON record (`triage --jsonl`): the verdict's fields as the
// judge made them (kind, path, op, rule), the op's kind and its line in the file,
// the signature and status. Report tools read these, never the message.
static std::string triage_record(const std::string& file, const std::string& text, const std::string& sig,
                          const CaseSummary& s, bool known) {
  const CaseSyntax syntax = parse_case_syntax(text, file);
  int line = 0;
  std::string op_kind;
  if (syntax.ok && s.op >= 0 && static_cast<size_t>(s.op) < syntax.op_lines.size()) {
    line = syntax.op_lines[s.op];
    op_kind = op_kind_name(syntax.c.ops[s.op].kind);
  }
  JsonWriter w;
  w.begin_object();
  w.key("signature").value(sig);
  w.key("slug").value(signature_slug(sig));  // its file and directory name: the one slug function
  w.key("kind").value(finding_kind_name(s.kind));
  w.key("file").value(file);
  w.key("status").value(known ? "KNOWN" : "NEW");
  w.key("path").value(finding_path_word(s.path));
  w.key("op").value(static_cast<int64_t>(s.op));
  w.key("op_kind").value(op_kind);
  w.key("line").value(static_cast<int64_t>(line));
  w.key("rule").value(std::string(s.rule.word()));
  w.key("check").value(s.check.word());  // the runner's check that made it
  if (s.execution >= 0) w.key("execution").value(static_cast<int64_t>(s.execution));  // version 4, 0-based
  w.key("cause").value(s.cause);  // a whole-program worker's diagnosis of its own pass
  // A dead worker's frames inside the system under test, top first, as the
  // signature reads them (harness/triage/signature.h, sut_frames): the report quotes
  // these instead of parsing the sanitizer's log a second time.
  w.key("frames").begin_array();
  for (const std::string& f : sut_frames(s.worker_log)) w.value(f);
  w.end_array();
  w.key("message").value(s.message);
  w.end_object();
  return w.str();
}

int cli_triage(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {}, {"--jsonl"}, common)) return 2;
  note_if_no_known_list(args);
  if (args.positional().empty()) {
    std::fprintf(stderr, "usage: slicefuzz triage FILE|DIR... [--backend NAME] [--jsonl]\n");
    return 2;
  }
  const bool jsonl = args.has("--jsonl");
  std::vector<std::string> missing;
  const std::vector<std::string> files = collect_case_files(args.positional(), missing);
  // Missing paths are I/O errors (exit 2), never an empty, green triage.
  for (const std::string& m : missing) std::fprintf(stderr, "slicefuzz triage: %s: no such file or directory\n", m.c_str());
  if (!missing.empty()) return 2;
  std::vector<std::string> texts(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    std::string error;
    if (!read_text_file(files[i], 1 << 20, texts[i], error)) texts[i].clear();
  }
  std::vector<CaseSummary> results(files.size());
  run_jobs(
      files.size(),
      [&](size_t, const std::string& text) {
        return run_case_text_job(text, *common.backend, common.options);
      },
      [&](size_t i) { return texts[i]; },
      [&](size_t i, const JobOutcome& o) {
        results[i] = decode_outcome(o);
        return true;
      },
      common.isolation);
  int failing = 0;
  const CaseRunner runner = worker_runner(common);
  for (size_t i = 0; i < files.size(); ++i) {
    const CaseSummary& s = results[i];
    if (!s.failed) continue;
    ParseResult p = parse_case(texts[i], files[i], common.options.byte_budget);
    const std::string sig = p.ok ? root_cause_signature(p.c, s, runner)
                                 : std::string(finding_kind_name(s.kind)) + ":unparsable";
    const bool known = find_known(common.known, sig) != nullptr;
    failing += !known;
    if (jsonl) {
      std::printf("%s\n", triage_record(files[i], texts[i], sig, s, known).c_str());
      std::fflush(stdout);
      continue;
    }
    std::string msg = s.message;
    for (char& ch : msg)
      if (ch == '\t' || ch == '\n') ch = ' ';
    std::printf("%s\t%s\t%s\t%s\t%s\t%s\n", sig.c_str(), std::string(finding_kind_name(s.kind)).c_str(),
                files[i].c_str(), msg.c_str(), known ? "KNOWN" : "NEW", signature_slug(sig).c_str());
    std::fflush(stdout);
  }
  return failing ? 1 : 0;
}

}  // namespace slicefuzz
