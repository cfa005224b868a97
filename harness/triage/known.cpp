#include "harness/triage/known.h"

#include "backends/backend.h"
#include "oracles/dynamic_analysis.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace slicefuzz {

namespace {
// "# key: value" -> value, for the header lines before the case text.
bool header_value(const std::string& line, const char* key, std::string& value) {
  const std::string prefix = std::string("# ") + key + ":";
  if (line.rfind(prefix, 0) != 0) return false;
  value = line.substr(prefix.size());
  value.erase(0, value.find_first_not_of(" \t"));
  while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.pop_back();
  return true;
}
}  // namespace

bool load_known_findings(const std::string& dir, std::vector<KnownFinding>& out, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return true;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".case") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    std::ifstream in(f);
    KnownFinding k;
    k.file = f;
    for (std::string line; std::getline(in, line) && line.rfind("#", 0) == 0;) {
      header_value(line, "signature", k.signature);
      header_value(line, "upstream", k.upstream);
      header_value(line, "first seen", k.first_seen);
    }
    if (k.signature.empty()) return error = f + ": no '# signature: ...' header line", false;
    out.push_back(k);
  }
  return true;
}

const KnownFinding* find_known(const std::vector<KnownFinding>& known, const std::string& signature) {
  for (const KnownFinding& k : known)
    if (k.signature == signature) return &k;
  return nullptr;
}

std::string default_known_dir(const std::string& backend) {
  if (const char* env = std::getenv("SLICEFUZZ_KNOWN")) return env;
  return "corpus/known/" + backend;
}

const KnownFinding* known_process_killer(const Backend& backend, const Case& c, const ProgramInfo& info,
                                         int64_t byte_budget, const std::vector<KnownFinding>& known,
                                         std::string* signature) {
  if (!backend.process_killing_known_finding || known.empty()) return nullptr;
  auto listed = [&](const Case& one, const ProgramInfo& one_info) -> const KnownFinding* {
    const std::string sig = backend.process_killing_known_finding(one, one_info);
    const KnownFinding* k = sig.empty() ? nullptr : find_known(known, sig);
    if (k && signature) *signature = sig;
    return k;
  };
  if (const KnownFinding* k = listed(c, info)) return k;
  if (!c.is_dynamic()) return nullptr;
  DynamicInfo dynamic;
  ProgramInfo first;
  DynamicError error;
  if (!analyze_dynamic(c, byte_budget, dynamic, first, error)) return nullptr;
  for (const ExecutionInfo& e : dynamic.runs)
    if (e.in_range)
      if (const KnownFinding* k = listed(e.c, e.info)) return k;
  return nullptr;
}

}  // namespace slicefuzz
