// Options every verb takes: --backend NAME, --max-bytes N, --jobs N, --timeout S,
// --no-isolate.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.h"
#include "harness/cli/cli_args.h"
#include "harness/run/isolation.h"
#include "harness/triage/known.h"
#include "harness/run/runner.h"
#include "harness/triage/signature.h"

namespace slicefuzz {

struct CommonOptions {
  const Backend* backend = nullptr;
  RunOptions options;
  IsolationOptions isolation;  // --jobs N, --timeout S, --no-isolate
  std::vector<KnownFinding> known;  // --known DIR (default corpus/known/<backend>)
};

// Parses argv with the verb's own flags plus the common ones; prints the error to
// stderr and returns false on bad usage.
bool parse_common(CliArgs& args, int argc, char** argv, std::set<std::string> value_flags,
                  std::set<std::string> bool_flags, CommonOptions& out);

// For the verbs that sort findings into new and known (check, run, triage): one
// note on stderr when the default list of known findings was not found (the
// working directory is not a checkout and neither --known nor SLICEFUZZ_KNOWN
// names one).
void note_if_no_known_list(const CliArgs& args);

// `--format-version V` of gen and run: the newest case format version to
// generate (2: exactly the cases of the build before version 3; default
// kDefaultGeneratedVersion, 4). false with `error` set for a version outside
// 2..kNewestReadableCaseVersion.
bool get_format_version(const CliArgs& args, int& version, std::string& error);

// The share of each view-copy op kind that the pass rewrote into aliases, over
// many cases: `check`'s summary, `run`'s progress line and summary.
class RewriteShares {
 public:
  void add(const std::vector<OpDecision>& decided);
  // "slice_copy 30% view_copy 40%": per kind with decisions, in
  // the op table's order (labels of decisions about no op last); "" for none.
  std::string text() const;
  // Every decision was about slice_copy (a version-1 corpus): the lines keep
  // their version-1 wording ("rewritten to et_slice").
  bool only_slice_copy() const;

 private:
  std::map<std::string, std::pair<int64_t, int64_t>> by_kind_;  // kind -> (decided, aliased)
};

// Runs cases in workers (the verb's --jobs, --timeout, --no-isolate): what
// root_cause_signature uses to re-run a finding's probes.
CaseRunner worker_runner(const CommonOptions& common);

}  // namespace slicefuzz
