// harness/run/line_process.h: the persistent child behind the out-of-process
// workers and the report symbolizer. What each of them did on its own before
// they shared it is asserted here for both: lines with a deadline, how the child
// ended, no harness descriptor held by the child, and a forked process that
// neither talks to nor stops the child its parent started.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "harness/run/line_process.h"

namespace slicefuzz {
namespace {

using Clock = LineProcess::Clock;
Clock::time_point in_s(double s) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

TEST(LineProcess, AnswersLineByLineAndSaysHowItEnded) {
  LineProcess p;
  ASSERT_EQ(p.start({"cat"}), "");
  EXPECT_TRUE(p.running());
  ASSERT_TRUE(p.send("one\ntwo\n"));
  std::string line;
  ASSERT_EQ(p.read_line(line, in_s(30)), LineProcess::Read::Line);
  EXPECT_EQ(line, "one");
  ASSERT_EQ(p.read_line(line, in_s(30)), LineProcess::Read::Line);
  EXPECT_EQ(line, "two");
  EXPECT_EQ(p.read_line(line, in_s(0.2)), LineProcess::Read::Timeout);  // cat is waiting for more
  EXPECT_EQ(p.stop(), "killed");
  EXPECT_FALSE(p.running());
  EXPECT_FALSE(p.send("three\n"));
  EXPECT_EQ(p.stop(), "");
}

TEST(LineProcess, AProgramThatDoesNotExistIsEndOfFileAndStatus127) {
  const int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);  // for its "cannot run" line
  LineProcess p;
  ASSERT_EQ(p.start({"/nonexistent/slicefuzz-no-such-program"}, devnull), "");
  std::string line;
  EXPECT_EQ(p.read_line(line, in_s(30)), LineProcess::Read::Eof);
  EXPECT_EQ(p.stop(), "exited with status 127");
  close(devnull);
}

TEST(LineProcess, ALineLongerThanTheLimitIsTooLong) {
  LineProcess p;
  ASSERT_EQ(p.start({"head", "-c", "100000", "/dev/zero"}), "");
  std::string line;
  EXPECT_EQ(p.read_line(line, in_s(30), 1000), LineProcess::Read::TooLong);
}

TEST(LineProcess, TheChildHoldsNoDescriptorOfTheHarnessButItsOwnThree) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);  // not close-on-exec: a plain exec would hand both to the child
  LineProcess p;
  const std::string probe = "for fd in " + std::to_string(fds[0]) + " " + std::to_string(fds[1]) +
                            "; do test -e /proc/$$/fd/$fd && echo open $fd; done; echo done";
  ASSERT_EQ(p.start({"sh", "-c", probe}), "");
  std::string line;
  ASSERT_EQ(p.read_line(line, in_s(30)), LineProcess::Read::Line);
  EXPECT_EQ(line, "done");
  close(fds[0]);
  close(fds[1]);
}

TEST(LineProcess, AForkedProcessNeitherTalksToNorStopsItsParentsChild) {
  LineProcess p;
  ASSERT_EQ(p.start({"cat"}), "");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Inherited, not ours: not running, no write reaches the parent's cat, and
    // stop() (as exit would run it) leaves it alive.
    const bool ok = !p.running() && !p.send("from the child\n") && p.stop().empty();
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_TRUE(p.running());
  ASSERT_TRUE(p.send("from the parent\n"));
  std::string line;
  ASSERT_EQ(p.read_line(line, in_s(30)), LineProcess::Read::Line);
  EXPECT_EQ(line, "from the parent");  // the child's line never arrived
  EXPECT_EQ(p.stop(), "killed");
}

TEST(LineProcess, FirstExecutableLooksUpThePathAndSkipsWhatIsNotThere) {
  EXPECT_EQ(first_executable({"", "/nonexistent/x", "slicefuzz-no-such-program"}), "");
  const std::string sh = first_executable({"slicefuzz-no-such-program", "sh"});
  EXPECT_FALSE(sh.empty());
  EXPECT_EQ(access(sh.c_str(), X_OK), 0);
  EXPECT_EQ(first_executable({"/bin/sh"}), "/bin/sh");
}

}  // namespace
}  // namespace slicefuzz
