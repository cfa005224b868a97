// `slicefuzz check FILE|DIR...` and `slicefuzz backends`.
#include <chrono>
#include <cstdio>

#include "harness/cli.h"
#include "harness/cli_args.h"
#include "harness/cli_common.h"
#include "harness/runner.h"
#include "program/case_format.h"

namespace slicefuzz {

namespace {
constexpr size_t kMaxCaseFileBytes = 1 << 20;

void print_fail(const std::string& name, FindingKind kind, const std::string& message) {
  std::printf("FAIL %s %s: %s\n", name.c_str(), std::string(finding_kind_name(kind)).c_str(),
              message.c_str());
}
}  // namespace

int cli_check(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {}, {}, common)) return 2;
  if (args.positional().empty()) {
    std::fprintf(stderr, "slicefuzz check: expected FILE or DIR arguments\n");
    return 2;
  }
  std::vector<std::string> missing;
  std::vector<std::string> files = collect_case_files(args.positional(), missing);
  int passed = 0, failed = 0;
  int64_t slices = 0, rewritten = 0, arena = 0, copy_arena = 0;
  for (const std::string& m : missing) {
    print_fail(m, FindingKind::PARSE_ERROR, m + ": no such file or directory");
    ++failed;
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& file : files) {
    std::string text, error;
    if (!read_text_file(file, kMaxCaseFileBytes, text, error)) {
      print_fail(file, FindingKind::PARSE_ERROR, file + ": " + error);
      ++failed;
      continue;
    }
    ParseResult parsed = parse_case(text, file, common.options.byte_budget);
    if (!parsed.ok) {
      print_fail(file, FindingKind::PARSE_ERROR, parsed.error);
      ++failed;
      continue;
    }
    CaseReport report = run_case(parsed.c, parsed.info, *common.backend, common.options);
    slices += report.slices;
    rewritten += report.rewritten;
    arena += report.arena_bytes;
    copy_arena += report.copy_arena_bytes;
    if (const Finding* f = report.first_failure()) {
      print_fail(file, f->kind, f->path + " path: " + f->message);
      ++failed;
    } else {
      std::printf("PASS %s\n", file.c_str());
      ++passed;
    }
    std::fflush(stdout);
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("backend %s: %zu cases in %.2f s (%.0f cases/s); %lld slices, %lld rewritten "
              "to et_slice (%.1f%%); arena bytes %lld with the rewrite, %lld copy-only\n",
              common.backend->name.c_str(), files.size(), secs,
              secs > 0 ? files.size() / secs : 0.0, static_cast<long long>(slices),
              static_cast<long long>(rewritten), slices ? 100.0 * rewritten / slices : 0.0,
              static_cast<long long>(arena), static_cast<long long>(copy_arena));
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

int cli_backends(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {}, {}, common)) return 2;
  for (const Backend& b : all_backends()) std::printf("%s  %s\n", b.name.c_str(), b.description.c_str());
  return 0;
}

}  // namespace slicefuzz
