#include "harness/run/line_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace slicefuzz {

bool write_all(int fd, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n) {
    const ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    c += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

std::string LineProcess::start(const std::vector<std::string>& argv, int stderr_fd) {
  stop();
  if (argv.empty()) return "no command";
  static const bool sigpipe_ignored = [] { return signal(SIGPIPE, SIG_IGN), true; }();
  (void)sigpipe_ignored;
  int down[2], up[2];
  if (pipe2(down, O_CLOEXEC) != 0) return std::string("pipe failed: ") + std::strerror(errno);
  if (pipe2(up, O_CLOEXEC) != 0) {
    close(down[0]), close(down[1]);
    return std::string("pipe failed: ") + std::strerror(errno);
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(down[0]), close(down[1]), close(up[0]), close(up[1]);
    return std::string("fork failed: ") + std::strerror(errno);
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the process that started it
    if (getppid() != parent) _exit(127);
    dup2(down[0], 0);
    dup2(up[1], 1);
    if (stderr_fd >= 0) dup2(stderr_fd, 2);
    // Nothing else of the harness stays open in the child.
    if (close_range(3, ~0U, 0) != 0) {  // kernels before 5.9: one by one
      const long max_fd = sysconf(_SC_OPEN_MAX);
      for (long fd = 3; fd < (max_fd > 0 && max_fd < 65536 ? max_fd : 65536); ++fd) close(static_cast<int>(fd));
    }
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(down[0]);
  close(up[1]);
  to_ = down[1];
  from_ = up[0];
  pid_ = pid;
  owner_ = parent;
  buffered_.clear();
  return {};
}

bool LineProcess::running() const { return pid_ > 0 && owner_ == getpid(); }

bool LineProcess::send(const std::string& text) { return running() && write_all(to_, text); }

LineProcess::Read LineProcess::read_line(std::string& line, Clock::time_point deadline, size_t max_line) {
  if (!running()) return Read::Eof;
  for (;;) {
    const size_t eol = buffered_.find('\n');
    if (eol != std::string::npos) {
      line = buffered_.substr(0, eol);
      buffered_.erase(0, eol + 1);
      return Read::Line;
    }
    if (buffered_.size() > max_line) return Read::TooLong;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Read::Timeout;
    pollfd p{from_, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return Read::Timeout;
    if (ready < 0) return Read::Eof;
    char chunk[65536];
    const ssize_t got = read(from_, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return Read::Eof;
    buffered_.append(chunk, static_cast<size_t>(got));
  }
}

std::string LineProcess::stop() {
  std::string how;
  if (running()) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    bool killed = false;
    if (r == 0) {
      // Alive, or between closing its pipes and being reaped: a child that had
      // already exited still says so after the SIGKILL.
      kill(pid_, SIGKILL);
      r = waitpid(pid_, &status, 0);
      killed = true;
    }
    if (killed && r == pid_ && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      how = "killed";
    } else if (r == pid_ && WIFSIGNALED(status)) {
      how = std::string("killed by signal ") + strsignal(WTERMSIG(status));
    } else if (r == pid_ && WIFEXITED(status)) {
      how = "exited with status " + std::to_string(WEXITSTATUS(status));
    }
  }
  // Not ours (inherited through fork): our copies of its pipes are closed, the
  // child and its owner are left alone.
  if (to_ >= 0) close(to_);
  if (from_ >= 0) close(from_);
  to_ = from_ = -1;
  pid_ = owner_ = -1;
  buffered_.clear();
  return how;
}

std::string first_executable(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (name.empty()) continue;
    if (name.find('/') != std::string::npos) {
      if (access(name.c_str(), X_OK) == 0) return name;
      continue;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (size_t pos = 0; pos <= dirs.size();) {
      size_t colon = dirs.find(':', pos);
      if (colon == std::string::npos) colon = dirs.size();
      const std::string dir = colon > pos ? dirs.substr(pos, colon - pos) : ".";
      const std::string full = dir + "/" + name;
      struct stat st {};
      if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0) return full;
      pos = colon + 1;
    }
  }
  return {};
}

}  // namespace slicefuzz
