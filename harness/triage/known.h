// Known findings (DESIGN section 3): corpus/known/<backend>/*.case, each with a
// header naming its root-cause signature, an upstream reference and the date it
// was first seen. A finding whose signature is listed for the active backend is
// KNOWN: counted and reported, not failed.
//   # signature: UNSOUND_REWRITE:slice_copy:rewrite:program-output
//   # upstream: https://github.com/pytorch/executorch/issues/NNNN
//   # first seen: 2026-11-30
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace slicefuzz {

struct Backend;
struct Case;
struct ProgramInfo;

struct KnownFinding {
  std::string signature, upstream, first_seen, file;
};

// The known findings in `dir` (not recursive). A missing directory is no known
// findings; a file without a `# signature:` line is an error (it would silently
// match nothing).
bool load_known_findings(const std::string& dir, std::vector<KnownFinding>& out, std::string& error);

// The entry for `signature`, or nullptr.
const KnownFinding* find_known(const std::vector<KnownFinding>& known, const std::string& signature);

// The directory of known findings for a backend: $SLICEFUZZ_KNOWN if set, else
// corpus/known/<backend> (relative to the working directory, as the README's
// commands run from the checkout).
std::string default_known_dir(const std::string& backend);

// The listed known finding that kills the process running `c` on `backend`
// (Backend::process_killing_known_finding), asked of the case's analysis and,
// for a case with symbols, of every execution's (a defect may be reached below
// the bounds only); nullptr when the backend declares none or none is listed.
// In-process runs (fuzz_program, check --no-isolate) count such a case instead
// of running it.
const KnownFinding* known_process_killer(const Backend& backend, const Case& c, const ProgramInfo& info,
                                         int64_t byte_budget, const std::vector<KnownFinding>& known,
                                         std::string* signature = nullptr);

}  // namespace slicefuzz
