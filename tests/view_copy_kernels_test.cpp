// The view-copy kernels (select_copy, squeeze_copy, unsqueeze_copy, view_copy,
// clone(dim_order=)): every dtype, every dim order of small shapes, rank 0 and 16
// edges; every error leaves out untouched (bytes and metadata). Expected results
// and result dim orders are derived here, index by index, not by the kernels'
// utilities.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <tuple>

#include "kernels/kernels.h"
#include "tests/test_tensors.h"

namespace slicefuzz {
namespace {

using namespace slicefuzz::testing;

using IndexMap = std::function<Sizes(const Sizes& out_index)>;

std::vector<Order> all_orders(size_t rank) {
  Order o = identity_order(rank);
  std::vector<Order> v;
  do v.push_back(o);
  while (std::next_permutation(o.begin(), o.end()));
  return v;
}

// Every out element equals the in element `map` names.
std::string check_values(const OwnedTensor& in, const OwnedTensor& out, const IndexMap& map) {
  std::string err;
  const size_t es = element_size(in.t.dtype);
  for_each_index(out.sizes(), [&](const Sizes& idx) {
    if (!err.empty()) return;
    const Sizes src = map(idx);
    if (std::memcmp(out.elem(idx), in.elem(src), es) != 0)
      err = "out" + sizes_str(idx) + " != in" + sizes_str(src);
  });
  return err;
}

// A failing kernel leaves out exactly as it was.
void expect_refused(const KernelRuntimeContext& ctx, const OwnedTensor& out, const Tensor& before,
                    const std::string& desc) {
  EXPECT_FALSE(ctx.ok()) << desc;
  EXPECT_FALSE(ctx.message().empty()) << desc;
  EXPECT_TRUE(out.untouched()) << desc << ": wrote into out before refusing";
  EXPECT_EQ(out.t.rank, before.rank) << desc;
  EXPECT_TRUE(std::equal(out.t.sizes, out.t.sizes + kMaxRank, before.sizes)) << desc;
  EXPECT_TRUE(std::equal(out.t.dim_order, out.t.dim_order + kMaxRank, before.dim_order)) << desc;
}

// The result orders, derived from their definitions (judge_layouts.h's words).
Order order_without(const Order& o, const std::vector<int>& removed) {
  Order r;
  for (uint8_t d : o) {
    if (std::find(removed.begin(), removed.end(), d) != removed.end()) continue;
    int below = 0;
    for (int x : removed) below += x < d;
    r.push_back(static_cast<uint8_t>(d - below));
  }
  return r;
}
Order order_unsqueezed(const Order& o, int d) {
  Order r;
  for (uint8_t x : o) {
    if (x == d) r.push_back(static_cast<uint8_t>(d));
    r.push_back(static_cast<uint8_t>(x >= d ? x + 1 : x));
  }
  if (d == static_cast<int>(o.size())) r.push_back(static_cast<uint8_t>(d));
  return r;
}

const std::vector<Sizes> kShapes = {{3}, {2, 3}, {3, 1, 2}, {2, 1, 3, 2}, {0, 2}, {2, 0, 3}, {1, 1}};

// ---- select_copy --------------------------------------------------------------

TEST(SelectCopy, EveryDimIndexOrderAndDtype) {
  for (ScalarType dt : kAllDtypes)
    for (const Sizes& sizes : kShapes)
      for (const Order& order : all_orders(sizes.size()))
        for (int d = 0; d < static_cast<int>(sizes.size()); ++d)
          for (int64_t index = -sizes[d]; index < sizes[d]; ++index) {
            OwnedTensor in(dt, sizes, order);
            in.fill_pattern();
            Sizes rs = sizes;
            rs.erase(rs.begin() + d);
            OwnedTensor out(dt, rs, order_without(order, {d}));
            KernelRuntimeContext ctx;
            const int64_t dim = index % 2 ? d - static_cast<int64_t>(sizes.size()) : d;
            select_copy_int_out(ctx, in.t, dim, index, out.t);
            const std::string desc = slice_desc(in, dim, index, std::nullopt, 1);
            ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
            const int64_t i = index < 0 ? index + sizes[d] : index;
            EXPECT_EQ(check_values(in, out, [&](const Sizes& o) {
                        Sizes s = o;
                        s.insert(s.begin() + d, i);
                        return s;
                      }), "")
                << desc;
          }
}

TEST(SelectCopy, ErrorsLeaveOutUntouched) {
  struct Bad {
    Sizes sizes;
    int64_t dim, index;
  } cases[] = {{{}, 0, 0},      {{2, 3}, 2, 0},         {{2, 3}, -3, 0},        {{2, 3}, 1, 3},
               {{2, 3}, 1, -4}, {{2, 3}, 0, kI64Min},   {{2, 3}, 0, kI64Max},   {{0, 3}, 0, 0},
               {{2, 3}, kI64Min, 0}};
  for (const Bad& b : cases) {
    OwnedTensor in(ScalarType::Float, b.sizes);
    in.fill_pattern();
    Sizes rs = b.sizes;
    if (!rs.empty()) rs.pop_back();
    OwnedTensor out(ScalarType::Float, rs);
    const Tensor before = out.t;
    KernelRuntimeContext ctx;
    select_copy_int_out(ctx, in.t, b.dim, b.index, out.t);
    expect_refused(ctx, out, before, sizes_str(b.sizes) + " dim " + std::to_string(b.dim));
  }
}

TEST(SelectCopy, OutLayoutMismatchIsRefused) {
  OwnedTensor in(ScalarType::Int, {2, 3, 4}, {0, 2, 1});
  in.fill_pattern();
  // Right: select dim 0 -> order (1, 0). Wrong order, wrong rank, wrong dtype:
  for (auto [dt, sizes, order] :
       {std::tuple{ScalarType::Int, Sizes{3, 4}, Order{0, 1}},
        std::tuple{ScalarType::Int, Sizes{2, 3, 4}, Order{0, 2, 1}},
        std::tuple{ScalarType::Long, Sizes{3, 4}, Order{1, 0}}}) {
    OwnedTensor out(dt, sizes, order);
    const Tensor before = out.t;
    KernelRuntimeContext ctx;
    select_copy_int_out(ctx, in.t, 0, 1, out.t);
    expect_refused(ctx, out, before, sizes_str(sizes) + order_str(order));
  }
}

TEST(SelectCopy, Rank16ToRank15) {
  Sizes sizes(16, 1);
  sizes[3] = 2;
  sizes[15] = 3;
  Order order = identity_order(16);
  std::reverse(order.begin(), order.end());
  OwnedTensor in(ScalarType::Short, sizes, order);
  in.fill_pattern();
  Sizes rs = sizes;
  rs.erase(rs.begin() + 15);
  OwnedTensor out(ScalarType::Short, rs, order_without(order, {15}));
  KernelRuntimeContext ctx;
  select_copy_int_out(ctx, in.t, -1, 2, out.t);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(check_values(in, out, [](Sizes o) { return o.push_back(2), o; }), "");
}

// ---- squeeze_copy -------------------------------------------------------------

TEST(SqueezeCopy, EverySubsetOfDimsEveryOrderAndDtype) {
  for (ScalarType dt : kAllDtypes)
    for (const Sizes& sizes : kShapes) {
      const int rank = static_cast<int>(sizes.size());
      for (const Order& order : all_orders(sizes.size()))
        for (int mask = 0; mask < (1 << rank); ++mask) {
          std::vector<int64_t> dims;
          std::vector<int> removed;
          for (int d = 0; d < rank; ++d)
            if (mask >> d & 1) {
              dims.push_back(mask % 3 == 0 ? d - rank : d);  // negative spellings too
              if (sizes[d] == 1) removed.push_back(d);
            }
          OwnedTensor in(dt, sizes, order);
          in.fill_pattern();
          Sizes rs;
          for (int d = 0; d < rank; ++d)
            if (std::find(removed.begin(), removed.end(), d) == removed.end()) rs.push_back(sizes[d]);
          OwnedTensor out(dt, rs, order_without(order, removed));
          KernelRuntimeContext ctx;
          squeeze_copy_dims_out(ctx, in.t, dims.data(), dims.size(), out.t);
          const std::string desc = sizes_str(in.sizes()) + order_str(order) + " dims " + sizes_str(dims);
          ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
          EXPECT_EQ(check_values(in, out, [&](const Sizes& o) {
                      Sizes s;
                      for (int d = 0, j = 0; d < rank; ++d)
                        s.push_back(std::find(removed.begin(), removed.end(), d) != removed.end() ? 0 : o[j++]);
                      return s;
                    }), "")
              << desc;
        }
    }
}

TEST(SqueezeCopy, RankZeroTakesDimZeroOrMinusOne) {
  for (int64_t dim : {0, -1}) {
    OwnedTensor in(ScalarType::Double, {});
    in.fill_pattern();
    OwnedTensor out(ScalarType::Double, {});
    KernelRuntimeContext ctx;
    squeeze_copy_dims_out(ctx, in.t, &dim, 1, out.t);
    ASSERT_TRUE(ctx.ok()) << ctx.message();
    EXPECT_EQ(std::memcmp(out.buffer(), in.buffer(), 8), 0);
  }
}

TEST(SqueezeCopy, ErrorsLeaveOutUntouched) {
  struct Bad {
    Sizes sizes;
    std::vector<int64_t> dims;
    Sizes out_sizes;
  } cases[] = {{{}, {1}, {}},          {{}, {0, -1}, {}},        {{2, 1}, {2}, {2}},
               {{2, 1}, {-3}, {2}},    {{2, 1}, {1, -1}, {2}},   {{2, 1}, {kI64Min}, {2}},
               {{2, 1}, {1}, {2, 1}},  // out keeps the squeezed dim: rank mismatch
               {{2, 1}, {0}, {2}}};    // dim 0 has size 2: it stays, out of rank 1 is wrong
  for (const Bad& b : cases) {
    OwnedTensor in(ScalarType::Byte, b.sizes);
    in.fill_pattern();
    OwnedTensor out(ScalarType::Byte, b.out_sizes);
    const Tensor before = out.t;
    KernelRuntimeContext ctx;
    squeeze_copy_dims_out(ctx, in.t, b.dims.data(), b.dims.size(), out.t);
    expect_refused(ctx, out, before, sizes_str(b.sizes) + " dims " + sizes_str(b.dims));
  }
}

// ---- unsqueeze_copy -----------------------------------------------------------

TEST(UnsqueezeCopy, EveryDimOrderAndDtype) {
  for (ScalarType dt : kAllDtypes)
    for (const Sizes& sizes : std::vector<Sizes>{{}, {3}, {2, 3}, {2, 1, 3}, {0, 2}}) {
      const int rank = static_cast<int>(sizes.size());
      for (const Order& order : all_orders(sizes.size()))
        for (int d = 0; d <= rank; ++d) {
          OwnedTensor in(dt, sizes, order);
          in.fill_pattern();
          Sizes rs = sizes;
          rs.insert(rs.begin() + d, 1);
          OwnedTensor out(dt, rs, order_unsqueezed(order, d));
          KernelRuntimeContext ctx;
          const int64_t dim = d % 2 ? d - (rank + 1) : d;
          unsqueeze_copy_out(ctx, in.t, dim, out.t);
          const std::string desc = sizes_str(sizes) + order_str(order) + " dim " + std::to_string(dim);
          ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
          EXPECT_EQ(check_values(in, out, [&](Sizes o) { return o.erase(o.begin() + d), o; }), "")
              << desc;
        }
    }
}

TEST(UnsqueezeCopy, NewDimSitsJustOutsideTheDimItPrecedes) {
  // Channels-last (0, 2, 3, 1): unsqueeze(1) -> (0, 3, 4, 1, 2).
  OwnedTensor in(ScalarType::Float, {2, 3, 4, 5}, {0, 2, 3, 1});
  OwnedTensor wrong(ScalarType::Float, {2, 1, 3, 4, 5}, {0, 1, 3, 4, 2});
  const Tensor before = wrong.t;
  KernelRuntimeContext ctx;
  unsqueeze_copy_out(ctx, in.t, 1, wrong.t);
  expect_refused(ctx, wrong, before, "unsqueeze(1) into (0, 1, 3, 4, 2)");
  OwnedTensor right(ScalarType::Float, {2, 1, 3, 4, 5}, {0, 3, 4, 1, 2});
  KernelRuntimeContext ok;
  unsqueeze_copy_out(ok, in.t, 1, right.t);
  EXPECT_TRUE(ok.ok()) << ok.message();
}

TEST(UnsqueezeCopy, Rank16IsTheLimit) {
  OwnedTensor in15(ScalarType::Char, Sizes(15, 1));
  in15.fill_pattern();
  OwnedTensor out16(ScalarType::Char, Sizes(16, 1));
  KernelRuntimeContext ctx;
  unsqueeze_copy_out(ctx, in15.t, 15, out16.t);
  EXPECT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(out16.buffer()[0], in15.buffer()[0]);

  OwnedTensor in16(ScalarType::Char, Sizes(16, 1));
  OwnedTensor out(ScalarType::Char, Sizes(16, 1));
  const Tensor before = out.t;
  KernelRuntimeContext bad;
  unsqueeze_copy_out(bad, in16.t, 0, out.t);
  expect_refused(bad, out, before, "rank 17");
}

TEST(UnsqueezeCopy, ErrorsLeaveOutUntouched) {
  for (int64_t dim : {int64_t{3}, int64_t{-4}, kI64Min, kI64Max}) {
    OwnedTensor in(ScalarType::Bool, {2, 3});
    OwnedTensor out(ScalarType::Bool, {2, 3, 1});
    const Tensor before = out.t;
    KernelRuntimeContext ctx;
    unsqueeze_copy_out(ctx, in.t, dim, out.t);
    expect_refused(ctx, out, before, "dim " + std::to_string(dim));
  }
}

// ---- view_copy ----------------------------------------------------------------

// Row-major index `n` of `sizes`.
Sizes unravel(int64_t n, const Sizes& sizes) {
  Sizes idx(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    idx[i] = n % sizes[i];
    n /= sizes[i];
  }
  return idx;
}
int64_t ravel(const Sizes& idx, const Sizes& sizes) {
  int64_t n = 0;
  for (size_t i = 0; i < sizes.size(); ++i) n = n * sizes[i] + idx[i];
  return n;
}

TEST(ViewCopy, RowMajorElementOrderFromAnyInputOrder) {
  struct V {
    Sizes in, view, result;
  } cases[] = {{{2, 3, 4}, {6, 4}, {6, 4}},       {{2, 3, 4}, {-1}, {24}},
               {{2, 3, 4}, {4, -1, 2}, {4, 3, 2}}, {{1}, {}, {}},
               {{}, {1, 1, -1}, {1, 1, 1}},        {{0, 3}, {3, -1, 2}, {3, 0, 2}},
               {{2, 6}, {3, 2, 2}, {3, 2, 2}}};
  for (ScalarType dt : kAllDtypes)
    for (const V& v : cases)
      for (const Order& order : all_orders(v.in.size())) {
        OwnedTensor in(dt, v.in, order);
        in.fill_pattern();
        OwnedTensor out(dt, v.result);
        KernelRuntimeContext ctx;
        view_copy_out(ctx, in.t, v.view.data(), v.view.size(), out.t);
        const std::string desc = sizes_str(v.in) + order_str(order) + " view " + sizes_str(v.view);
        ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
        EXPECT_EQ(check_values(in, out, [&](const Sizes& o) {
                    return unravel(ravel(o, v.result), v.in);
                  }), "")
            << desc;
      }
}

TEST(ViewCopy, ErrorsLeaveOutUntouched) {
  struct Bad {
    Sizes in, view, out;
  } cases[] = {{{2, 3}, {-1, -1}, {6, 1}},     {{2, 3}, {-2, -3}, {2, 3}},  {{0, 3}, {0, -1}, {0, 1}},
               {{2, 3}, {5}, {5}},              {{2, 3}, {4, -1}, {4, 1}},   {{2, 3}, {kI64Max, 2}, {6}},
               {{2, 3}, {3, 2}, {2, 3}},         // right numel, out's sizes resized, rank ok: fine
               {{2, 3}, {6}, {6, 1}},            // rank mismatch
               {{2, 3}, Sizes(17, 1), {6}}};
  for (const Bad& b : cases) {
    OwnedTensor in(ScalarType::Half, b.in);
    in.fill_pattern();
    OwnedTensor out(ScalarType::Half, b.out, {}, ShapeDynamism::STATIC);
    const Tensor before = out.t;
    KernelRuntimeContext ctx;
    view_copy_out(ctx, in.t, b.view.data(), b.view.size(), out.t);
    const std::string desc = sizes_str(b.in) + " view " + sizes_str(b.view);
    if (b.view == Sizes{3, 2}) {
      EXPECT_FALSE(ctx.ok()) << desc << ": a static out of other sizes cannot be resized";
      EXPECT_TRUE(out.untouched()) << desc;
      continue;
    }
    expect_refused(ctx, out, before, desc);
  }
  // Out must be row-major.
  OwnedTensor in(ScalarType::Half, {2, 3});
  OwnedTensor out(ScalarType::Half, {3, 2}, {1, 0});
  const Tensor before = out.t;
  KernelRuntimeContext ctx;
  const int64_t sizes[] = {3, 2};
  view_copy_out(ctx, in.t, sizes, 2, out.t);
  expect_refused(ctx, out, before, "out not row-major");
}

// ---- clone(dim_order=) --------------------------------------------------------

TEST(CloneDimOrder, EveryLayoutToEveryLayout) {
  for (ScalarType dt : kAllDtypes)
    for (const Sizes& sizes : std::vector<Sizes>{{}, {3}, {2, 3, 4}, {2, 0, 3}, {1, 3, 1}})
      for (const Order& from : all_orders(sizes.size()))
        for (const Order& to : all_orders(sizes.size())) {
          OwnedTensor in(dt, sizes, from);
          in.fill_pattern();
          OwnedTensor out(dt, sizes, to);
          std::vector<int64_t> p(to.begin(), to.end());
          KernelRuntimeContext ctx;
          clone_dim_order_out(ctx, in.t, p.data(), p.size(), out.t);
          const std::string desc = sizes_str(sizes) + order_str(from) + " -> " + order_str(to);
          ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
          EXPECT_EQ(check_values(in, out, [](const Sizes& o) { return o; }), "") << desc;
        }
}

TEST(CloneDimOrder, ErrorsLeaveOutUntouched) {
  OwnedTensor in(ScalarType::Long, {2, 3, 4});
  in.fill_pattern();
  struct Bad {
    std::vector<int64_t> order;
    Order out_order;
    ScalarType out_dtype;
  } cases[] = {{{0, 1, 1}, {0, 1, 2}, ScalarType::Long},  {{0, 1}, {0, 1, 2}, ScalarType::Long},
               {{0, 1, 3}, {0, 1, 2}, ScalarType::Long},  {{0, 2, 1}, {0, 1, 2}, ScalarType::Long},
               {{0, 2, 1}, {0, 2, 1}, ScalarType::Int},   {{-1, 0, 1}, {0, 1, 2}, ScalarType::Long}};
  for (const Bad& b : cases) {
    OwnedTensor out(b.out_dtype, {2, 3, 4}, b.out_order);
    const Tensor before = out.t;
    KernelRuntimeContext ctx;
    clone_dim_order_out(ctx, in.t, b.order.data(), b.order.size(), out.t);
    expect_refused(ctx, out, before, "dim_order " + sizes_str(b.order));
  }
}

}  // namespace
}  // namespace slicefuzz
