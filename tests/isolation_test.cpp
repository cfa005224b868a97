// run_jobs' forked workers. Their stderr is a file nobody can see in /tmp, whose
// tail still reaches the report when a worker dies. Their job clock: a backend's
// start-up inside a job
// (JobStartup: an out-of-process worker importing torch) is bounded on its own,
// never counted as the case's TIMEOUT. Found by the self-test on a loaded machine:
// torch-fx-functionalize's worker, restarted in a fresh job worker, took longer
// than the 30 s job timeout to import torch, and the first case was a TIMEOUT.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "harness/run/isolation.h"

namespace slicefuzz {
namespace {

void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

std::vector<JobOutcome> run(const JobFn& job, double timeout_s) {
  std::vector<JobOutcome> out;
  IsolationOptions options;
  options.timeout_s = timeout_s;
  run_jobs(
      2, job, nullptr,
      [&](size_t, const JobOutcome& o) {
        out.push_back(o);
        return true;
      },
      options);
  return out;
}

TEST(IsolationStartup, AStartUpLongerThanTheTimeoutIsNotTheJobsTime) {
  const auto outcomes = run(
      [](size_t i, const std::string&) {
        if (i == 0) {
          const JobStartup startup(30);
          sleep_s(5);  // a slow start-up: longer than the job's timeout
        }
        sleep_s(0.1);  // the job itself: well inside it
        return std::string("done");
      },
      3);
  ASSERT_EQ(outcomes.size(), 2u);
  for (const JobOutcome& o : outcomes) {
    EXPECT_EQ(o.status, JobOutcome::Status::Ok) << o.detail;
    EXPECT_EQ(o.text, "done");
  }
}

TEST(IsolationStartup, TheJobsOwnTimeStillTimesOut) {
  const auto outcomes = run(
      [](size_t i, const std::string&) {
        {
          const JobStartup startup(30);
          sleep_s(0.2);
        }
        if (i == 0) sleep_s(6);  // after the start-up: the job's own time
        return std::string("done");
      },
      3);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].status, JobOutcome::Status::Timeout);
  EXPECT_EQ(outcomes[0].detail, "no result after 3 s");
  EXPECT_EQ(outcomes[1].status, JobOutcome::Status::Ok) << outcomes[1].detail;
}

TEST(IsolationStartup, AStartUpPastItsOwnBoundTimesOutAndSaysSo) {
  const auto outcomes = run(
      [](size_t i, const std::string&) {
        if (i == 0) {
          const JobStartup startup(0.5);
          sleep_s(6);  // past its bound plus the job's timeout (3.5 s)
        }
        return std::string("done");
      },
      3);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].status, JobOutcome::Status::Timeout);
  EXPECT_EQ(outcomes[0].detail, "the backend's start-up took more than 3 s");
  EXPECT_EQ(outcomes[1].status, JobOutcome::Status::Ok) << outcomes[1].detail;
}

// A harness stopped by SIGTERM or SIGKILL cannot remove a file: the worker's
// stderr was left in /tmp as slicefuzz-worker-XXXXXX (seen after stopping the
// self-test). Now the file is unlinked before the worker starts.
TEST(IsolationFiles, AWorkersStderrIsNoFileInTmp) {
  const auto outcomes = run(
      [](size_t, const std::string&) {
        char target[512] = {};
        const ssize_t n = readlink("/proc/self/fd/2", target, sizeof target - 1);
        return n > 0 ? std::string(target, static_cast<size_t>(n)) : std::string("unreadable");
      },
      30);
  ASSERT_EQ(outcomes.size(), 2u);
  for (const JobOutcome& o : outcomes) {
    ASSERT_EQ(o.status, JobOutcome::Status::Ok) << o.detail;
    EXPECT_NE(o.text.find("slicefuzz-worker-"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("(deleted)"), std::string::npos) << o.text;
  }
}

TEST(IsolationFiles, ADeadWorkersStderrTailStillReachesTheOutcome) {
  const auto outcomes = run(
      [](size_t i, const std::string&) {
        if (i == 0) {
          std::fprintf(stderr, "the worker's last words\n");
          std::fflush(stderr);
          std::_Exit(3);
        }
        return std::string("done");
      },
      30);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].status, JobOutcome::Status::Crash);
  EXPECT_EQ(outcomes[0].detail, "worker exited with status 3");
  EXPECT_NE(outcomes[0].log.find("the worker's last words"), std::string::npos) << outcomes[0].log;
  EXPECT_EQ(outcomes[1].status, JobOutcome::Status::Ok) << outcomes[1].detail;
}

}  // namespace
}  // namespace slicefuzz
