// Options every verb takes: --backend NAME, --max-bytes N, --jobs N, --timeout S,
// --no-isolate.
#pragma once
#include <set>
#include <string>

#include "backends/backend.h"
#include "harness/cli_args.h"
#include "harness/isolation.h"
#include "harness/known.h"
#include "harness/runner.h"
#include "harness/signature.h"

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

// Runs cases in workers (the verb's --jobs, --timeout, --no-isolate): what
// root_cause_signature uses to re-run a finding's probes.
CaseRunner worker_runner(const CommonOptions& common);

}  // namespace slicefuzz
