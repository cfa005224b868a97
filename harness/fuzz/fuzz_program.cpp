// libFuzzer target `fuzz_program`: the input is .case text. Every finding aborts
// with a readable report on stderr, so libFuzzer keeps the input as an artifact.
// A structure-aware mutator (generators/mutator.h) edits parsed programs; text
// that does not parse is sometimes replaced by a generated program and sometimes
// left to libFuzzer's byte mutations (so the parser is fuzzed too).
//
// One binary, several targets: named fuzz_<backend> ('-' spelled '_':
// fuzz_executorch_portable, fuzz_pr21552_rule) it fuzzes that backend, fixed by
// its name, as OSS-Fuzz and ClusterFuzzLite run targets without slicefuzz's
// environment (ci/oss-fuzz-build.sh ships one per backend); named fuzz_program
// (or anything else) it reads SLICEFUZZ_BACKEND (default reference). Known
// findings come from SLICEFUZZ_KNOWN, else <target>_known/ beside the binary
// (what $OUT ships), else corpus/known/<backend>; the flag
// -slicefuzz_report_known=1 (an .options entry or the command line) applies none,
// so every known defect is reported as a crash again.
//
// Environment: SLICEFUZZ_BACKEND (fuzz_program only) selects the system under
// test; SLICEFUZZ_MAX_BYTES the per-case tensor budget (default 256 KiB);
// SLICEFUZZ_KNOWN the backend's known findings (default corpus/known/<backend>):
// a finding whose root-cause signature is listed there is counted on stderr and
// the input is not kept, so the campaign explores on instead of aborting at a bug
// everyone already knows about. A case the backend says reaches a known defect
// that kills the process (Backend::process_killing_known_finding) is counted the
// same way without being run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <random>
#include <string>

#include "backends/backend.h"
#include "generators/generate.h"
#include "generators/mutator.h"
#include "harness/run/case_job.h"
#include "harness/triage/known.h"
#include "harness/fuzz/mutation_sources.h"
#include "harness/run/runner.h"
#include "harness/triage/signature.h"
#include "oracles/analysis.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);
extern "C" void __ubsan_get_current_report_data(const char** kind, const char** message,
                                                const char** file, unsigned* line,
                                                unsigned* column, char** address);

