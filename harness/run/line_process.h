// A child process the harness talks to in lines over two pipes, kept alive across
// requests: the out-of-process backends' workers (worker_client.cpp) and the one
// llvm-symbolizer that names dead job workers' frames (report_symbolizer.cpp).
// What either needs, both get:
// - the child dies with the process that started it (PR_SET_PDEATHSIG), and holds
//   no descriptor of the harness but its stdin, stdout and stderr (a job worker's
//   pipe held by it would never see its EOF);
// - only the process that started it talks to it or stops it: a forked job worker
//   inherits the object, sees it as not running, and starts its own; its exit
//   never kills its parent's child.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace slicefuzz {

// Writes all of p[0..n), retrying on EINTR and short writes; false once the
// reader is gone (SIGPIPE is ignored by LineProcess::start, so that is a failed
// write, never the harness's death).
bool write_all(int fd, const void* p, size_t n);
inline bool write_all(int fd, const std::string& s) { return write_all(fd, s.data(), s.size()); }

class LineProcess {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Read { Line, Eof, Timeout, TooLong };

  LineProcess() = default;
  LineProcess(const LineProcess&) = delete;
  LineProcess& operator=(const LineProcess&) = delete;
  ~LineProcess() { stop(); }

  // Starts argv[0] (looked up on PATH) with its stdin and stdout on pipes to this
  // process and its stderr on `stderr_fd` (-1: this process's own stderr). "" once
  // started, else why not (an exec that fails shows as EOF at the first read, the
  // child exiting with status 127 after one line on its stderr).
  std::string start(const std::vector<std::string>& argv, int stderr_fd = -1);
  // Started by this process and not yet stopped (it may have died since).
  bool running() const;
  bool send(const std::string& text);
  // One line without its '\n' into `line`; Timeout at `deadline`, Eof when the
  // child closed its stdout, TooLong when a line passes `max_line` bytes.
  Read read_line(std::string& line, Clock::time_point deadline, size_t max_line = size_t{64} << 20);
  // Ends the child (kills it if alive) and says how it ended ("killed", "exited
  // with status N", "killed by signal S"; "" if none ran). A process that did not
  // start it only forgets it.
  std::string stop();

 private:
  pid_t pid_ = -1, owner_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffered_;  // bytes read but not yet returned as a line
};

// The first of `names` that is an executable file (a name without '/' is looked
// up on PATH); "" if none is.
std::string first_executable(const std::vector<std::string>& names);

}  // namespace slicefuzz
