#include "harness/run/report_symbolizer.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace slicefuzz {

namespace {

// One llvm-symbolizer child for the process's life, started at the first report
// (and again, up to kMaxStarts, if it dies). Only the process that started it
// stops it: a forked child leaving through exit() must not kill its parent's.
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
    const std::string query = "CODE \"" + module + "\" " + offset + "\n";
    std::vector<std::string> lines;
    if (!write_all(query)) return stop(), out;
    for (;;) {
      std::string line;
      if (!read_line(line)) return stop(), out;
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

  SymbolizerProcess() = default;
  ~SymbolizerProcess() { stop(); }

  bool start() {
    if (pid_ > 0) return true;
    if (starts_ >= kMaxStarts) return false;  // the reports stay as printed
    ++starts_;
    const char* env = std::getenv("ASAN_SYMBOLIZER_PATH");
    const std::string path = env && *env ? env : "llvm-symbolizer";
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0) return false;
    if (pipe2(up, O_CLOEXEC) != 0) {  // exec'd children (Python workers) hold none of it
      close(down[0]), close(down[1]);
      return false;
    }
    const pid_t pid = fork();
    if (pid < 0) {
      close(down[0]), close(down[1]), close(up[0]), close(up[1]);
      return false;
    }
    if (pid == 0) {
      dup2(down[0], 0);
      dup2(up[1], 1);
      // Nothing else of the harness stays open in it: a job worker's pipe held
      // here would never see its EOF.
      for (int fd = 3; fd < 4096; ++fd) close(fd);
      // The first that runs: $ASAN_SYMBOLIZER_PATH, else Debian's unversioned name
      // (package llvm), else llvm-14's (what ci/install-deps.sh installs).
      for (const char* candidate : {path.c_str(), "llvm-symbolizer-14", "/usr/lib/llvm-14/bin/llvm-symbolizer"})
        execlp(candidate, candidate, "--inlining", "--demangle", "--functions=linkage", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(down[0]);
    close(up[1]);
    to_ = down[1];
    from_ = up[0];
    pid_ = pid;
    owner_ = getpid();
    buffered_.clear();
    signal(SIGPIPE, SIG_IGN);  // a symbolizer that died is a failed write, not our death
    return true;
  }

  bool write_all(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t w = write(to_, text.data() + done, text.size() - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      done += static_cast<size_t>(w);
    }
    return true;
  }

  // One line of the answer; false when the symbolizer is gone or silent too long.
  bool read_line(std::string& line) {
    for (;;) {
      const size_t eol = buffered_.find('\n');
      if (eol != std::string::npos) {
        line = buffered_.substr(0, eol);
        buffered_.erase(0, eol + 1);
        return true;
      }
      pollfd p{from_, POLLIN, 0};
      const int ready = poll(&p, 1, kAnswerTimeoutMs);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return false;
      char chunk[4096];
      const ssize_t got = read(from_, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      buffered_.append(chunk, static_cast<size_t>(got));
    }
  }

  void stop() {
    if (pid_ <= 0 || owner_ != getpid()) return;
    close(to_);
    close(from_);
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  int to_ = -1, from_ = -1;
  pid_t pid_ = -1, owner_ = -1;
  int starts_ = 0;
  std::string buffered_;
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
