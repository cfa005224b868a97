// Cases of several inputs in the generators and the mutator: genViewOpsCase
// makes them at its documented rate (view_ops_gen.h kSeveralInputsPercent) with
// inputs of different dtypes and dim orders, ops reading any of them, copy_
// between inputs of one dtype, and copy_ between dtypes that must fail; the
// mutator adds and drops inputs and changes an input's dtype, keeping every
// case well formed.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>

#include "generators/generate.h"
#include "generators/mutator.h"
#include "generators/view_ops_gen.h"
#include "tests/generators_contract.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

constexpr uint64_t kCases = 6000;

Case view_ops_case(uint64_t seed, uint64_t index) {
  return genViewOpsCase()(rc::Random(rc::Random::Key{seed, index, 1, 0}),
                          static_cast<int>(index % 100))
      .value();
}

struct Coverage {
  int several = 0, three = 0, other_dtype = 0, other_order = 0, reads_later_input = 0;
  int copy_between_inputs = 0, failing_dtype_copy = 0, same_sizes_as_x = 0;
};

void measure(const Case& c, Coverage& cov) {
  if (c.inputs.size() < 2) return;
  ++cov.several;
  cov.three += c.inputs.size() == 3;
  std::set<ScalarType> dtypes;
  bool order = false, same_sizes = false;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    dtypes.insert(c.input_dtype(k));
    if (k > 0) order |= !c.inputs[k].dim_order.empty();
    if (k > 0) same_sizes |= c.inputs[k].sizes == c.inputs[0].sizes;
  }
  cov.other_dtype += dtypes.size() > 1;
  cov.other_order += order;
  cov.same_sizes_as_x += same_sizes;
  bool reads = false, between = false;
  for (const Op& op : c.ops) {
    for (size_t k = 1; k < c.inputs.size(); ++k)
      reads |= op.src == c.inputs[k].name || op.target == c.inputs[k].name;
    between |= op.kind == OpKind::Copy && c.is_input(op.src) && c.is_input(op.target);
  }
  cov.reads_later_input += reads;
  cov.copy_between_inputs += between;
  const ParseResult r = parse_case(print_case(c), "generated.case");
  if (r.ok && r.info.failing_op >= 0 && r.info.failing_reason.find("dtypes differ") != std::string::npos)
    ++cov.failing_dtype_copy;
}

TEST(SeveralInputsGen, DocumentedRateAndTheMixesItPromises) {
  Coverage cov;
  for (uint64_t i = 0; i < kCases; ++i) {
    const Case c = view_ops_case(4242, i);
    ASSERT_EQ(well_formed_violation(c), "") << print_case(c);
    if (c.inputs.size() > 1) {
      EXPECT_EQ(c.version, 2);
      EXPECT_LE(c.inputs.size(), 3u);
    }
    measure(c, cov);
  }
  std::printf("%llu view-op cases: %d of several inputs (%.2f%%, documented %d%%), 3 inputs %d; "
              "several dtypes %d, an extra input in another dim order %d, an extra input of x's "
              "sizes %d; an op reading a later input %d; copy_ between inputs %d; failing copy_ "
              "between dtypes %d\n",
              static_cast<unsigned long long>(kCases), cov.several, 100.0 * cov.several / kCases,
              kSeveralInputsPercent, cov.three, cov.other_dtype, cov.other_order, cov.same_sizes_as_x,
              cov.reads_later_input, cov.copy_between_inputs, cov.failing_dtype_copy);
  const double want = kCases * kSeveralInputsPercent / 100.0;  // +- about 5 standard deviations
  EXPECT_GE(cov.several, want * 0.7);
  EXPECT_LE(cov.several, want * 1.3);
  EXPECT_GE(cov.three, cov.several / 3);
  EXPECT_LE(cov.three, cov.several * 2 / 3);
  EXPECT_GE(cov.other_dtype, cov.several * 6 / 10);
  EXPECT_GE(cov.other_order, cov.several / 4);
  EXPECT_GE(cov.same_sizes_as_x, cov.several / 2);
  EXPECT_GE(cov.reads_later_input, cov.several / 2);
  EXPECT_GE(cov.copy_between_inputs, cov.several / 8);
  EXPECT_GE(cov.failing_dtype_copy, 1);
}

TEST(SeveralInputsGen, GenerateCaseMixesThemIn) {
  int several = 0;
  for (uint64_t i = 0; i < 3000; ++i) several += generate_case(9, i).inputs.size() > 1;
  // 70% of cases are view-op programs (generate.cpp), kSeveralInputsPercent of those.
  EXPECT_GE(several, 3000 * 70 * kSeveralInputsPercent / 10000 * 6 / 10);
  EXPECT_LE(several, 3000 * 70 * kSeveralInputsPercent / 10000 * 14 / 10);
  for (uint64_t i = 0; i < 300; ++i) EXPECT_EQ(generate_case(9, i, /*eager=*/true).inputs.size(), 1u);
}

const CaseMutator& mutator(const std::string& name) {
  for (const CaseMutator& m : case_mutators())
    if (name == m.name) return m;
  ADD_FAILURE() << "no mutator " << name;
  return case_mutators()[0];
}

TEST(SeveralInputsMutator, AddsAndDropsInputsAndChangesTheirDtypes) {
  std::mt19937_64 rng(7);
  int added = 0, dropped = 0, own_dtype = 0, read = 0;
  for (uint64_t i = 0; i < 300; ++i) {
    Case c = generate_case(5, i);
    repair_case(c, kFuzzByteBudget, kFuzzMaxOps);
    const size_t before = c.inputs.size();
    Case a = c;
    if (apply_mutator(mutator("AddOrDropInput"), a, rng)) {
      ASSERT_EQ(well_formed_violation(a, kFuzzByteBudget), "") << print_case(a);
      ASSERT_LE(a.inputs.size(), kFuzzMaxInputs);
      added += a.inputs.size() > before;
      dropped += a.inputs.size() < before;
      if (a.inputs.size() > before)
        for (const Op& op : a.ops) read += op.src == a.inputs.back().name || op.target == a.inputs.back().name;
    }
    Case d = c;
    if (apply_mutator(mutator("ChangeInputDtype"), d, rng)) {
      ASSERT_EQ(well_formed_violation(d, kFuzzByteBudget), "") << print_case(d);
      for (const InputDecl& in : d.inputs) own_dtype += in.dtype.has_value();
    }
  }
  EXPECT_GE(added, 200);
  EXPECT_GE(dropped, 1);
  EXPECT_GE(read, 100);
  EXPECT_GE(own_dtype, 150);
  // Many mutations in a row stay well formed and within kFuzzMaxInputs.
  Case c = generate_case(5, 1);
  for (int step = 0; step < 2000; ++step) {
    mutate_case(c, rng);
    ASSERT_EQ(well_formed_violation(c, kFuzzByteBudget), "") << print_case(c);
    ASSERT_LE(c.inputs.size(), kFuzzMaxInputs);
  }
}

}  // namespace
}  // namespace slicefuzz
