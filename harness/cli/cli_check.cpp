// `slicefuzz check FILE|DIR...` and `slicefuzz backends`.
#include <chrono>
#include <map>
#include <cstdio>

#include "harness/run/case_job.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_args.h"
#include "harness/cli/cli_common.h"
#include "harness/export/json_writer.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {

namespace {
constexpr size_t kMaxCaseFileBytes = 1 << 20;

struct Entry {
  std::string name;
  ParseResult parsed;
  std::string load_error;  // unreadable file
  // --no-isolate: a known defect the backend says kills the process that runs
  // it (Backend::process_killing_known_finding): not run, counted KNOWN.
  const KnownFinding* kills = nullptr;
};

void print_fail(const std::string& name, FindingKind kind, const std::string& message) {
  std::printf("FAIL %s %s: %s\n", name.c_str(), std::string(finding_kind_name(kind)).c_str(),
              message.c_str());
}
}  // namespace

int cli_check(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {"--stats-jsonl"}, {}, common)) return 2;
  note_if_no_known_list(args);
  if (args.positional().empty()) {
    std::fprintf(stderr, "usage: slicefuzz check FILE|DIR... [--backend NAME] [--jobs N] [--stats-jsonl FILE]\n");
    return 2;
  }
  std::vector<std::string> missing;
  std::vector<std::string> files = collect_case_files(args.positional(), missing);
  // A path that does not exist is an I/O (usage) error, not a finding: a typo'd
  // path in CI must not turn into an ordinary red, or, with no cases, a green.
  for (const std::string& m : missing)
    std::fprintf(stderr, "slicefuzz check: %s: no such file or directory\n", m.c_str());
  if (!missing.empty()) return 2;
  if (files.empty()) {
    std::fprintf(stderr, "slicefuzz check: no *.case files found in the given directories\n");
    return 2;
  }
  int passed = 0, failed = 0, known = 0;
  bool io_error = false;
  const CaseRunner runner = worker_runner(common);

  // Parse in this process (cheap, and the parser never crashes); run in workers.
  std::vector<Entry> entries(files.size());
  std::vector<size_t> runnable;
  for (size_t i = 0; i < files.size(); ++i) {
    entries[i].name = files[i];
    std::string text;
    if (!read_text_file(files[i], kMaxCaseFileBytes, text, entries[i].load_error)) continue;
    entries[i].parsed = parse_case(text, files[i], common.options.byte_budget);
    if (!entries[i].parsed.ok) continue;
    if (!common.isolation.isolate &&
        (entries[i].kills = known_process_killer(*common.backend, entries[i].parsed.c, entries[i].parsed.info,
                                                 common.options.byte_budget, common.known)))
      continue;
    runnable.push_back(i);
  }
  int64_t slices = 0, rewritten = 0, tolerated = 0, arena = 0, copy_arena = 0;
  // Programs with symbols and executions (a static program is one): for the
  // nightly report, which says how much of its corpus is dynamic.
  int64_t with_symbols = 0, executions = 0;
  for (size_t i : runnable) {
    with_symbols += entries[i].parsed.c.is_dynamic();
    executions += static_cast<int64_t>(entries[i].parsed.c.execution_count());
  }
  RewriteShares shares;  // per view-copy op kind
  std::map<std::string, int> unsupported;  // declared limit -> cases
  // Lines are printed in file order as soon as they are known, and flushed: with
  // --no-isolate a sanitizer abort ends this process, and every earlier line
  // must already be out.
  size_t printed = 0;
  auto print_up_to = [&](size_t end, const CaseSummary* result) {
    for (; printed < end; ++printed) {
      const Entry& e = entries[printed];
      if (!e.load_error.empty()) {
        std::fprintf(stderr, "slicefuzz check: %s: %s\n", e.name.c_str(), e.load_error.c_str());
        io_error = true;
      } else if (!e.parsed.ok) {
        print_fail(e.name, FindingKind::PARSE_ERROR, e.parsed.error);
        ++failed;
      } else if (e.kills) {
        std::printf("KNOWN %s: not run: it reaches a known defect that kills the process, and "
                    "--no-isolate runs cases in this one (signature %s; %s)\n",
                    e.name.c_str(), e.kills->signature.c_str(), e.kills->upstream.c_str());
        ++known;
      } else if (result && printed + 1 == end) {
        const CaseSummary& s = *result;
        slices += s.slices;
        rewritten += s.rewritten;
        shares.add(s.decided);
        tolerated += s.tolerated;
        arena += s.arena_bytes;
        copy_arena += s.copy_arena_bytes;
        // A finding whose root cause is listed in the backend's known findings
        // is KNOWN: reported and counted, not failed.
        const KnownFinding* k =
            s.failed && !common.known.empty()
                ? find_known(common.known, root_cause_signature(e.parsed.c, s, runner))
                : nullptr;
        if (k) {
          std::printf("KNOWN %s %s: %s (signature %s; %s)\n", e.name.c_str(),
                      std::string(finding_kind_name(s.kind)).c_str(), s.message.c_str(),
                      k->signature.c_str(), k->upstream.c_str());
          ++known;
        } else if (s.failed) {
          print_fail(e.name, s.kind, s.message);
          ++failed;
        } else if (!s.unsupported.empty()) {
          // Refused by the backend, outside the limits it documents: not a failure.
          std::printf("UNSUPPORTED %s: %s\n", e.name.c_str(), s.unsupported.c_str());
          ++unsupported[s.unsupported];
        } else {
          std::printf("PASS %s\n", e.name.c_str());
          ++passed;
        }
      }
      std::fflush(stdout);
    }
  };
  const auto t0 = std::chrono::steady_clock::now();
  run_jobs(
      runnable.size(),
      [&](size_t j, const std::string&) {
        const Entry& e = entries[runnable[j]];
        return encode_summary(
            summarize(run_case(e.parsed.c, e.parsed.info, *common.backend, common.options)));
      },
      nullptr, [&](size_t j, const JobOutcome& o) {
        const CaseSummary s = decode_outcome(o);
        print_up_to(runnable[j] + 1, &s);
        return true;
      },
      common.isolation);
  print_up_to(entries.size(), nullptr);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // "N slices, M rewritten" stays first (ci/fuzz_report.py parses it); `slices`
  // counts every view-copy op. With other kinds than slice_copy, the share of
  // each kind follows.
  char rewrite_text[64];
  std::snprintf(rewrite_text, sizeof rewrite_text, "%.1f%%", slices ? 100.0 * rewritten / slices : 0.0);
  const std::string rewrite_share =
      shares.only_slice_copy() ? std::string("to et_slice (") + rewrite_text + ")"
                               : std::string("to aliases (") + rewrite_text + ": " + shares.text() + ")";
  std::printf("backend %s: %zu cases run in %.2f s (%.0f cases/s); %lld slices, %lld rewritten "
              "%s, %lld tolerated findings; arena bytes %lld with the "
              "rewrite, %lld copy-only\n",
              common.backend->name.c_str(), runnable.size(), secs,
              secs > 0 ? runnable.size() / secs : 0.0, static_cast<long long>(slices),
              static_cast<long long>(rewritten), rewrite_share.c_str(),
              static_cast<long long>(tolerated), static_cast<long long>(arena),
              static_cast<long long>(copy_arena));
  // The same figures as a record for tools, appended (one line per call: the
  // nightly replays its corpus in batches), so that no report reads the line above.
  if (const auto stats = args.get("--stats-jsonl")) {
    JsonWriter w;
    w.begin_object();
    w.key("backend").value(common.backend->name);
    w.key("cases").value(static_cast<int64_t>(runnable.size()));
    w.key("cases_with_symbols").value(with_symbols);
    w.key("executions").value(executions);
    w.key("seconds").value(secs);
    w.key("slices").value(static_cast<int64_t>(slices));
    w.key("rewritten").value(static_cast<int64_t>(rewritten));
    w.key("tolerated").value(static_cast<int64_t>(tolerated));
    w.key("arena_bytes").value(static_cast<int64_t>(arena));
    w.key("copy_only_arena_bytes").value(static_cast<int64_t>(copy_arena));
    w.end_object();
    if (std::FILE* f = std::fopen(stats->c_str(), "a")) {
      std::fprintf(f, "%s\n", w.str().c_str());
      std::fclose(f);
    } else {
      std::fprintf(stderr, "slicefuzz check: cannot append to %s\n", stats->c_str());
    }
  }
  int n_unsupported = 0;
  for (const auto& [reason, n] : unsupported) {
    std::printf("unsupported by backend %s (%s): %d\n", common.backend->name.c_str(),
                reason.c_str(), n);
    n_unsupported += n;
  }
  std::printf("%d passed, %d failed", passed, failed);
  if (known) std::printf(", %d known", known);
  if (n_unsupported) std::printf(", %d unsupported", n_unsupported);
  std::printf("\n");
  if (io_error) return 2;
  return failed ? 1 : 0;
}

int cli_backends(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {}, {}, common)) return 2;
  for (const Backend& b : all_backends()) std::printf("%s  %s\n", b.name.c_str(), b.description.c_str());
  for (const UnavailableBackend& u : unavailable_backends())
    std::printf("not available: %s: %s\n", u.name.c_str(), u.lacks.c_str());
  return 0;
}

}  // namespace slicefuzz
