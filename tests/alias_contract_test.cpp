// The alias contract (harness/run/alias_contract.h) for aliases of every kind,
// on aliases built by hand the way et_select / et_view must build them, and the
// ways the faulty backends get them wrong (a select offset from an
// unnormalised negative index, an unsqueeze dim put at the wrong place in the
// dim order, strides that are not the layout's). torch's views come from the
// torch oracle; no kernel of the system under test runs.
#include <gtest/gtest.h>

#include "harness/run/alias_contract.h"
#include "kernels/tensor.h"
#include "oracles/oracle.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

struct Fixture {
  ParseResult p;
  TorchOracleResult torch;
  std::vector<uint8_t> bytes;
  Tensor in;
};

Tensor meta(ScalarType dtype, const std::vector<int64_t>& sizes, const std::vector<int>& order) {
  Tensor t;
  uint8_t o[kMaxRank] = {};
  for (size_t i = 0; i < order.size(); ++i) o[i] = static_cast<uint8_t>(order[i]);
  EXPECT_TRUE(make_tensor_meta(dtype, static_cast<int>(sizes.size()), sizes.data(), o, t));
  return t;
}

// The case `body` (one view-copy op at op 0 over the input x), run in torch.
Fixture fixture(const std::string& body) {
  Fixture f;
  f.p = parse_case("slicefuzz-case 2\ndtype float32\n" + body);
  EXPECT_TRUE(f.p.ok) << f.p.error;
  f.torch = run_torch_oracle(f.p.c, f.p.info);
  EXPECT_FALSE(f.torch.op_views.empty());
  const ValueInfo& x = f.p.info.values[0];
  f.in = meta(x.dtype, x.sizes, x.dim_order);
  f.bytes.resize(f.in.nbytes());
  f.in.data = f.bytes.data();
  f.in.capacity_nbytes = f.in.nbytes();
  return f;
}

// An alias of the result's layout at `offset_bytes` into the input.
Tensor alias(const Fixture& f, int64_t offset_bytes, std::vector<int> order = {}) {
  const ValueInfo& y = f.p.info.values[f.p.info.ops[0].result];
  Tensor out = meta(y.dtype, y.sizes, order.empty() ? y.dim_order : order);
  // (Computed as an integer: an alias before the input is the point of some tests.)
  out.data = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(f.bytes.data()) + offset_bytes);
  out.capacity_nbytes = out.nbytes();
  return out;
}

std::string violation(const Fixture& f, const Tensor& out) {
  const ValueInfo& y = f.p.info.values[f.p.info.ops[0].result];
  return alias_contract_violation("et_x", f.in, out, f.torch.op_views[0], y.dim_order);
}

TEST(AliasContract, SelectOfAChannelsLastBatch) {
  Fixture f = fixture("input x [2, 3, 4, 5] dim_order=[0, 2, 3, 1]\n"
                      "a = select_copy(x, dim=0, index=-1)\nb = clone(a)\noutput b\n");
  ASSERT_TRUE(f.torch.op_views[0].dense);
  EXPECT_EQ(f.torch.op_views[0].storage_offset, 60);
  EXPECT_EQ(violation(f, alias(f, 60 * 4)), "");
  // The index taken as written (-1): 60 elements before the input.
  EXPECT_NE(violation(f, alias(f, -60 * 4)).find("leaves the input"), std::string::npos);
  // Inside the input but at the wrong batch.
  EXPECT_NE(violation(f, alias(f, 0)).find("torch's view at storage offset 60"), std::string::npos);
  // The result's order is [1, 2, 0] (channels-last without the batch), not row-major.
  EXPECT_NE(violation(f, alias(f, 60 * 4, {0, 1, 2})).find("dim order"), std::string::npos);
}

TEST(AliasContract, UnsqueezeKeepsTheBytesAndPlacesTheNewDim) {
  Fixture f = fixture("input x [2, 3, 4, 5] dim_order=[0, 2, 3, 1]\n"
                      "a = unsqueeze_copy(x, dim=1)\nb = clone(a)\noutput b\n");
  ASSERT_TRUE(f.torch.op_views[0].dense);
  EXPECT_EQ(violation(f, alias(f, 0)), "");
  // The new dim innermost instead of just outside dim 2: same bytes, but not the
  // dim order the result must have.
  EXPECT_NE(violation(f, alias(f, 0, {0, 3, 4, 2, 1})).find("dim order"), std::string::npos);
  // Strides that are not the layout's.
  Tensor out = alias(f, 0);
  out.strides[3] = 1;
  EXPECT_NE(violation(f, out).find("strides"), std::string::npos);
}

TEST(AliasContract, ViewOfARowMajorSqueeze) {
  Fixture f = fixture("input x [4, 1, 6]\na = squeeze_copy(x, dims=[1])\nb = clone(a)\noutput b\n");
  EXPECT_EQ(violation(f, alias(f, 0)), "");
  EXPECT_NE(violation(f, alias(f, 4)).find("leaves the input"), std::string::npos);
}

TEST(AliasContract, EmptyAliasesHaveNoOffsetButStayInside) {
  Fixture f = fixture("input x [3, 0]\na = select_copy(x, dim=0, index=2)\nb = clone(a)\noutput b\n");
  EXPECT_EQ(violation(f, alias(f, 0)), "");
  EXPECT_NE(violation(f, alias(f, 8)).find("leaves the input"), std::string::npos);
}

}  // namespace
}  // namespace slicefuzz
