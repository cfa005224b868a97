#include "harness/run/isolation.h"

#include "harness/run/line_process.h"
#include "harness/run/report_symbolizer.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

namespace slicefuzz {

namespace {

bool read_all(int fd, void* p, size_t n) {
  char* c = static_cast<char*>(p);
  while (n) {
    ssize_t r = read(fd, c, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    c += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

// Frames a job worker sends besides its results (index, length, no text): a
// start-up begins (length: its bound in milliseconds), a start-up ended.
constexpr uint64_t kStartupBegins = UINT64_MAX, kStartupEnds = UINT64_MAX - 1;
int g_to_parent = -1;  // in a job worker: where its frames go

// The worker loop: read a job index, run it, write back (index, length, text).
[[noreturn]] void worker_main(int in_fd, int out_fd, const JobFn& job) {
  g_to_parent = out_fd;
  uint64_t index, in_len;
  while (read_all(in_fd, &index, sizeof index) && read_all(in_fd, &in_len, sizeof in_len)) {
    std::string input(in_len, '\0');
    if (!read_all(in_fd, input.data(), in_len)) break;
    std::string text = job(index, input);
    uint64_t len = text.size();
    if (!write_all(out_fd, &index, sizeof index) || !write_all(out_fd, &len, sizeof len) ||
        !write_all(out_fd, text.data(), text.size()))
      break;
  }
  _exit(0);
}

struct Worker {
  pid_t pid = -1;
  int to_worker = -1, from_worker = -1;
  // The worker's stderr: a file unlinked at once, so that nothing is left in
  // /tmp however the harness ends (SIGTERM, SIGKILL); read through this fd.
  int stderr_fd = -1;
  bool busy = false;
  size_t job = 0;
  std::chrono::steady_clock::time_point started;
  // A backend start-up in progress (JobStartup): since when, and its bound.
  bool starting_up = false;
  std::chrono::steady_clock::time_point startup_began;
  double startup_bound_s = 0;
};

std::string read_tail(int fd, size_t max) {
  if (fd < 0) return {};
  const off_t size = lseek(fd, 0, SEEK_END);
  if (size <= 0) return {};
  const off_t from = size > static_cast<off_t>(max) ? size - static_cast<off_t>(max) : 0;
  std::string s(static_cast<size_t>(size - from), '\0');
  const ssize_t got = pread(fd, s.data(), s.size(), from);
  s.resize(got > 0 ? static_cast<size_t>(got) : 0);
  return s;
}

// The first line of a sanitizer report, or "".
std::string sanitizer_headline(const std::string& log) {
  for (const char* marker : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                             "ERROR: UndefinedBehaviorSanitizer"}) {
    size_t at = log.find(marker);
    if (at == std::string::npos) continue;
    size_t b = log.rfind('\n', at);
    b = b == std::string::npos ? 0 : b + 1;
    size_t e = log.find('\n', at);
    return log.substr(b, e == std::string::npos ? std::string::npos : e - b);
  }
  return {};
}

Worker spawn(const JobFn& job, const std::vector<Worker>& others) {
  int down[2], up[2];
  if (pipe(down) != 0 || pipe(up) != 0) {
    std::perror("slicefuzz: pipe");
    std::exit(2);
  }
  Worker w;
  char path[] = "/tmp/slicefuzz-worker-XXXXXX";
  int err_fd = mkostemp(path, O_CLOEXEC);  // fd 2 in the worker (dup2 drops CLOEXEC), nowhere else
  if (err_fd >= 0) unlink(path);
  std::fflush(nullptr);
  w.pid = fork();
  if (w.pid < 0) {
    std::perror("slicefuzz: fork");
    std::exit(2);
  }
  if (w.pid == 0) {
    // Other workers' pipe ends must not stay open here, or they never see EOF.
    for (const Worker& o : others)
      if (o.pid > 0) close(o.to_worker), close(o.from_worker), close(o.stderr_fd);
    close(down[1]);
    close(up[0]);
    if (err_fd >= 0) dup2(err_fd, STDERR_FILENO);
    // The worker's stdout belongs to the parent's report: keep it quiet.
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    worker_main(down[0], up[1], job);
  }
  w.stderr_fd = err_fd;
  close(down[0]);
  close(up[1]);
  w.to_worker = down[1];
  w.from_worker = up[0];
  return w;
}

void retire(Worker& w, bool kill_it) {
  if (w.pid > 0) {
    if (kill_it) kill(w.pid, SIGKILL);
    close(w.to_worker);
    close(w.from_worker);
    int status;
    waitpid(w.pid, &status, 0);
    if (w.stderr_fd >= 0) close(w.stderr_fd);
  }
  w = Worker{};
}

// Why a worker died while running a job.
JobOutcome death_outcome(const Worker& w, int status) {
  JobOutcome o;
  // Symbolized here (the workers run with symbolize=0: harness/cli/main.cpp).
  std::string log = symbolize_report(read_tail(w.stderr_fd, 64 << 10));
  std::string headline = sanitizer_headline(log);
  o.log = log;
  if (!headline.empty()) {
    o.status = JobOutcome::Status::Sanitizer;
    o.detail = headline;
  } else {
    o.status = JobOutcome::Status::Crash;
    if (WIFSIGNALED(status))
      o.detail = std::string("worker killed by signal ") + strsignal(WTERMSIG(status));
    else
      o.detail = "worker exited with status " + std::to_string(WEXITSTATUS(status));
  }
  if (!log.empty()) {
    // Forward the report: it is the reproducer's first clue.
    std::fprintf(stderr, "---- worker log (job %zu) ----\n%s\n---- end of worker log ----\n",
                 w.job, log.c_str());
  }
  return o;
}

}  // namespace

void run_jobs(size_t count, const JobFn& job, const std::function<std::string(size_t)>& input,
              const std::function<bool(size_t, const JobOutcome&)>& on_result,
              const IsolationOptions& options) {
  if (!options.isolate) {
    for (size_t i = 0; i < count; ++i)
      if (!on_result(i, JobOutcome{JobOutcome::Status::Ok, job(i, input ? input(i) : ""), {}}))
        return;
    return;
  }
  signal(SIGPIPE, SIG_IGN);
  const int nworkers = std::max(1, std::min<int>(options.jobs, static_cast<int>(count ? count : 1)));
  std::vector<Worker> workers(nworkers);
  std::map<size_t, JobOutcome> done;  // finished out of order, waiting for on_result
  size_t next_job = 0, next_report = 0;
  bool stopped = false;
  auto flush = [&] {
    for (auto it = done.find(next_report); !stopped && it != done.end(); it = done.find(next_report)) {
      stopped = !on_result(next_report, it->second);
      done.erase(it);
      ++next_report;
    }
  };
  while (next_report < count && !stopped) {
    for (int i = 0; i < nworkers; ++i) {
      Worker& w = workers[i];
      if (w.busy || next_job >= count) continue;
      if (w.pid < 0) w = spawn(job, workers);
      uint64_t index = next_job;
      const std::string in = input ? input(next_job) : std::string();
      const uint64_t in_len = in.size();
      if (!write_all(w.to_worker, &index, sizeof index) ||
          !write_all(w.to_worker, &in_len, sizeof in_len) ||
          !write_all(w.to_worker, in.data(), in.size())) {
        retire(w, true);
        continue;  // respawned on the next round
      }
      w.busy = true;
      w.job = next_job++;
      w.started = std::chrono::steady_clock::now();
    }
    std::vector<pollfd> fds;
    std::vector<int> owner;
    for (int i = 0; i < nworkers; ++i)
      if (workers[i].busy) {
        fds.push_back(pollfd{workers[i].from_worker, POLLIN, 0});
        owner.push_back(i);
      }
    if (fds.empty()) {
      flush();
      continue;
    }
    poll(fds.data(), fds.size(), 200);
    const auto now = std::chrono::steady_clock::now();
    for (size_t f = 0; f < fds.size(); ++f) {
      Worker& w = workers[owner[f]];
      if (fds[f].revents & (POLLIN | POLLHUP | POLLERR)) {
        uint64_t index = 0, len = 0;
        std::string text;
        bool ok = read_all(w.from_worker, &index, sizeof index) &&
                  read_all(w.from_worker, &len, sizeof len);
        if (ok && (index == kStartupBegins || index == kStartupEnds)) {
          if (index == kStartupBegins) {
            w.starting_up = true;
            w.startup_began = now;
            w.startup_bound_s = static_cast<double>(len) / 1000;
          } else if (w.starting_up) {
            w.starting_up = false;
            w.started += now - w.startup_began;  // the start-up is not the job's time
          }
          continue;
        }
        if (ok) {
          text.resize(len);
          ok = read_all(w.from_worker, text.data(), len);
        }
        if (ok && index == w.job) {
          done[w.job] = JobOutcome{JobOutcome::Status::Ok, std::move(text), {}};
          w.busy = false;
          continue;
        }
        // The worker died mid-job: collect it and blame that job.
        int status = 0;
        close(w.to_worker);
        close(w.from_worker);
        waitpid(w.pid, &status, 0);
        done[w.job] = death_outcome(w, status);
        if (w.stderr_fd >= 0) close(w.stderr_fd);
        w = Worker{};
      } else if (w.starting_up ? std::chrono::duration<double>(now - w.startup_began).count() >
                                     w.startup_bound_s + options.timeout_s
                               : std::chrono::duration<double>(now - w.started).count() > options.timeout_s) {
        JobOutcome o;
        o.status = JobOutcome::Status::Timeout;
        o.detail = w.starting_up ? "the backend's start-up took more than " +
                                       std::to_string(static_cast<int>(w.startup_bound_s + options.timeout_s)) + " s"
                                 : "no result after " + std::to_string(static_cast<int>(options.timeout_s)) + " s";
        done[w.job] = o;
        retire(w, true);
      }
    }
    flush();
  }
  for (Worker& w : workers) retire(w, w.busy);
}

JobStartup::JobStartup(double bound_s) {
  if (g_to_parent < 0) return;
  const uint64_t index = kStartupBegins, ms = static_cast<uint64_t>(std::max(0.0, bound_s) * 1000);
  (void)(write_all(g_to_parent, &index, sizeof index) && write_all(g_to_parent, &ms, sizeof ms));
}

JobStartup::~JobStartup() {
  if (g_to_parent < 0) return;
  const uint64_t index = kStartupEnds, zero = 0;
  (void)(write_all(g_to_parent, &index, sizeof index) && write_all(g_to_parent, &zero, sizeof zero));
}

}  // namespace slicefuzz
