// The job clock of run_jobs' forked workers: a backend's start-up inside a job
// (JobStartup: an out-of-process worker importing torch) is bounded on its own,
// never counted as the case's TIMEOUT. Found by the self-test on a loaded machine:
// torch-fx-functionalize's worker, restarted in a fresh job worker, took longer
// than the 30 s job timeout to import torch, and the first case was a TIMEOUT.
#include <gtest/gtest.h>

#include <chrono>
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

TEST(IsolationStartup, OutsideAJobWorkerItDoesNothing) {
  const JobStartup startup(1);  // in the test process itself: no parent to tell
  SUCCEED();
}

}  // namespace
}  // namespace slicefuzz
