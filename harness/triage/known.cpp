#include "harness/triage/known.h"

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

}  // namespace slicefuzz
