#include "harness/cli/cli_common.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "generators/generate.h"
#include "harness/run/case_job.h"
#include "vocab/case_format.h"

namespace slicefuzz {

void RewriteShares::add(const std::vector<OpDecision>& decided) {
  for (const OpDecision& d : decided) {
    auto& [n, aliased] = by_kind_[d.op_kind];
    ++n;
    aliased += d.alias;
  }
}

std::string RewriteShares::text() const {
  std::vector<std::string> order;
  for (const OpKindInfo& row : kOpKinds)
    if (by_kind_.count(row.name)) order.push_back(row.name);
  for (const auto& [kind, counts] : by_kind_)
    if (!op_kind_from_name(kind)) order.push_back(kind);
  std::string s;
  for (const std::string& kind : order) {
    const auto& [n, aliased] = by_kind_.at(kind);
    char buf[32];
    std::snprintf(buf, sizeof buf, " %.0f%%", 100.0 * static_cast<double>(aliased) / static_cast<double>(n));
    s += (s.empty() ? "" : " ") + kind + buf;
  }
  return s;
}

bool RewriteShares::only_slice_copy() const {
  return by_kind_.empty() || (by_kind_.size() == 1 && by_kind_.count("slice_copy"));
}

bool parse_common(CliArgs& args, int argc, char** argv, std::set<std::string> value_flags,
                  std::set<std::string> bool_flags, CommonOptions& out) {
  value_flags.insert({"--backend", "--max-bytes", "--jobs", "--timeout", "--known"});
  bool_flags.insert("--no-isolate");
  std::string error;
  int64_t budget = kDefaultByteBudget, jobs = 1, timeout = 30;
  if (!args.parse(argc, argv, value_flags, bool_flags, error) ||
      !args.get_int("--max-bytes", budget, error) || !args.get_int("--jobs", jobs, error) ||
      !args.get_int("--timeout", timeout, error)) {
    std::fprintf(stderr, "slicefuzz: %s\n", error.c_str());
    return false;
  }
  if (budget <= 0) {
    std::fprintf(stderr, "slicefuzz: --max-bytes must be positive\n");
    return false;
  }
  if (jobs < 1 || jobs > 256 || timeout < 1) {
    std::fprintf(stderr, "slicefuzz: --jobs must be 1..256 and --timeout at least 1 second\n");
    return false;
  }
  out.options.byte_budget = budget;
  out.isolation.jobs = static_cast<int>(jobs);
  out.isolation.timeout_s = static_cast<double>(timeout);
  out.isolation.isolate = !args.has("--no-isolate");
  // SLICEFUZZ_BACKEND selects the backend where no flag can be passed (fuzz targets).
  std::string name = args.get("--backend").value_or(
      std::getenv("SLICEFUZZ_BACKEND") ? std::getenv("SLICEFUZZ_BACKEND") : "reference");
  out.backend = find_backend(name);
  if (!out.backend) {
    for (const UnavailableBackend& u : unavailable_backends())
      if (u.name == name) {
        std::fprintf(stderr, "slicefuzz: backend not available: %s: %s\n", u.name.c_str(), u.lacks.c_str());
        return false;
      }
    std::fprintf(stderr, "slicefuzz: unknown backend '%s' (see `slicefuzz backends`)\n", name.c_str());
    return false;
  }
  const std::string known_as = out.backend->known_findings_of.empty() ? name : out.backend->known_findings_of;
  if (!load_known_findings(args.get("--known").value_or(default_known_dir(known_as)), out.known, error)) {
    std::fprintf(stderr, "slicefuzz: known findings: %s\n", error.c_str());
    return false;
  }
  return true;
}

void note_if_no_known_list(const CliArgs& args) {
  // The default list is relative to the working directory: run from elsewhere,
  // every known finding would count as new without a word.
  std::error_code ec;
  if (!args.get("--known") && !std::getenv("SLICEFUZZ_KNOWN") && !std::filesystem::is_directory("corpus/known", ec))
    std::fprintf(stderr,
                 "slicefuzz: note: no known findings loaded (no corpus/known in the working directory); run from "
                 "the checkout, or pass --known DIR or SLICEFUZZ_KNOWN\n");
}

CaseRunner worker_runner(const CommonOptions& common) {
  return [&common](const std::vector<Case>& cases) {
    std::vector<CaseSummary> out(cases.size());
    run_jobs(
        cases.size(),
        [&](size_t, const std::string& text) {
          return run_case_text_job(text, *common.backend, common.options);
        },
        [&](size_t i) { return print_case(cases[i]); },
        [&](size_t i, const JobOutcome& o) {
          out[i] = decode_outcome(o);
          return true;
        },
        common.isolation);
    return out;
  };
}

bool get_format_version(const CliArgs& args, int& version, std::string& error) {
  int64_t v = kDefaultGeneratedVersion;
  if (!args.get_int("--format-version", v, error)) return false;
  if (v < 2 || v > kNewestReadableCaseVersion) {
    error = "--format-version must be 2 to " + std::to_string(kNewestReadableCaseVersion) + ", got " +
            std::to_string(v);
    return false;
  }
  version = static_cast<int>(v);
  return true;
}

}  // namespace slicefuzz
