// The seed corpus reads back and means what its comments say: every seed parses
// and passes the judge's analysis; a seed of corpus/seeds/v2-ops is version 2,
// opens with a comment saying what it exercises, and marks the op that must fail
// (`# must fail here`) exactly when the judge predicts a failing op, at that op.
// Together the v2-ops seeds cover every view-copy op, its error cases, channels-
// last inputs, rank 0 and 16, size-0 dims and sizes past int32 beside a 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> cases_under(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".case") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

const fs::path kSeeds = fs::path(SLICEFUZZ_SOURCE_DIR) / "corpus" / "seeds";
const fs::path kViewOpSeeds = kSeeds / "v2-ops";

TEST(Seeds, EverySeedParses) {
  for (const fs::path& p : cases_under(kSeeds)) {
    const ParseResult r = parse_case(read_text(p), p.string());
    EXPECT_TRUE(r.ok) << r.error;
  }
}

// The 0-based index of the op on the line marked `# must fail here`, or -1.
int marked_failing_op(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  int op = -1, marked = -1;
  bool body = false;
  while (std::getline(lines, line)) {
    const std::string code = line.substr(0, line.find('#'));
    const bool is_op = body && code.find('(') != std::string::npos &&
                       code.rfind("output", 0) != 0 && code.rfind("input", 0) != 0;
    if (code.rfind("input", 0) == 0) body = true;
    if (is_op) ++op;
    if (is_op && line.find("# must fail here") != std::string::npos) marked = op;
  }
  return marked;
}

TEST(Seeds, ViewOpSeedsAreVersion2AndFailExactlyWhereMarked) {
  const std::vector<fs::path> seeds = cases_under(kViewOpSeeds);
  EXPECT_GE(seeds.size(), 45u);
  for (const fs::path& p : seeds) {
    const std::string text = read_text(p);
    EXPECT_EQ(text.rfind("# ", 0), 0u) << p << ": the first line says what it exercises";
    const ParseResult r = parse_case(text, p.string());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.c.version, 2) << p;
    EXPECT_EQ(r.info.failing_op, marked_failing_op(text))
        << p << ": the judge says " << (r.info.failing_op < 0 ? "no op fails" : r.info.failing_reason);
  }
}

TEST(Seeds, ViewOpSeedsCoverEveryOpItsErrorsAndTheEdges) {
  std::map<OpKind, int> valid, failing;
  int channels_last = 0, rank0 = 0, rank16 = 0, size0 = 0, huge_beside_zero = 0,
      clone_dim_order = 0, squeeze_single = 0, squeeze_list = 0, view_minus_one = 0;
  for (const fs::path& p : cases_under(kViewOpSeeds)) {
    const ParseResult r = parse_case(read_text(p), p.string());
    ASSERT_TRUE(r.ok) << r.error;
    const Case& c = r.c;
    channels_last += c.inputs[0].dim_order == std::vector<int>{0, 2, 3, 1};
    rank0 += c.inputs[0].sizes.empty();
    rank16 += c.inputs[0].sizes.size() == 16;
    bool zero = false, huge = false;
    for (const ValueInfo& v : r.info.values) {
      // A 0 beside sizes whose product (the 0 left out) is past int32.
      const bool empty = std::count(v.sizes.begin(), v.sizes.end(), 0) > 0;
      double product = 1;
      for (int64_t s : v.sizes) product *= s == 0 ? 1 : static_cast<double>(s);
      zero |= empty;
      huge |= empty && product > INT32_MAX;
    }
    size0 += zero;
    huge_beside_zero += huge;
    for (size_t k = 0; k < c.ops.size(); ++k) {
      const Op& op = c.ops[k];
      (static_cast<int>(k) == r.info.failing_op ? failing : valid)[op.kind]++;
      clone_dim_order += op.kind == OpKind::Clone && op.dim_order.has_value();
      squeeze_single += op.kind == OpKind::SqueezeCopy && op.single_dim;
      squeeze_list += op.kind == OpKind::SqueezeCopy && !op.single_dim;
      for (int64_t s : op.ints) view_minus_one += op.kind == OpKind::ViewCopy && s == -1;
    }
  }
  for (OpKind k : {OpKind::SelectCopy, OpKind::SqueezeCopy, OpKind::UnsqueezeCopy,
                   OpKind::ViewCopy, OpKind::Clone}) {
    EXPECT_GE(valid[k], 5) << op_kind_name(k);
    EXPECT_GE(failing[k], 2) << op_kind_name(k);
  }
  EXPECT_GE(failing[OpKind::Copy], 1);
  EXPECT_GE(channels_last, 6);
  EXPECT_GE(rank0, 4);
  EXPECT_GE(rank16, 3);
  EXPECT_GE(size0, 5);
  EXPECT_GE(huge_beside_zero, 3);
  EXPECT_GE(clone_dim_order, 8);
  EXPECT_GE(squeeze_single, 3);
  EXPECT_GE(squeeze_list, 3);
  EXPECT_GE(view_minus_one, 4);
}

