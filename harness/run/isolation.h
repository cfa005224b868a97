// Runs jobs in forked worker processes, so that a crashing backend, a sanitizer
// report or a hang costs one case, never the harness. Workers are persistent (a
// worker runs job after job, like libFuzzer's -fork workers) and replaced when one
// dies. The parent never runs a job itself.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace slicefuzz {

struct JobOutcome {
  enum class Status { Ok, Crash, Sanitizer, Timeout } status = Status::Ok;
  std::string text;    // the job's result (Ok)
  std::string detail;  // what killed the worker (Crash, Sanitizer, Timeout)
  std::string log;     // the dead worker's stderr tail (sanitizer report, stack)
};

struct IsolationOptions {
  int jobs = 1;            // worker processes
  double timeout_s = 30;   // per job
  bool isolate = true;     // false: run jobs in this process (fast, unprotected)
};

// A job gets its index and an input text that the parent produced (possibly
// after the worker was forked, so it travels over the pipe).
using JobFn = std::function<std::string(size_t index, const std::string& input)>;

// Calls job(i, input(i)) for every i in [0, count) in a worker and
// on_result(i, outcome) in the parent, in index order; on_result returns false to
// stop early (jobs still running are abandoned). `input` runs in the parent; pass
// nullptr when jobs need only their index.
void run_jobs(size_t count, const JobFn& job, const std::function<std::string(size_t)>& input,
              const std::function<bool(size_t, const JobOutcome&)>& on_result,
              const IsolationOptions& options);

// A backend's start-up inside a job (an out-of-process worker importing torch,
// seconds on shared cores): while one lives, the parent of a forked job worker
// stops the job's clock, bounding the start-up by `bound_s` (plus the job's
// timeout) on its own, so a slow start is never the case's TIMEOUT. Outside
// run_jobs' workers it does nothing.
class JobStartup {
 public:
  explicit JobStartup(double bound_s);
  ~JobStartup();
  JobStartup(const JobStartup&) = delete;
  JobStartup& operator=(const JobStartup&) = delete;
};

}  // namespace slicefuzz