namespace {

const slicefuzz::Backend* g_backend = nullptr;
int64_t g_budget = slicefuzz::kFuzzByteBudget;
// The newest case format version of the cases the mutator generates afresh
// (SLICEFUZZ_FORMAT_VERSION; 4 makes a share of them dynamic: generators/dynamic_gen.h).
int g_version = slicefuzz::kDefaultGeneratedVersion;
std::vector<slicefuzz::KnownFinding> g_known;
uint64_t g_known_hits = 0;

// What the campaign ran, for ci/fuzz.sh's report (issue 37: does the nightly job
// test dynamic programs?): programs run, those with symbols, and their executions
// (a static program is one). Printed as `stat::slicefuzz_*` lines at exit, beside
// libFuzzer's own -print_final_stats lines, and at every power of two of programs
// from 1024 on, so a start that ends in a crash (no exit handlers) still left its
// counts up to then. ci/fuzz_workers.py sums them over workers and starts.
struct RunCounts {
  uint64_t programs = 0, with_symbols = 0, executions = 0;
};
RunCounts g_counts;

void print_run_counts() {
  std::fprintf(stderr,
               "stat::slicefuzz_programs: %llu\nstat::slicefuzz_programs_with_symbols: %llu\n"
               "stat::slicefuzz_executions: %llu\n",
               static_cast<unsigned long long>(g_counts.programs),
               static_cast<unsigned long long>(g_counts.with_symbols),
               static_cast<unsigned long long>(g_counts.executions));
}

void count_run(const slicefuzz::Case& c) {
  ++g_counts.programs;
  if (c.is_dynamic()) ++g_counts.with_symbols;
  g_counts.executions += c.execution_count();
  const uint64_t n = g_counts.programs;
  if (n >= 1024 && (n & (n - 1)) == 0) print_run_counts();
}
// The target's name (fuzz_program, fuzz_<backend>): the prefix of what it prints.
std::string g_target = "fuzz_program";
// What the mutator starts from, parsed once (harness/fuzz/mutation_sources.h).
slicefuzz::MutationSources* g_sources = nullptr;

// Undefined behaviour inside an external system under test (ExecuTorch is built
// with recoverable UBSan checks, backends/executorch/CMakeLists.txt): a report at
// a known finding's location is counted and the run goes on; any other is kept
// here and turned into a finding after the case (an abort, so libFuzzer keeps it).
std::string g_unknown_ub;

// Powers of two: a known bug hit a million times costs twenty lines.
void count_known_hit(const std::string& sig, const char* how) {
  const uint64_t hits = ++g_known_hits;
  if ((hits & (hits - 1)) != 0) return;
  std::fprintf(stderr, "%s: KNOWN finding %s%s (%llu hits so far)\n", g_target.c_str(), sig.c_str(), how,
               static_cast<unsigned long long>(g_known_hits));
  // One file for every worker of a campaign (libFuzzer -fork discards its
  // jobs' stderr; ci/fuzz_workers.py keeps one log per worker): the report
  // reads this file.
  if (const char* log = std::getenv("SLICEFUZZ_KNOWN_LOG"))
    if (FILE* f = std::fopen(log, "a")) {
      std::fprintf(f, "%s %d %llu\n", sig.c_str(), static_cast<int>(getpid()),
                   static_cast<unsigned long long>(g_known_hits));
      std::fclose(f);
    }
}

bool known_sanitizer_site(const char* file) {
  const std::string path = file ? file : "";
  for (const slicefuzz::KnownFinding& k : g_known) {
    if (k.signature.rfind("SANITIZER:", 0) != 0) continue;
    const size_t at = k.signature.rfind('@');
    if (at == std::string::npos) continue;
    const std::string site = k.signature.substr(at + 1);
    if (path.size() >= site.size() && path.compare(path.size() - site.size(), site.size(), site) == 0)
      return true;
  }
  return false;
}

size_t emit(const std::string& text, uint8_t* data, size_t max_size) {
  if (text.size() > max_size) return 0;
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

}  // namespace

// Called by UBSan for every report, before it prints it.
extern "C" void __ubsan_on_report() {
  const char *kind = nullptr, *message = nullptr, *file = nullptr;
  unsigned line = 0, column = 0;
  char* address = nullptr;
  __ubsan_get_current_report_data(&kind, &message, &file, &line, &column, &address);
  if (known_sanitizer_site(file)) {
    ++g_known_hits;
    std::fprintf(stderr, "%s: KNOWN sanitizer site %s:%u (reported once per run)\n", g_target.c_str(),
                 file ? file : "?", line);
    return;
  }
  if (g_unknown_ub.empty())
    g_unknown_ub = std::string(kind ? kind : "undefined-behavior") + " at " + (file ? file : "?") +
                   ":" + std::to_string(line) + ": " + (message ? message : "");
}

namespace {

constexpr const char* kReportKnownFlag = "-slicefuzz_report_known=";

// The backend a target named `target` fuzzes: "" for the generic fuzz_program.
std::string backend_of_target(const std::string& target) {
  if (target.rfind("fuzz_", 0) != 0 || target == "fuzz_program") return "";
  std::string name = target.substr(5);
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

// Removes slicefuzz's own flags from libFuzzer's argv (it parses the rest after
// LLVMFuzzerInitialize returns); true when -slicefuzz_report_known=1 was there.
bool take_report_known_flag(int* argc, char*** argv) {
  if (!argc || !argv || !*argv) return false;
  bool report = false;
  int kept = 0;
  for (int i = 0; i < *argc; ++i) {
    const char* a = (*argv)[i];
    if (i > 0 && std::strncmp(a, kReportKnownFlag, std::strlen(kReportKnownFlag)) == 0) {
      report = std::strcmp(a + std::strlen(kReportKnownFlag), "0") != 0;
      continue;
    }
    (*argv)[kept++] = (*argv)[i];
  }
  *argc = kept;
  return report;
}

// SLICEFUZZ_KNOWN, else <target>_known/ beside the binary ($OUT), else the
// source tree's corpus/known/<backend> (relative to the working directory).
std::string known_dir_for(const std::string& target, const std::string& backend) {
  if (std::getenv("SLICEFUZZ_KNOWN")) return slicefuzz::default_known_dir(backend);
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path shipped = exe.parent_path() / (target + "_known");
    if (std::filesystem::is_directory(shipped, ec)) return shipped.string();
  }
  return slicefuzz::default_known_dir(backend);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  const std::string target =
      argc && argv && *argv && *argc > 0 ? std::filesystem::path((*argv)[0]).filename().string() : "fuzz_program";
  g_target = target;
  const bool report_known = take_report_known_flag(argc, argv);
  const char* env = std::getenv("SLICEFUZZ_BACKEND");
  const std::string fixed = backend_of_target(target);
  if (!fixed.empty() && env && fixed != env) {
    std::fprintf(stderr, "%s: this target fuzzes backend %s (its name says so); SLICEFUZZ_BACKEND=%s "
                 "is for fuzz_program\n", target.c_str(), fixed.c_str(), env);
    std::exit(2);
  }
  const std::string name = !fixed.empty() ? fixed : env ? env : "reference";
  g_backend = slicefuzz::find_backend(name);
  if (!g_backend) {
    std::fprintf(stderr, "%s: unknown backend '%s' (%s)\n", target.c_str(), name.c_str(),
                 fixed.empty() ? "SLICEFUZZ_BACKEND" : "from the target's name fuzz_<backend>");
    std::exit(2);
  }
  if (const char* b = std::getenv("SLICEFUZZ_MAX_BYTES")) g_budget = std::max(1LL, std::atoll(b));
  if (const char* v = std::getenv("SLICEFUZZ_FORMAT_VERSION")) {
    const int version = std::atoi(v);
    if (version < 2 || version > slicefuzz::kNewestReadableCaseVersion) {
      std::fprintf(stderr, "%s: SLICEFUZZ_FORMAT_VERSION must be 2 to %d, got '%s'\n", target.c_str(),
                   slicefuzz::kNewestReadableCaseVersion, v);
      std::exit(2);
    }
    g_version = version;
  }
  std::string error;
  const std::string known = known_dir_for(
      target, g_backend->known_findings_of.empty() ? g_backend->name : g_backend->known_findings_of);
  if (report_known) {
    std::fprintf(stderr, "%s: known findings not applied (%s1): each is reported as a crash\n",
                 target.c_str(), kReportKnownFlag);
  } else if (!slicefuzz::load_known_findings(known, g_known, error)) {
    std::fprintf(stderr, "%s: known findings: %s\n", target.c_str(), error.c_str());
    std::exit(2);
  }
  if (!g_known.empty())
    std::fprintf(stderr, "%s: %zu known findings for backend %s (%s)\n", target.c_str(), g_known.size(),
                 g_backend->name.c_str(), known.c_str());
  g_sources = new slicefuzz::MutationSources(g_budget);  // lives as long as the process
  std::atexit(print_run_counts);
  std::atexit([] {
    const slicefuzz::MutationSources::Stats& s = g_sources->stats();
    if (s.misses)
      std::fprintf(stderr,
                   "%s: mutation sources: %llu parsed, %llu read again, %llu mutants "
                   "taken back unparsed\n",
                   g_target.c_str(), static_cast<unsigned long long>(s.misses), static_cast<unsigned long long>(s.hits),
                   static_cast<unsigned long long>(s.printed_taken));
  });
  return 0;
}

std::string trail_of(std::string_view text);

// The input's mutator trail for the finding report ("none": a seed or generated case).
std::string trail_or_none(const uint8_t* data, size_t size) {
  const std::string t = trail_of(std::string_view(reinterpret_cast<const char*>(data), size));
  return t.empty() ? "none (a seed, a generated case or libFuzzer's own mutation)" : t;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  slicefuzz::ParseResult p = slicefuzz::parse_case(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz-input", g_budget,
      slicefuzz::KeepAssignments::Every);
  g_sources->ran(std::string_view(reinterpret_cast<const char*>(data), size), p.ok);
  if (!p.ok) return 0;  // not a program: nothing to compare (the parser was still fuzzed)
  // A known defect that would kill this process (ExecuTorch's SIGFPE) is
  // counted, not run: the campaign goes on (isolated runs still execute it).
  if (std::string sig; slicefuzz::known_process_killer(*g_backend, p.c, p.info, g_budget, g_known, &sig)) {
    count_known_hit(sig, " (not run: it kills the process)");
    return 0;
  }
  count_run(p.c);
  slicefuzz::RunOptions options;
  // libFuzzer's death callback writes the crashing input: keep it (runner.h).
  options.note_path_at_death = false;
  options.byte_budget = g_budget;
  slicefuzz::CaseReport report = slicefuzz::run_case(p.c, p.info, *g_backend, options, &p.dynamic);
  if (const slicefuzz::Finding* f = report.first_failure(); f && !g_known.empty()) {
    // In-process probes (this process runs the system under test anyway).
    const std::string sig = slicefuzz::root_cause_signature(
        p.c, slicefuzz::summarize(report), [&](const std::vector<slicefuzz::Case>& cases) {
          std::vector<slicefuzz::CaseSummary> out;
          for (const slicefuzz::Case& c : cases) {
            slicefuzz::ParseResult q = slicefuzz::parse_case(slicefuzz::print_case(c), "probe", g_budget);
            out.push_back(q.ok ? slicefuzz::summarize(slicefuzz::run_case(q.c, q.info, *g_backend, options))
                               : slicefuzz::CaseSummary{});
          }
          return out;
        });
    if (slicefuzz::find_known(g_known, sig)) {
      count_known_hit(sig, "");
      return 0;
    }
  }
  if (!g_unknown_ub.empty()) {
    std::fprintf(stderr,
                 "\n==== slicefuzz finding ====\nkind: SANITIZER\nbackend: %s\nmessage: %s\n"
                 "mutators: %s\ncase:\n%s==== end of finding ====\n",
                 g_backend->name.c_str(), g_unknown_ub.c_str(), trail_or_none(data, size).c_str(),
                 slicefuzz::print_case(p.c).c_str());
    std::abort();
  }
  if (const slicefuzz::Finding* f = report.first_failure()) {
    std::fprintf(stderr,
                 "\n==== slicefuzz finding ====\nkind: %s\npath: %s\nop: %d\ncheck: %s\nbackend: %s\n"
                 "message: %s\nmutators: %s\ncase:\n%s==== end of finding ====\n",
                 std::string(slicefuzz::finding_kind_name(f->kind)).c_str(), slicefuzz::finding_path_word(f->path), f->op,
                 f->check.word().c_str(), g_backend->name.c_str(), f->message.c_str(), trail_or_none(data, size).c_str(),
                 slicefuzz::print_case(p.c).c_str());
    std::abort();
  }
  return 0;
}

// The mutators that made an input, oldest first: a `# mutators:` comment heading
// its text (a comment: the case is unchanged), carried from parent to mutant, the
// last kMutatorTrail kept. The finding report shows it, as libFuzzer's MS: line
// shows its own mutators (which here are only "Custom").
constexpr const char* kTrailPrefix = "# mutators: ";
constexpr size_t kMutatorTrail = 8;

std::string trail_of(std::string_view text) {
  const std::string_view prefix = kTrailPrefix;
  if (text.substr(0, prefix.size()) != prefix) return {};
  const size_t end = text.find('\n');
  return std::string(text.substr(prefix.size(), end == std::string_view::npos ? end : end - prefix.size()));
}

std::string extend_trail(const std::string& parent, const std::vector<const char*>& names) {
  std::vector<std::string> all;
  for (size_t b = 0, e; b < parent.size(); b = e + 1) {
    e = parent.find(' ', b);
    if (e == std::string::npos) e = parent.size();
    if (e > b) all.push_back(parent.substr(b, e - b));
  }
  for (const char* n : names) all.push_back(n);
  std::string out;
  for (size_t i = all.size() > kMutatorTrail ? all.size() - kMutatorTrail : 0; i < all.size(); ++i)
    out += (out.empty() ? "" : " ") + all[i];
  return out;
}

// Prints the mutant (headed by its mutator trail when it fits) into libFuzzer's
// buffer and remembers it as the next source.
size_t emit_mutant(const slicefuzz::Case& c, uint8_t* data, size_t max_size,
                   const std::string& trail = "") {
  std::string text = slicefuzz::print_case(c);
  if (!trail.empty() && text.size() + trail.size() + 16 <= max_size)
    text = kTrailPrefix + trail + "\n" + text;
  const size_t n = emit(text, data, max_size);
  if (n) g_sources->printed(std::move(text), c);
  return n;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  std::mt19937_64 rng(seed);
  const std::optional<slicefuzz::Case>& source =
      g_sources->parsed(std::string_view(reinterpret_cast<const char*>(data), size));
  slicefuzz::Case c;
  if (source) {
    c = *source;
  } else if (rng() % 2) {
    return LLVMFuzzerMutate(data, size, max_size);
  } else {
    c = slicefuzz::generate_case_within(seed, rng() % 1000, g_backend->outside_limits,
                                        g_backend->eager_ops, g_version);
  }
  // An eager backend: a quarter of the time a fresh eager program (view chains,
  // writes through views), since the mutator's op edits are copy-semantics ones.
  if (g_backend->eager_ops && rng() % 4 == 0) {
    c = slicefuzz::generate_case(seed, rng(), true);
    size_t n = emit_mutant(c, data, max_size);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
  }
  std::vector<const char*> applied;
  if (!g_backend->outside_limits) {
    slicefuzz::mutate_case(c, rng, g_budget, &applied, g_version);
  } else {
    // Most mutants inside the backend's declared limits: a mutant outside them is
    // retried (up to three times) except one time in ten, so refusals stay tested.
    const slicefuzz::Case original = c;
    for (int attempt = 0; attempt < 4; ++attempt) {
      if (attempt) c = original, applied.clear();
      slicefuzz::mutate_case(c, rng, g_budget, &applied, g_version);
      if (rng() % 10 == 0) break;
      slicefuzz::ProgramInfo info;
      slicefuzz::AnalysisError err;
      if (slicefuzz::analyze(c, g_budget, info, err) && g_backend->outside_limits(c, info).empty())
        break;
    }
  }
  const std::string parent =
      source ? trail_of(std::string_view(reinterpret_cast<const char*>(data), size)) : "";
  size_t n = emit_mutant(c, data, max_size, extend_trail(parent, applied));
  return n ? n : LLVMFuzzerMutate(data, size, max_size);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2, uint8_t* out,
                                            size_t max_out_size, unsigned int seed) {
  std::mt19937_64 rng(seed);
  // Copies: the second lookup may start the cache again, invalidating the first.
  const std::optional<slicefuzz::Case> a =
      g_sources->parsed(std::string_view(reinterpret_cast<const char*>(data1), size1));
  if (!a) return 0;
  const std::optional<slicefuzz::Case>& b =
      g_sources->parsed(std::string_view(reinterpret_cast<const char*>(data2), size2));
  if (!b) return 0;
  return emit_mutant(slicefuzz::crossover_cases(*a, *b, rng, g_budget), out, max_out_size,
                     extend_trail(trail_of(std::string_view(reinterpret_cast<const char*>(data1), size1)),
                                  {"CrossOver"}));
}