// The layouts the seeds' comments state, as the judge computes them.
TEST(Seeds, ViewOpSeedsStateTheJudgesLayouts) {
  struct Claim {
    const char* file;
    const char* value;
    std::vector<int64_t> sizes;
    std::vector<int> dim_order;
  };
  const Claim claims[] = {
      {"select_channels_last_outer_n", "y", {3, 4, 5}, {1, 2, 0}},
      {"select_channels_last_inner_c_copy", "y", {2, 4, 5}, {0, 1, 2}},
      {"squeeze_channels_last_c1", "y", {2, 3, 4}, {0, 1, 2}},
      {"squeeze_channels_last_h1", "y", {2, 3, 4}, {0, 2, 1}},
      {"squeeze_listed_dim_of_size_gt1_stays", "y", {2, 3}, {0, 1}},
      {"unsqueeze_channels_last_dim_order", "a", {2, 1, 3, 4, 5}, {0, 3, 4, 1, 2}},
      {"unsqueeze_channels_last_dim_order", "b", {2, 3, 4, 5, 1}, {0, 2, 3, 1, 4}},
      {"view_minus_one", "y", {2, 12}, {0, 1}},
      {"view_minus_one", "z", {4, 6}, {0, 1}},
      {"clone_dim_order_then_selects", "a", {3, 4}, {0, 1}},
      {"clone_dim_order_then_selects", "b", {3, 5}, {1, 0}},
      {"huge_product_beside_zero", "b", {0, 65537}, {0, 1}},
  };
  for (const Claim& claim : claims) {
    const fs::path p = kViewOpSeeds / (std::string(claim.file) + ".case");
    const ParseResult r = parse_case(read_text(p), p.string());
    ASSERT_TRUE(r.ok) << r.error;
    bool found = false;
    for (const ValueInfo& v : r.info.values) {
      if (v.name != claim.value) continue;
      found = true;
      EXPECT_EQ(v.sizes, claim.sizes) << claim.file << " " << claim.value;
      EXPECT_EQ(v.dim_order, claim.dim_order) << claim.file << " " << claim.value;
    }
    EXPECT_TRUE(found) << claim.file << " " << claim.value;
  }
}

// The seeds of several inputs (inputs_*.case): at least six, over inputs of
// different dtypes and dim orders, with a copy_ between two inputs, aliases of
// each input of a program, and a copy_ between dtypes that must fail at that op.
TEST(Seeds, SeveralInputSeedsCoverDtypesOrdersCopiesAndAliases) {
  int seeds = 0, several_dtypes = 0, several_orders = 0, copy_between_inputs = 0,
      dtype_copy_fails = 0, alias_of_each = 0;
  for (const fs::path& p : cases_under(kViewOpSeeds)) {
    if (p.filename().string().rfind("inputs_", 0) != 0) continue;
    ++seeds;
    const ParseResult r = parse_case(read_text(p), p.string());
    ASSERT_TRUE(r.ok) << r.error;
    const Case& c = r.c;
    std::set<ScalarType> dtypes;
    std::set<std::vector<int>> orders;
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      dtypes.insert(c.input_dtype(k));
      orders.insert(c.inputs[k].effective_dim_order());
    }
    several_dtypes += dtypes.size() > 1;
    several_orders += c.inputs.size() > 1 && orders.size() > 1;
    std::set<std::string> viewed;  // inputs a view-copy op reads directly
    for (size_t k = 0; k < c.ops.size(); ++k) {
      const Op& op = c.ops[k];
      copy_between_inputs += op.kind == OpKind::Copy && c.is_input(op.src) && c.is_input(op.target) &&
                             static_cast<int>(k) != r.info.failing_op;
      if (op_is_view_copy(op.kind) && c.is_input(op.src)) viewed.insert(op.src);
    }
    alias_of_each += c.inputs.size() > 2 && viewed.size() == c.inputs.size();
    dtype_copy_fails += r.info.failing_op >= 0 && r.info.failing_reason.find("dtypes differ") != std::string::npos;
  }
  EXPECT_GE(seeds, 6);
  EXPECT_GE(several_dtypes, 3);
  EXPECT_GE(several_orders, 2);
  EXPECT_GE(copy_between_inputs, 1);
  EXPECT_GE(alias_of_each, 1);
  EXPECT_GE(dtype_copy_fails, 1);
}

}  // namespace
}  // namespace slicefuzz
