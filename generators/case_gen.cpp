#include "generators/gen_weights.h"
#include "generators/case_gen.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "generators/gen_choices.h"
#include "generators/slice_plan.h"
#include "oracles/judge_facts.h"

namespace slicefuzz {

using namespace gen;  // the choice helpers and slice plans

namespace {

constexpr int kInvalidSlicePercent = 5;

enum OpChoice : size_t { kSliceOp, kCloneOp, kAddOp, kCopyOp };

struct OpPlan {
  size_t kind = kSliceOp;
  uint64_t source = 0;   // how many values back from the latest (mod the count)
  uint64_t partner = 0;  // copy_: which equal-sized value to copy from
  SlicePlan slice;
  int64_t scalar = 1;  // add_
};

rc::Gen<OpPlan> genOpPlan() {
  // Often the latest value (chains of slices), otherwise any earlier one.
  auto source =
      genWeighted<uint64_t>({{weights::kV1Source[0], rc::gen::just(uint64_t{0})},
                             {weights::kV1Source[1], genBelow(kPickRange)}});
  return rc::gen::map(
      rc::gen::tuple(genWeightedIndex(weights::kV1OpKind), source, genBelow(kPickRange),
                     genSlicePlan(kInvalidSlicePercent), genAddScalar()),
      [](const std::tuple<size_t, uint64_t, uint64_t, SlicePlan, int64_t>& t) {
        return OpPlan{std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t),
                      std::get<4>(t)};
      });
}

struct OutputPlan {
  bool last_only = true;
  std::vector<uint64_t> picks;  // otherwise these values (mod the count)
};

rc::Gen<OutputPlan> genOutputPlan() {
  return rc::gen::map(
      rc::gen::pair(genWeightedIndex(weights::kV1Outputs),
                    rc::gen::container<std::vector<uint64_t>>(3, genBelow(kPickRange))),
      [](const std::pair<size_t, std::vector<uint64_t>>& p) {
        return OutputPlan{p.first == 0, p.second};
      });
}

std::vector<size_t> partners_of(const std::vector<std::vector<int64_t>>& shapes, size_t j) {
  std::vector<size_t> out;
  for (size_t i = 0; i < shapes.size(); ++i)
    if (i != j && shapes[i] == shapes[j]) out.push_back(i);
  return out;
}

// Turns plans into a concrete case. Unused Op fields keep their defaults, exactly
// as the parser leaves them, so that parse(print(c)) == c.
Case realize_case(ScalarType dtype, std::vector<int64_t> sizes, std::vector<int> dim_order,
                  const std::vector<OpPlan>& plans, const OutputPlan& outputs) {
  Case c;
  c.dtype = dtype;
  c.inputs[0].sizes = std::move(sizes);
  c.inputs[0].dim_order = std::move(dim_order);
  std::vector<std::string> names{c.inputs[0].name};
  std::vector<std::vector<int64_t>> shapes{c.inputs[0].sizes};
  for (const OpPlan& p : plans) {
    const size_t n = names.size();
    size_t src = n - 1 - p.source % n;
    size_t kind = p.kind;
    if (kind == kCopyOp) {
      // copy_ needs two values of equal sizes: its target is picked among the
      // values that have such a partner. With none yet, a clone makes one.
      std::vector<size_t> targets;
      for (size_t j = 0; j < n; ++j)
        if (!partners_of(shapes, j).empty()) targets.push_back(j);
      if (targets.empty())
        kind = kCloneOp;
      else
        src = targets[targets.size() - 1 - p.source % targets.size()];
    }

    Op op;
    switch (kind) {
      case kSliceOp: {
        const SliceArgs a = realize_slice(p.slice, shapes[src]);
        op = slice_op(generated_value_name(n - 1), names[src], a);
        shapes.push_back(slice_result_sizes(shapes[src], a));
        break;
      }
      case kCloneOp:
        op.kind = OpKind::Clone;
        op.result = generated_value_name(n - 1);
        op.src = names[src];
        shapes.push_back(shapes[src]);
        break;
      case kAddOp:
        op.kind = OpKind::Add;
        op.target = names[src];
        op.scalar = p.scalar;
        break;
      default: {
        op.kind = OpKind::Copy;
        op.target = names[src];
        const std::vector<size_t> partners = partners_of(shapes, src);
        op.src = names[partners[p.partner % partners.size()]];
        break;
      }
    }
    if (!op.result.empty()) names.push_back(op.result);
    c.ops.push_back(std::move(op));
  }
  if (outputs.last_only) {
    c.outputs = {names.back()};
  } else {
    std::vector<bool> chosen(names.size(), false);
    for (uint64_t k : outputs.picks) chosen[k % names.size()] = true;
    for (size_t i = 0; i < names.size(); ++i)
      if (chosen[i]) c.outputs.push_back(names[i]);
  }
  return c;
}

// ---------------------------------------------------------------------------
// Shapes.

// The next smaller size on the ladder 13, 11, 7, 5, 3, 2, 1 (sizes above 13 go to 13).
int64_t next_smaller_size(int64_t s) {
  const int64_t ladder[] = {13, 11, 7, 5, 3, 2, 1};
  for (int64_t v : ladder)
    if (v < s) return v;
  return 1;
}

// Shrinks the largest sizes until the element count (size-0 dims counted as 1,
// so that emptiness does not hide a huge shape) is at most `cap`.
std::vector<int64_t> cap_elements(std::vector<int64_t> sizes, int64_t cap) {
  auto over = [&] {
    int64_t n = 1;
    for (int64_t s : sizes)
      if ((n *= std::max<int64_t>(s, 1)) > cap) return true;  // n <= cap * 32: no overflow
    return false;
  };
  while (over()) {
    auto largest = std::max_element(sizes.begin(), sizes.end());
    *largest = next_smaller_size(*largest);
  }
  return sizes;
}

rc::Gen<int64_t> genDimSize() {
  using rc::gen::just;
  return genWeighted<int64_t>(
      {{22, just(int64_t{1})},
       {14, just(int64_t{2})},
       {1, just(int64_t{0})},
       {12, just(int64_t{3})},
       {10, just(int64_t{5})},
       {8, just(int64_t{7})},
       {5, just(int64_t{11})},
       {5, just(int64_t{13})},
       {12, rc::gen::map(genBelow(29), [](uint64_t v) { return static_cast<int64_t>(v) + 4; })}});
}

// `order` with its non-size-1 dims put back into increasing order in the slots
// they occupy: strides of every dim of size > 1 are then the identity's.
std::vector<int> move_only_size1_dims(std::vector<int> order, const std::vector<int64_t>& sizes) {
  std::vector<size_t> slots;
  std::vector<int> dims;
  for (size_t i = 0; i < order.size(); ++i)
    if (sizes[order[i]] != 1) {
      slots.push_back(i);
      dims.push_back(order[i]);
    }
  std::sort(dims.begin(), dims.end());
  for (size_t i = 0; i < slots.size(); ++i) order[slots[i]] = dims[i];
  return order;
}

std::vector<int> canonical_dim_order(std::vector<int> order) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int>(i)) return order;
  return {};
}

}  // namespace

