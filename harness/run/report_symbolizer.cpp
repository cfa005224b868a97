#include "harness/run/report_symbolizer.h"

#include "harness/run/line_process.h"

#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace slicefuzz {

namespace {

// One llvm-symbolizer child for the process's life, started at the first report
// (and again, up to kMaxStarts, if it dies). LineProcess stops it only from the
// process that started it: a forked child leaving through exit() must not kill
// its parent's.
class SymbolizerProcess {
 public:
  static SymbolizerProcess& get() {
    static SymbolizerProcess p;
    return p;
  }

  // The frames of MODULE+OFFSET, innermost inlined frame first: (function,
  // file:line:col); empty when unknown or when no symbolizer answers.
  std::vector<std::pair<std::string, std::string>> frames(const std::string& module, const std::string& offset) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!start()) return out;
    if (!child_.send("CODE \"" + module + "\" " + offset + "\n")) return child_.stop(), out;
    const auto deadline = LineProcess::Clock::now() + std::chrono::milliseconds(kAnswerTimeoutMs);
    std::vector<std::string> lines;
    for (;;) {
      std::string line;
      if (child_.read_line(line, deadline) != LineProcess::Read::Line) return child_.stop(), out;
      if (line.empty()) break;  // the answer ends with an empty line
      lines.push_back(line);
    }
    for (size_t i = 0; i + 1 < lines.size(); i += 2)
      if (lines[i] != "??") out.emplace_back(lines[i], lines[i + 1]);
    return out;
  }

 private:
  static constexpr int kMaxStarts = 3;
  static constexpr int kAnswerTimeoutMs = 30000;

  bool start() {
    if (child_.running()) return true;
    if (starts_ >= kMaxStarts) return false;  // the reports stay as printed
    ++starts_;
    // The first that runs: $ASAN_SYMBOLIZER_PATH, else Debian's unversioned name
    // (package llvm), else llvm-14's (what ci/install-deps.sh installs).
    const char* env = std::getenv("ASAN_SYMBOLIZER_PATH");
    const std::string path = first_executable({env ? env : "", "llvm-symbolizer", "llvm-symbolizer-14",
                                               "/usr/lib/llvm-14/bin/llvm-symbolizer"});
    if (path.empty()) return false;
    return child_.start({path, "--inlining", "--demangle", "--functions=linkage"}).empty();
  }

  LineProcess child_;
  int starts_ = 0;
};

// "    #3 0x556f3f1d094c  (/path/slicefuzz+0x78f94c) (BuildId: ...)": the prefix up
// to the address, the module and the offset; false for any other line.
bool unsymbolized_frame(const std::string& line, std::string& prefix, std::string& module, std::string& offset) {
  const size_t hash = line.find_first_not_of(' ');
  if (hash == std::string::npos || line[hash] != '#') return false;
  const size_t addr = line.find(" 0x", hash);
  const size_t open = line.find("  (", hash);
  if (addr == std::string::npos || open == std::string::npos || open < addr) return false;
  if (line.find(" in ", hash) != std::string::npos && line.find(" in ", hash) < open) return false;
  const size_t close = line.find(')', open);
  if (close == std::string::npos) return false;
  const std::string inside = line.substr(open + 3, close - open - 3);
  const size_t plus = inside.rfind("+0x");
  if (plus == std::string::npos) return false;
  prefix = line.substr(0, open);
  module = inside.substr(0, plus);
  offset = inside.substr(plus + 1);
  return true;
}

}  // namespace

std::string symbolize_report(const std::string& log) {
  if (log.find("  (") == std::string::npos) return log;
  std::string out;
  out.reserve(log.size() * 2);
  size_t pos = 0;
  while (pos < log.size()) {
    size_t eol = log.find('\n', pos);
    const bool last = eol == std::string::npos;
    if (last) eol = log.size();
    const std::string line = log.substr(pos, eol - pos);
    pos = eol + 1;
    std::string prefix, module, offset;
    std::vector<std::pair<std::string, std::string>> frames;
    if (unsymbolized_frame(line, prefix, module, offset)) frames = SymbolizerProcess::get().frames(module, offset);
    if (frames.empty()) {
      out += line;
    } else {
      for (size_t i = 0; i < frames.size(); ++i)
        out += (i ? "\n" : "") + prefix + " in " + frames[i].first + " " + frames[i].second;
    }
    if (!last) out += '\n';
  }
  return out;
}

}  // namespace slicefuzz
