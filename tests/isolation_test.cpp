// run_jobs' forked workers. Their stderr is a file nobody can see in /tmp, whose
// tail still reaches the report when a worker dies. Their job clock: a backend's
// start-up inside a job
// (JobStartup: an out-of-process worker importing torch) is bounded on its own,
// never counted as the case's TIMEOUT. Found by the self-test on a loaded machine:
// torch-fx-functionalize's worker, restarted in a fresh job worker, took longer
// than the 30 s job timeout to import torch, and the first case was a TIMEOUT.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "harness/run/isolation.h"
#include "harness/run/report_symbolizer.h"

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

// A function of this binary with a name to find in a symbolized frame.
__attribute__((noinline)) int a_frame_for_the_symbolizer(int x) { return x * 7 + 1; }

// "#0 0xADDR  (MODULE+0xOFF) (BuildId: ...)", the line ASan prints for a frame
// with symbolize=0, for a_frame_for_the_symbolizer.
std::string unsymbolized_frame_line() {
  Dl_info info{};
  void* fn = reinterpret_cast<void*>(&a_frame_for_the_symbolizer);
  if (!dladdr(fn, &info)) return "";
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  char line[4300];
  std::snprintf(line, sizeof line, "    #0 %p  (%.*s+0x%zx) (BuildId: 0123)", fn, static_cast<int>(n), exe,
                static_cast<size_t>(static_cast<char*>(fn) - static_cast<char*>(info.dli_fbase)));
  return line;
}

TEST(ReportSymbolizer, NamesAFrameOfThisBinaryAndLeavesEveryOtherLineAlone) {
  const std::string frame = unsymbolized_frame_line();
  ASSERT_FALSE(frame.empty());
  const std::string unknown = "    #1 0x1234  (/nonexistent/module.so+0x10) (BuildId: 4567)";
  const std::string log = "==1==ERROR: AddressSanitizer: heap-buffer-overflow\n" + frame + "\n" + unknown +
                          "\n    #2 0x55ab in already::symbolized() /src/a.cpp:1:2\nSUMMARY: the end";
  const std::string got = symbolize_report(log);
  EXPECT_EQ(got.rfind("==1==ERROR: AddressSanitizer: heap-buffer-overflow\n    #0 0x", 0), 0u) << got;
  EXPECT_NE(got.find(" in slicefuzz::(anonymous namespace)::a_frame_for_the_symbolizer(int) "), std::string::npos)
      << got;
  EXPECT_NE(got.find("tests/isolation_test.cpp:"), std::string::npos) << got;
  EXPECT_EQ(got.find("(BuildId: 0123)"), std::string::npos) << got;  // the frame line was replaced
  EXPECT_NE(got.find("\n" + unknown + "\n"), std::string::npos) << got;  // a module nobody can read stays
  EXPECT_NE(got.find("\n    #2 0x55ab in already::symbolized() /src/a.cpp:1:2\nSUMMARY: the end"), std::string::npos)
      << got;
  EXPECT_EQ(symbolize_report("no frames here\n"), "no frames here\n");
}

TEST(ReportSymbolizer, ADeadWorkersUnsymbolizedReportReachesTheOutcomeSymbolized) {
  const std::string frame = unsymbolized_frame_line();
  ASSERT_FALSE(frame.empty());
  const auto outcomes = run(
      [&frame](size_t, const std::string&) -> std::string {
        std::fprintf(stderr, "==9==ERROR: AddressSanitizer: stack-use-after-scope\n%s\n", frame.c_str());
        std::fflush(stderr);
        std::_Exit(1);
      },
      30);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].status, JobOutcome::Status::Sanitizer);
  EXPECT_NE(outcomes[0].log.find(" in slicefuzz::(anonymous namespace)::a_frame_for_the_symbolizer(int) "),
            std::string::npos)
      << outcomes[0].log;
}

}  // namespace
}  // namespace slicefuzz
