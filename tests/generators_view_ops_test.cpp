// genViewOpsCase's contract (view_ops_gen.h): every case is well formed and
// round-trips, the view-copy ops appear in the mixes the brief asks for (dense
// and not, chains of mixed kinds, writes through aliases, outputs with several
// users, layout changes), the deliberately invalid ops and the huge-beside-zero
// inputs appear at their documented rates, and shrinking ends at simple cases.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>

#include "generators/case_gen.h"
#include "generators/generate.h"
#include "generators/invalid_ops.h"
#include "generators/view_op_plans.h"
#include "generators/view_ops_gen.h"
#include "oracles/judge_facts.h"
#include "oracles/judge_layouts.h"
#include "tests/generators_contract.h"

namespace slicefuzz {
namespace {

using gen::InvalidKind;

Case view_ops_case(uint64_t seed, uint64_t index) {
  return genViewOpsCase()(rc::Random(rc::Random::Key{seed, index, 1, 0}),
                          static_cast<int>(index % 100))
      .value();
}

RC_GTEST_PROP(ViewOpsGen, EveryCaseIsWellFormedAndRoundTrips, ()) {
  const Case c = *genViewOpsCase();
  const std::string why = well_formed_violation(c);
  if (!why.empty()) RC_FAIL(why + "\n" + print_case(c));
  RC_ASSERT(!c.ops.empty() && c.ops.size() <= kMaxGeneratedOps);
  RC_ASSERT(c.version == c.min_version());
}

judge::Layout layout(const ValueInfo& v) { return judge::Layout{v.sizes, v.dim_order}; }

// Which error rule a failing op breaks, from its arguments (not the judge's words).
InvalidKind classify_failure(const Op& op, const ProgramInfo& info, const OpInfo& oi) {
  const judge::Layout in = layout(info.values[oi.src]);
  const int rank = static_cast<int>(in.sizes.size());
  switch (op.kind) {
    case OpKind::SelectCopy:
      return rank == 0 || judge::dim_index(rank, op.dim) < 0 ? InvalidKind::SelectDim
                                                              : InvalidKind::SelectIndex;
    case OpKind::SqueezeCopy:
      for (int64_t d : op.ints)
        if (judge::dim_index(std::max(rank, 1), d) < 0) return InvalidKind::SqueezeDim;
      return InvalidKind::SqueezeRepeated;
    case OpKind::ViewCopy: {
      const auto minus = std::count(op.ints.begin(), op.ints.end(), -1);
      if (minus > 1) return InvalidKind::ViewTwoMinusOnes;
      for (int64_t s : op.ints)
        if (s < -1) return InvalidKind::ViewNegativeSize;
      if (minus && std::count(op.ints.begin(), op.ints.end(), 0)) return InvalidKind::ViewMinusOneBesideZero;
      return InvalidKind::ViewCountMismatch;
    }
    case OpKind::UnsqueezeCopy: return InvalidKind::UnsqueezeDim;
    case OpKind::SliceCopy:
      return rank == 0 || judge::dim_index(rank, op.dim) < 0 ? InvalidKind::SliceDim
                                                              : InvalidKind::SliceStep;
    case OpKind::Clone: return InvalidKind::CloneOrder;
    default: return InvalidKind::CopySameCount;
  }
}

bool huge_beside_zero(const std::vector<int64_t>& sizes) {
  if (std::count(sizes.begin(), sizes.end(), 0) == 0) return false;
  double product = 1;
  for (int64_t s : sizes) product *= s == 0 ? 1.0 : static_cast<double>(s);
  return product > INT32_MAX;
}

struct Coverage {
  int cases = 0, version2 = 0, failing = 0, huge_input = 0, huge_value = 0, copy_other_count = 0;
  std::map<InvalidKind, int> invalid;
  std::map<OpKind, int> ops, dense, strided;
  int squeeze_single = 0, squeeze_list = 0, view_minus_one = 0, view_plain = 0, clone_order = 0,
      mixed_chain = 0, write_alias = 0, write_alias_of_alias = 0, root_written_alias_read = 0,
      output_several_users = 0, output_alias_with_users = 0, relayout_then_view = 0,
      channels_last_input = 0, rank0 = 0, rank16 = 0;
};

// Per case: what ran (ops before the failing one) and what it exercises.
void measure(const Case& c, Coverage& cov) {
  ProgramInfo info;
  AnalysisError err;
  ASSERT_TRUE(analyze(c, kDefaultByteBudget, info, err)) << err.message << "\n" << print_case(c);
  ++cov.cases;
  cov.version2 += c.version == 2;
  cov.channels_last_input += c.inputs[0].dim_order == std::vector<int>{0, 2, 3, 1};
  cov.rank0 += c.inputs[0].sizes.empty();
  cov.rank16 += c.inputs[0].sizes.size() == 16;
  cov.huge_input += huge_beside_zero(c.inputs[0].sizes);
  bool huge_value = false;
  for (const ValueInfo& v : info.values) huge_value |= v.known && huge_beside_zero(v.sizes);
  cov.huge_value += huge_value;
  const size_t ran = info.failing_op < 0 ? c.ops.size() : static_cast<size_t>(info.failing_op);
  if (info.failing_op >= 0) {
    ++cov.failing;
    const Op& op = c.ops[info.failing_op];
    const OpInfo& oi = info.ops[info.failing_op];
    const InvalidKind kind = classify_failure(op, info, oi);
    ++cov.invalid[kind];
    if (kind == InvalidKind::CopySameCount &&
        gen::numel_saturated(info.values[oi.target].sizes) != gen::numel_saturated(info.values[oi.src].sizes))
      ++cov.copy_other_count;
  }
  // Users of each value (ops that read or write it, outputs) after op `k`.
  auto read_after = [&](int v, size_t k) {
    for (size_t j = k + 1; j < c.ops.size(); ++j)
      if (info.ops[j].src == v || info.ops[j].target == v) return true;
    return std::find(info.outputs.begin(), info.outputs.end(), v) != info.outputs.end();
  };
  auto defined_by_view_copy = [&](int v) {
    const int d = info.values[v].def_op;
    return d >= 0 && op_is_view_copy(c.ops[d].kind);
  };
  auto root_of = [&](int v) {
    while (defined_by_view_copy(v)) v = info.ops[info.values[v].def_op].src;
    return v;
  };
  std::vector<int> users(info.values.size(), 0);
  for (size_t k = 0; k < c.ops.size(); ++k) {
    const Op& op = c.ops[k];
    const OpInfo& oi = info.ops[k];
    ++cov.ops[op.kind];
    if (oi.src >= 0) ++users[oi.src];
    if (oi.target >= 0) ++users[oi.target];
    if (k >= ran) continue;
    cov.squeeze_single += op.kind == OpKind::SqueezeCopy && op.single_dim;
    cov.squeeze_list += op.kind == OpKind::SqueezeCopy && !op.single_dim;
    if (op.kind == OpKind::ViewCopy)
      (std::count(op.ints.begin(), op.ints.end(), -1) ? cov.view_minus_one : cov.view_plain)++;
    cov.clone_order += op.kind == OpKind::Clone && op.dim_order.has_value();
    if (op_is_view_copy(op.kind)) {
      const ValueInfo& src = info.values[oi.src];
      const judge::StridedView whole{src.sizes, judge::strides_for(src.sizes, src.dim_order), 0};
      const auto view = judge::op_view(op, whole);
      const bool dense = view && judge::view_is_dense(*view, info.values[oi.result].dim_order);
      ++(dense ? cov.dense : cov.strided)[op.kind];
      if (defined_by_view_copy(oi.src) && c.ops[src.def_op].kind != op.kind) ++cov.mixed_chain;
      const int d = src.def_op;
      if (d >= 0 && c.ops[d].kind == OpKind::Clone && c.ops[d].dim_order &&
          (op.kind == OpKind::SliceCopy || op.kind == OpKind::SelectCopy))
        ++cov.relayout_then_view;
    }
    if (oi.target >= 0) {
      const bool alias = defined_by_view_copy(oi.target);
      cov.write_alias += alias;
      cov.write_alias_of_alias += alias && defined_by_view_copy(info.ops[info.values[oi.target].def_op].src);
      // The root written while an alias of an alias of it is still to be read.
      bool hazard = false;
      for (size_t v = 0; v < info.values.size(); ++v) {
        const int def = info.values[v].def_op;
        if (def < 0 || static_cast<size_t>(def) >= k || !defined_by_view_copy(static_cast<int>(v)) ||
            !defined_by_view_copy(info.ops[def].src))
          continue;
        hazard |= root_of(static_cast<int>(v)) == oi.target && read_after(static_cast<int>(v), k);
      }
      cov.root_written_alias_read += hazard;
    }
  }
  bool several = false, alias_users = false;
  for (int o : info.outputs) {
    several |= users[o] >= 2;
    alias_users |= defined_by_view_copy(o) && users[o] >= 1;
  }
  cov.output_several_users += several;
  cov.output_alias_with_users += alias_users;
}

constexpr int kCases = 8000;

TEST(ViewOpsGen, DistributionAndBlindSpotRates) {
  Coverage cov;
  for (uint64_t i = 0; i < kCases; ++i) measure(view_ops_case(2026, i), cov);
  std::printf("%d cases: version 2 %d, failing %d (%.2f%%, documented %d%%), huge beside 0: input %d "
              "(%.2f%%, documented %d%%), any value %d\n",
              cov.cases, cov.version2, cov.failing, 100.0 * cov.failing / cov.cases,
              kInvalidOpCasePercent, cov.huge_input, 100.0 * cov.huge_input / cov.cases,
              kHugeBesideZeroPercent, cov.huge_value);
  for (size_t k = 0; k < gen::kNumInvalidKinds; ++k)
    std::printf("  invalid %-20s %d\n", gen::invalid_kind_name(static_cast<InvalidKind>(k)),
                cov.invalid[static_cast<InvalidKind>(k)]);
  std::printf("  (copy_ failures between different counts: %d)\n", cov.copy_other_count);
  for (const auto& [kind, n] : cov.ops)
    std::printf("  %-15s %5d ops, ran: dense %d, not dense %d\n", op_kind_name(kind), n,
                cov.dense[kind], cov.strided[kind]);
  std::printf("  squeeze dim= %d, dims=[] %d; view with -1 %d, without %d; clone(dim_order) %d;\n"
              "  mixed-kind chain links %d; clone(dim_order) then slice/select %d;\n"
              "  cases writing an alias candidate %d, an alias of an alias %d, the root while an "
              "alias of an alias is read %d;\n"
              "  output with >= 2 users %d, alias candidate output with users %d; "
              "channels-last input %d, rank 0 %d, rank 16 %d\n",
              cov.squeeze_single, cov.squeeze_list, cov.view_minus_one, cov.view_plain,
              cov.clone_order, cov.mixed_chain, cov.relayout_then_view, cov.write_alias,
              cov.write_alias_of_alias, cov.root_written_alias_read, cov.output_several_users,
              cov.output_alias_with_users, cov.channels_last_input, cov.rank0, cov.rank16);

  // Rates: expected count +- about 5 standard deviations.
  const double bad = kCases * kInvalidOpCasePercent / 100.0;
  EXPECT_GE(cov.failing, bad * 0.65);
  EXPECT_LE(cov.failing, bad * 1.4);
  const double huge = kCases * kHugeBesideZeroPercent / 100.0;
  EXPECT_GE(cov.huge_input, huge * 0.55);
  EXPECT_LE(cov.huge_input, huge * 1.5);
  // Every error rule, each about 1/13 of the failing cases.
  for (size_t k = 0; k < gen::kNumInvalidKinds; ++k)
    EXPECT_GE(cov.invalid[static_cast<InvalidKind>(k)], 5)
        << gen::invalid_kind_name(static_cast<InvalidKind>(k));
  // copy_ between different sizes of the same element count, the rule's point.
  EXPECT_GE(cov.invalid[InvalidKind::CopySameCount] - cov.copy_other_count, 5);
  EXPECT_GE(cov.version2, kCases * 8 / 10);
  for (OpKind k : {OpKind::SliceCopy, OpKind::SelectCopy, OpKind::SqueezeCopy,
                   OpKind::UnsqueezeCopy, OpKind::ViewCopy}) {
    EXPECT_GE(cov.ops[k], kCases / 4) << op_kind_name(k);
    EXPECT_GE(cov.dense[k], kCases / 20) << op_kind_name(k);
  }
  // Squeeze and unsqueeze are always dense; the others often are not.
  EXPECT_EQ(cov.strided[OpKind::SqueezeCopy], 0);
  EXPECT_EQ(cov.strided[OpKind::UnsqueezeCopy], 0);
  for (OpKind k : {OpKind::SliceCopy, OpKind::SelectCopy, OpKind::ViewCopy})
    EXPECT_GE(cov.strided[k], kCases / 40) << op_kind_name(k);
  EXPECT_GE(cov.ops[OpKind::Add], kCases / 5);
  EXPECT_GE(cov.ops[OpKind::Copy], kCases / 10);
  EXPECT_GE(cov.squeeze_single, kCases / 20);
  EXPECT_GE(cov.squeeze_list, kCases / 10);
  EXPECT_GE(cov.view_minus_one, kCases / 20);
  EXPECT_GE(cov.view_plain, kCases / 10);
  EXPECT_GE(cov.clone_order, kCases / 5);
  EXPECT_GE(cov.mixed_chain, kCases / 4);
  EXPECT_GE(cov.relayout_then_view, kCases / 20);
  EXPECT_GE(cov.write_alias, kCases / 10);
  EXPECT_GE(cov.write_alias_of_alias, kCases / 40);
  EXPECT_GE(cov.root_written_alias_read, kCases / 80);
  EXPECT_GE(cov.output_several_users, kCases / 10);
  EXPECT_GE(cov.output_alias_with_users, kCases / 20);
  EXPECT_GE(cov.channels_last_input, kCases / 100);
  EXPECT_GE(cov.rank0, kCases / 200);
  EXPECT_GE(cov.rank16, kCases / 400);
}

TEST(GenerateCase, MixesTheViewOpsGeneratorWithVersionOne) {
  int version2 = 0, cases = 2000;
  for (uint64_t i = 0; i < static_cast<uint64_t>(cases); ++i) {
    const Case c = generate_case(11, i, false, 2);
    ASSERT_EQ(well_formed_violation(c), "") << print_case(c);
    version2 += c.version == 2;
  }
  std::printf("generate_case: %d of %d cases are version 2\n", version2, cases);
  // 70% routed to genViewOpsCase, most of whose cases hold a version-2 op.
  EXPECT_GE(version2, cases * 50 / 100);
  EXPECT_LE(version2, cases * 75 / 100);
}

// Version 3: a share of the version-2 cases get the ops since the op schema
// inserted (schema_ops_gen.h); every other case is the version-2 case itself.
TEST(GenerateCase, Version3AddsSchemaOpsToAShareOfTheVersion2Cases) {
  int with_schema_ops = 0, version2 = 0;
  const int cases = 1500;
  for (uint64_t i = 0; i < static_cast<uint64_t>(cases); ++i) {
    const Case c2 = generate_case(5, i, false, 2), c3 = generate_case(5, i);
    ASSERT_EQ(well_formed_violation(c3), "") << print_case(c3);
    version2 += c2.min_version() == 2;
    if (c3 == c2) continue;
    ++with_schema_ops;
    EXPECT_EQ(c3.version, 3) << print_case(c3);
    EXPECT_EQ(c2.min_version(), 2) << "a version-1 case got schema ops";
    bool has = false;
    for (const Op& op : c3.ops) has = has || op_kind_info(op.kind).min_version == 3;
    EXPECT_TRUE(has) << print_case(c3);
  }
  std::printf("generate_case: %d of %d version-2 cases got schema ops\n", with_schema_ops, version2);
  // 40% of them are chosen; an insertion that leaves the case invalid is undone.
  EXPECT_GE(with_schema_ops, version2 * 25 / 100);
  EXPECT_LE(with_schema_ops, version2 * 45 / 100);
}

// A backend that declares no view ops (version 1 only) still gets cases inside
// its limits: generate_case_within retries the view-op programs away.
std::string outside_version1(const Case& c, const ProgramInfo&) {
  return c.version >= 2 ? "version-2 ops" : "";
}

TEST(GenerateCase, WithinLimitsStillSpendsMostCasesInside) {
  int inside = 0;
  const int cases = 1000;
  for (uint64_t i = 0; i < static_cast<uint64_t>(cases); ++i) {
    const Case c = generate_case_within(3, i, &outside_version1);
    ASSERT_EQ(well_formed_violation(c), "") << print_case(c);
    if (i % 10 == 0) EXPECT_EQ(c, generate_case(3, i));  // left as generated: refusals stay tested
    inside += c.version == 1;
  }
  std::printf("generate_case_within (version 1 only): %d of %d inside\n", inside, cases);
  EXPECT_GE(inside, cases * 85 / 100);
}

// Shrinks `s` the way RapidCheck does while `keep` holds.
template <typename T, typename Keep>
T shrink_while(rc::Shrinkable<T> s, Keep keep) {
  for (int step = 0; step < 100000; ++step) {
    bool progressed = false;
    auto shrinks = s.shrinks();
    while (auto next = shrinks.next())
      if (keep(next->value())) {
        s = std::move(*next);
        progressed = true;
        break;
      }
    if (!progressed) break;
  }
  return s.value();
}

TEST(ViewOpsGenShrinking, EndsAtTheSimplestCase) {
  for (uint64_t seed = 0; seed < 10; ++seed) {
    const Case small =
        shrink_while(genViewOpsCase()(rc::Random(seed), 100), [](const Case&) { return true; });
    EXPECT_EQ(print_case(small),
              "slicefuzz-case 1\ndtype float32\ninput x [1]\n"
              "a = slice_copy(x, dim=0, start=None, end=None, step=1)\noutput a\n");
  }
}

bool has(const Case& c, OpKind kind) {
  return std::any_of(c.ops.begin(), c.ops.end(), [&](const Op& op) { return op.kind == kind; });
}

TEST(ViewOpsGenShrinking, KeepsOneOpOfAKindAndDropsEverythingElse) {
  const std::map<OpKind, std::string> simplest = {
      {OpKind::SelectCopy, "a = select_copy(x, dim=0, index=0)"},
      {OpKind::UnsqueezeCopy, "a = unsqueeze_copy(x, dim=0)"},
      {OpKind::ViewCopy, "a = view_copy(x, sizes=[1])"},
  };
  for (const auto& [kind, line] : simplest) {
    int tried = 0;
    for (uint64_t seed = 0; tried < 3 && seed < 300; ++seed) {
      const auto s = genViewOpsCase()(rc::Random(seed), 100);
      if (!has(s.value(), kind)) continue;
      ++tried;
      const Case small = shrink_while(s, [kind = kind](const Case& c) { return has(c, kind); });
      EXPECT_EQ(print_case(small), "slicefuzz-case 2\ndtype float32\ninput x [1]\n" + line +
                                       "\noutput a\n");
    }
    EXPECT_EQ(tried, 3) << op_kind_name(kind);
  }
}

TEST(ViewOpsGenShrinking, KeepsAFailingOpAsTheOnlyOp) {
  auto fails = [](const Case& c) {
    ProgramInfo info;
    AnalysisError err;
    return analyze(c, kDefaultByteBudget, info, err) && info.failing_op >= 0;
  };
  int tried = 0;
  for (uint64_t seed = 0; tried < 5 && seed < 3000; ++seed) {
    const auto s = genViewOpsCase()(rc::Random(seed), 100);
    if (!fails(s.value())) continue;
    ++tried;
    const Case small = shrink_while(s, fails);
    ASSERT_EQ(small.ops.size(), 1u) << print_case(small);
    EXPECT_LE(small.inputs[0].sizes.size(), 1u) << print_case(small);
  }
  EXPECT_EQ(tried, 5);
}

}  // namespace
}  // namespace slicefuzz
