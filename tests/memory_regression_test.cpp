// MEMORY_REGRESSION is opt-in: reported only for a backend that promises the
// rewrite never grows the arena, and only when it does.
#include <gtest/gtest.h>

#include "backends/backend.h"
#include "harness/run/runner.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

// DESIGN section 2: the alias keeps the whole of t alive, so t and z coexist.
constexpr const char* kGrows = R"(slicefuzz-case 1
dtype float32
input x [8, 4]
t = clone(x)
y = slice_copy(t, dim=0, start=0, end=1, step=1)
z = clone(x)
w = clone(y)
output w, z
)";

// The alias only saves bytes here.
constexpr const char* kShrinks = R"(slicefuzz-case 1
dtype float32
input x [8, 4]
y = slice_copy(x, dim=0, start=2, end=6, step=1)
w = clone(y)
output w
)";

CaseReport run(const char* text, const Backend& b) {
  ParseResult p = parse_case(text);
  EXPECT_TRUE(p.ok) << p.error;
  return run_case(p.c, p.info, b, RunOptions{});
}

TEST(MemoryRegression, ReportedOnlyForABackendThatPromisesNoGrowth) {
  Backend promising = *find_backend("reference");
  promising.never_grows_arena = true;
  CaseReport grows = run(kGrows, promising);
  EXPECT_GT(grows.arena_bytes, grows.copy_arena_bytes);
  ASSERT_NE(grows.first_failure(), nullptr);
  EXPECT_EQ(grows.first_failure()->kind, FindingKind::MEMORY_REGRESSION);
  EXPECT_NE(grows.first_failure()->message.find("grew the arena from " +
                                                std::to_string(grows.copy_arena_bytes) + " to " +
                                                std::to_string(grows.arena_bytes)),
            std::string::npos)
      << grows.first_failure()->message;

  // The same growth is only reported (both sizes), never failed, by default.
  CaseReport plain = run(kGrows, *find_backend("reference"));
  EXPECT_EQ(plain.first_failure(), nullptr);
  EXPECT_EQ(plain.arena_bytes, grows.arena_bytes);

  CaseReport shrinks = run(kShrinks, promising);
  EXPECT_LE(shrinks.arena_bytes, shrinks.copy_arena_bytes);
  EXPECT_EQ(shrinks.first_failure(), nullptr);
}

}  // namespace
}  // namespace slicefuzz
