// `slicefuzz run --time S | --count N [--seed S] [--jobs N] [--out DIR]`: a
// campaign of generated cases (no libFuzzer), reproducible from the seed: case i
// of seed S is always generate_case_within(S, i, the backend's limits). A live progress line goes to stderr;
// each new finding signature is minimised and exported into --out.
// --stop-at-first ends the campaign at the first finding (the self-test's
// "cases until the first finding").
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "generators/generate.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_common.h"
#include "harness/export/export.h"
#include "harness/export/export_worker.h"
#include "harness/export/json_writer.h"
#include "harness/triage/minimizer.h"
#include "harness/triage/signature.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "vocab/concretise.h"

namespace slicefuzz {

namespace {

struct Campaign {
  int64_t cases = 0, findings = 0, known = 0, tolerated = 0, slices = 0, rewritten = 0;
  int64_t arena = 0, copy_arena = 0;
  int64_t dynamic_cases = 0, executions = 0;  // version 4: cases with symbols, their executions
  std::map<std::string, int64_t> rules;      // decision rule -> count
  RewriteShares shares;                      // per view-copy op kind
  std::map<std::string, int64_t> unsupported;  // declared limit -> cases refused
  std::map<std::string, int64_t> signatures;  // root-cause signature -> count
  // Each first-seen finding signature, mapped to its root-cause signature once
  // (after minimisation when --out is given): the many faces of one bug fold.
  std::map<std::string, std::string> root_of;
};

void progress(const Campaign& c, double secs, bool final) {
  std::string rules;
  for (const auto& [rule, n] : c.rules) rules += " " + rule + "=" + std::to_string(n);
  // The share per view-copy op kind once other kinds than slice_copy appear.
  const std::string per_kind = c.shares.only_slice_copy() ? "" : " (" + c.shares.text() + ")";
  // The share of cases with symbols (version 4) once there are any.
  const std::string dynamic =
      c.dynamic_cases == 0 ? ""
                           : " " + std::to_string(c.dynamic_cases) + " with symbols (" +
                                 std::to_string(c.cases ? 100 * c.dynamic_cases / c.cases : 0) + "%, " +
                                 std::to_string(c.executions) + " executions);";
  std::fprintf(stderr, "\r[run] %lld cases, %.0f cases/s, %lld findings (%zu root causes),%s "
               "%.1f%% of %lld slices rewritten%s;%s%s",
               static_cast<long long>(c.cases), secs > 0 ? c.cases / secs : 0.0,
               static_cast<long long>(c.findings), c.signatures.size(), dynamic.c_str(),
               c.slices ? 100.0 * c.rewritten / c.slices : 0.0, static_cast<long long>(c.slices),
               per_kind.c_str(), rules.c_str(), final ? "\n" : "   ");
  std::fflush(stderr);
}

// A finding, minimised (when asked) and with its root-cause signature.
struct Triaged {
  Case small;
  CaseSummary finding;
  std::string root;
};

Triaged triage_finding(const Case& c, const CaseSummary& s, const CommonOptions& common,
                       bool minimize) {
  Triaged t{c, s, ""};
  if (minimize) {
    MinimizeResult m = minimize_case(c, *common.backend, common.options, common.isolation, 60);
    if (m.reproduced) t.small = m.minimized, t.finding = m.finding;
  }
  t.root = root_cause_signature(t.small, t.finding, worker_runner(common));
  return t;
}

// Writes the raw case, its minimised form and both reproducers into `dir`.
void save_finding(const std::string& dir, const std::string& slug, const Case& c,
                  const CaseSummary& s, const Triaged& t, const CommonOptions& common) {
  std::string error;
  const std::string base = (std::filesystem::path(dir) / slug).string();
  const std::string header = "# finding: " + std::string(finding_kind_name(s.kind)) + ": " +
                             s.message + "\n";
  write_file_atomic(base + ".case", header + print_case(c), error);
  write_file_atomic(base + ".min.case",
                    "# signature: " + t.root + "\n# minimized finding: " +
                        std::string(finding_kind_name(t.finding.kind)) + ": " + t.finding.message +
                        "\n" + print_case(t.small),
                    error);
  // An out-of-process backend's script replays one static program: for a case
  // with symbols (version 4), the execution the finding belongs to, as its
  // static case. In process, the script runs every execution (export_python_dynamic).
  if (common.backend->out_of_process()) {  // no rewrite to replay: eager vs the worker's transform
    Case one = t.small;
    if (t.small.is_dynamic()) {
      const size_t k = t.finding.execution >= 0 ? static_cast<size_t>(t.finding.execution) : 0;
      if (k >= t.small.runs.size() || !concretise(t.small, t.small.runs[k].values, one, error)) one = Case{};
    }
    if ((!t.small.is_dynamic() || !one.ops.empty()) && exportable_worker(*common.backend))
      write_file_atomic(base + ".py",
                        export_python_worker(one, parse_case(print_case(one)).info, t.finding,
                                             *common.backend),
                        error);
    return;
  }
  if (t.small.is_dynamic()) {
    std::vector<RewriteReplay> replays;
    const bool have = collect_dynamic_rewrite_replay(t.small, *common.backend, common.options,
                                                     common.isolation, replays);
    write_file_atomic(base + ".py",
                      export_python_dynamic(t.small, t.finding, common.backend->name,
                                            have ? &replays : nullptr, common.options.byte_budget),
                      error);
  } else {
    RewriteReplay replay;
    const bool have = collect_rewrite_replay(t.small, *common.backend, common.options, common.isolation, replay);
    write_file_atomic(base + ".py",
                      export_python(t.small, t.finding, common.backend->name, have ? &replay : nullptr),
                      error);
  }
  write_file_atomic(base + "_test.cpp",
                    export_gtest(t.small, t.finding, common.backend->name, slug), error);
}

}  // namespace

int cli_run(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {"--time", "--count", "--seed", "--out", "--format-version"},
                    {"--no-minimize", "--stop-at-first"},
                    common))
    return 2;
  note_if_no_known_list(args);
  int64_t time_s = -1, count = -1, seed = 1;
  int version = kDefaultGeneratedVersion;
  std::string error;
  if (args.get_int("--time", time_s, error) && args.get_int("--count", count, error) &&
      args.get_int("--seed", seed, error) && get_format_version(args, version, error)) {
    // Name the bad value: a bare usage line hides which flag was wrong.
    if (args.has("--time") == args.has("--count")) error = "give one of --time S and --count N";
    else if (args.has("--time") && time_s < 1) error = "--time must be at least 1 second, got " + std::to_string(time_s);
    else if (args.has("--count") && count < 1) error = "--count must be at least 1, got " + std::to_string(count);
    else if (!args.positional().empty()) error = "unexpected argument '" + args.positional()[0] + "'";
  }
  if (!error.empty()) {
    std::fprintf(stderr, "slicefuzz run: %s\nusage: slicefuzz run --time S | --count N [--seed S] [--jobs N] "
                 "[--out DIR] [--stop-at-first] [--no-minimize] [--format-version V]\n", error.c_str());
    return 2;
  }
  const std::string out = args.get("--out").value_or("");
  if (!out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) {
      std::fprintf(stderr, "slicefuzz run: cannot create %s: %s\n", out.c_str(), ec.message().c_str());
      return 2;
    }
  }
  std::fprintf(stderr, "[run] backend %s, seed %lld (rerun with the same seed to reproduce)\n",
               common.backend->name.c_str(), static_cast<long long>(seed));

  Campaign camp;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  double last_progress = -1;
  struct FirstSeen {
    std::string signature;
    int64_t index;     // the case it was first seen at
    FindingKind kind;  // the kind of the minimised finding the signature names
  };
  std::vector<FirstSeen> first_seen;
  const size_t batch = static_cast<size_t>(64 * common.isolation.jobs);
  const bool stop_at_first = args.has("--stop-at-first");
  const bool minimize = !out.empty() && !args.has("--no-minimize");
  for (int64_t next = 0; !(stop_at_first && camp.findings > 0);) {
    if (count >= 0 && next >= count) break;
    if (time_s >= 0 && elapsed() >= static_cast<double>(time_s)) break;
    const size_t n = count >= 0 ? std::min<size_t>(batch, static_cast<size_t>(count - next)) : batch;
    const int64_t base = next;
    run_jobs(
        n,
        [&](size_t i, const std::string&) {
          Case c = generate_case_within(static_cast<uint64_t>(seed), static_cast<uint64_t>(base + i),
                                        common.backend->outside_limits,
                                        common.backend->eager_ops, version);
          return run_case_text_job(print_case(c), *common.backend, common.options);
        },
        nullptr,
        [&](size_t i, const JobOutcome& o) {
          CaseSummary s = decode_outcome(o);
          ++camp.cases;
          camp.slices += s.slices;
          camp.rewritten += s.rewritten;
          camp.shares.add(s.decided);
          camp.tolerated += s.tolerated;
          camp.arena += s.arena_bytes;
          camp.copy_arena += s.copy_arena_bytes;
          camp.dynamic_cases += s.executions > 0;
          camp.executions += s.executions;
          for (const std::string& r : s.rules) ++camp.rules[r];
          if (!s.unsupported.empty()) ++camp.unsupported[s.unsupported];
          if (s.failed) {
            Case c = generate_case_within(static_cast<uint64_t>(seed), static_cast<uint64_t>(base + i),
                                        common.backend->outside_limits,
                                        common.backend->eager_ops, version);
            const std::string first = finding_signature(c, s);
            auto it = camp.root_of.find(first);
            if (it == camp.root_of.end()) {
              // Minimise the first case of each signature and recompute the
              // signature on the result: that is the label that counts.
              Triaged t = triage_finding(c, s, common, minimize);
              it = camp.root_of.emplace(first, t.root).first;
              if (camp.signatures.count(t.root) == 0) {
                const bool known = find_known(common.known, t.root) != nullptr;
                first_seen.push_back({t.root, base + static_cast<int64_t>(i), t.finding.kind});
                std::fprintf(stderr, "\n[run] new %sfinding %s at case %lld: %s\n",
                             known ? "KNOWN " : "", t.root.c_str(),
                             static_cast<long long>(base + i), s.message.c_str());
                if (!out.empty()) save_finding(out, signature_slug(t.root), c, s, t, common);
              }
            }
            ++camp.signatures[it->second];
            if (find_known(common.known, it->second)) ++camp.known;
            else ++camp.findings;
          }
          if (stop_at_first && camp.findings > 0) return false;
          if (elapsed() - last_progress >= 0.5) {
            last_progress = elapsed();
            progress(camp, elapsed(), false);
          }
          return time_s < 0 || elapsed() < static_cast<double>(time_s);
        },
        common.isolation);
    next += static_cast<int64_t>(n);
  }
  progress(camp, elapsed(), true);
  // The same as records for tools (`--out DIR`: DIR/findings.jsonl, one per
  // signature in the order first seen); the lines below are for people.
  if (!out.empty()) {
    std::string records;
    for (const auto& [sig, index, kind] : first_seen) {
      const KnownFinding* k = find_known(common.known, sig);
      JsonWriter w;
      w.begin_object();
      w.key("signature").value(sig);
      w.key("status").value(k ? "KNOWN" : "NEW");
      w.key("kind").value(finding_kind_name(kind));
      w.key("count").value(static_cast<int64_t>(camp.signatures[sig]));
      w.key("first_case").value(static_cast<int64_t>(index));
      w.key("seed").value(static_cast<int64_t>(seed));
      w.key("case_file").value((std::filesystem::path(out) / (signature_slug(sig) + ".case")).string());
      w.key("upstream").value(k ? k->upstream : std::string());
      w.end_object();
      records += w.str() + "\n";
    }
    std::string error;
    if (!write_file_atomic((std::filesystem::path(out) / "findings.jsonl").string(), records, error))
      std::fprintf(stderr, "slicefuzz run: %s\n", error.c_str());
  }
  for (const auto& [sig, index, kind] : first_seen) {
    const KnownFinding* k = find_known(common.known, sig);
    std::printf("%s %s: %lld times, first at case %lld (seed %lld)%s%s\n",
                k ? "known" : "finding", sig.c_str(),
                static_cast<long long>(camp.signatures[sig]), static_cast<long long>(index),
                static_cast<long long>(seed), k ? "; upstream: " : "", k ? k->upstream.c_str() : "");
  }
  const std::string per_kind = camp.shares.only_slice_copy() ? "" : " (" + camp.shares.text() + ")";
  std::printf("backend %s: %lld cases in %.1f s (%.0f cases/s); %lld slices, %.1f%% rewritten%s; "
              "%lld tolerated findings; arena bytes %lld with the rewrite, %lld copy-only\n",
              common.backend->name.c_str(), static_cast<long long>(camp.cases), elapsed(),
              elapsed() > 0 ? camp.cases / elapsed() : 0.0, static_cast<long long>(camp.slices),
              camp.slices ? 100.0 * camp.rewritten / camp.slices : 0.0, per_kind.c_str(),
              static_cast<long long>(camp.tolerated), static_cast<long long>(camp.arena),
              static_cast<long long>(camp.copy_arena));
  if (camp.dynamic_cases > 0)
    std::printf("cases with symbols (version 4): %lld of %lld (%.1f%%), %lld executions\n",
                static_cast<long long>(camp.dynamic_cases), static_cast<long long>(camp.cases),
                camp.cases ? 100.0 * camp.dynamic_cases / camp.cases : 0.0,
                static_cast<long long>(camp.executions));
  int64_t n_unsupported = 0;
  for (const auto& [reason, n] : camp.unsupported) {
    std::printf("unsupported by backend %s (%s): %lld\n", common.backend->name.c_str(),
                reason.c_str(), static_cast<long long>(n));
    n_unsupported += n;
  }
  std::printf("%lld passed, %lld failed",
              static_cast<long long>(camp.cases - camp.findings - camp.known - n_unsupported),
              static_cast<long long>(camp.findings));
  if (camp.known) std::printf(", %lld known", static_cast<long long>(camp.known));
  if (n_unsupported) std::printf(", %lld unsupported", static_cast<long long>(n_unsupported));
  std::printf("\n");
  return camp.findings ? 1 : 0;
}

}  // namespace slicefuzz