std::string generated_value_name(size_t n) {
  return n < 23 ? std::string(1, static_cast<char>('a' + n)) : "t" + std::to_string(n);
}

rc::Gen<ScalarType> genDtype() {
  using S = ScalarType;
  const std::vector<S> types = {S::Float, S::Double, S::Half, S::BFloat16, S::Long,
                                S::Int,   S::Short,  S::Char, S::Byte,     S::Bool};
  return rc::gen::map(genWeightedIndex(weights::kDtype),
                      [types](size_t i) { return types[i]; });
}

rc::Gen<int> genRank() {
  auto from = [](int first, uint64_t count) {
    return rc::gen::map(genBelow(count),
                        [first](uint64_t v) { return first + static_cast<int>(v); });
  };
  return genWeighted<int>({{90, from(1, 6)}, {7, from(7, 10)}, {3, rc::gen::just(0)}});
}

rc::Gen<std::vector<int64_t>> genSizes(int rank) {
  return rc::gen::withSize([rank](int size) {
    const int64_t cap = kMinInputElements + kInputElementsPerSize * std::clamp(size, 0, 100);
    return rc::gen::map(
        rc::gen::container<std::vector<int64_t>>(static_cast<size_t>(rank), genDimSize()),
        [cap](std::vector<int64_t> sizes) { return cap_elements(std::move(sizes), cap); });
  });
}

rc::Gen<std::vector<int>> genDimOrder(const std::vector<int64_t>& sizes) {
  using Order = std::vector<int>;
  const size_t rank = sizes.size();
  std::vector<std::pair<size_t, rc::Gen<Order>>> options{{40, rc::gen::just(Order{})}};
  if (rank == 4) options.push_back({20, rc::gen::just(Order{0, 2, 3, 1})});     // channels-last
  if (rank == 5) options.push_back({20, rc::gen::just(Order{0, 2, 3, 4, 1})});  // channels-last-3d
  if (rank >= 2) {
    auto keys = rc::gen::container<std::vector<uint64_t>>(rank, genBelow(4 * rank));
    options.push_back({25, rc::gen::map(keys, argsort)});
    if (std::count(sizes.begin(), sizes.end(), 1) > 0)
      options.push_back({15, rc::gen::map(keys, [sizes](const std::vector<uint64_t>& k) {
                           return move_only_size1_dims(argsort(k), sizes);
                         })});
  }
  return rc::gen::map(genWeighted(std::move(options)), canonical_dim_order);
}

rc::Gen<SliceArgs> genSliceArgs(const std::vector<int64_t>& sizes, int invalid_percent) {
  return rc::gen::map(genSlicePlan(invalid_percent),
                      [sizes](const SlicePlan& plan) { return realize_slice(plan, sizes); });
}

rc::Gen<Case> genCase() {
  return rc::gen::exec([] {
    // exec shrinks its picks in order and never returns to an earlier one, so the
    // shape-independent op chain comes first: it shrinks (fewer ops) while the
    // input is still the one that failed, then the input shrinks under it.
    const auto ops = *genNonEmptyList(kMaxGeneratedOps, genOpPlan());
    const auto outputs = *genOutputPlan();
    const ScalarType dtype = *genDtype();
    const int rank = *genRank();
    auto sizes = *genSizes(rank);
    auto order = *genDimOrder(sizes);
    return realize_case(dtype, std::move(sizes), std::move(order), ops, outputs);
  });
}

rc::Gen<Case> genSingleSliceCase(int invalid_percent) {
  return rc::gen::exec([invalid_percent] {
    OpPlan slice;
    slice.slice = *genSlicePlan(invalid_percent);
    const ScalarType dtype = *genDtype();
    const int rank = *genRank();
    auto sizes = *genSizes(rank);
    auto order = *genDimOrder(sizes);
    return realize_case(dtype, std::move(sizes), std::move(order), {slice}, OutputPlan{});
  });
}

}  // namespace slicefuzz
