// The alias prim ops et_select and et_view: an alias exactly when a brute-force
// element-by-element address comparison (written here) says the result can live
// in the input's bytes; otherwise refused with out untouched. Malformed stacks are
// errors, never crashes. Plus the property that slice_is_dense's closed form equals
// the general density rule over slice_view (RapidCheck), and same_element_order
// against brute force.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "kernels/evalue.h"
#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"
#include "kernels/util/view_util.h"
#include "tests/test_tensors.h"

namespace slicefuzz {
namespace {

using namespace slicefuzz::testing;

std::vector<Order> all_orders(size_t rank) {
  Order o = identity_order(rank);
  std::vector<Order> v;
  do v.push_back(o);
  while (std::next_permutation(o.begin(), o.end()));
  return v;
}

uint8_t g_marker[1];
Tensor alias_out(ScalarType dt, const Sizes& sizes, const Order& order) {
  Tensor t;
  EXPECT_TRUE(make_tensor_meta(dt, static_cast<int>(sizes.size()), sizes.data(), order.data(), t));
  t.data = g_marker;
  return t;
}

void expect_same_meta(const Tensor& a, const Tensor& b, const std::string& desc) {
  EXPECT_EQ(a.data, b.data) << desc;
  EXPECT_EQ(a.rank, b.rank) << desc;
  EXPECT_TRUE(std::equal(a.sizes, a.sizes + kMaxRank, b.sizes)) << desc;
  EXPECT_TRUE(std::equal(a.strides, a.strides + kMaxRank, b.strides)) << desc;
  EXPECT_TRUE(std::equal(a.dim_order, a.dim_order + kMaxRank, b.dim_order)) << desc;
  EXPECT_EQ(a.capacity_nbytes, b.capacity_nbytes) << desc;
}

// Brute force: out's element at every logical index, addressed by out's strides
// from `out_base`, is the in element `map` names (addressed by in's strides).
template <class Map>
bool same_addresses(const OwnedTensor& in, const Sizes& out_sizes, const Order& out_order,
                    int64_t out_base_elems, Map map) {
  const Sizes ost = ref_strides(out_sizes, out_order), ist = ref_strides(in.sizes(), in.order());
  bool same = true;
  for_each_index(out_sizes, [&](const Sizes& idx) {
    same = same && out_base_elems + offset_of(idx, ost) == offset_of(map(idx), ist);
  });
  return same;
}

// ---- et_select ----------------------------------------------------------------

struct SelectStack {
  EValue v[4];
  EValue* p[4];
  SelectStack(Tensor* in, int64_t dim, int64_t index, Tensor* out) {
    v[0] = EValue::from_tensor(in);
    v[1] = EValue::from_int(dim);
    v[2] = EValue::from_int(index);
    v[3] = EValue::from_tensor(out);
    for (int i = 0; i < 4; ++i) p[i] = &v[i];
  }
};

TEST(EtSelect, AliasesExactlyTheDenseSelections) {
  int aliased = 0, refused = 0;
  for (const Sizes& sizes : std::vector<Sizes>{{3}, {2, 3}, {1, 3}, {3, 1, 2}, {2, 2, 2}, {2, 0, 3}, {1, 2, 1, 3}})
    for (const Order& order : all_orders(sizes.size()))
      for (int d = 0; d < static_cast<int>(sizes.size()); ++d)
        for (int64_t index = -sizes[d]; index < sizes[d]; ++index) {
          OwnedTensor in(ScalarType::Float, sizes, order);
          in.fill_pattern();
          Sizes rs = sizes;
          rs.erase(rs.begin() + d);
          Order ro;
          for (uint8_t o : order)
            if (o != d) ro.push_back(static_cast<uint8_t>(o > d ? o - 1 : o));
          Tensor out = alias_out(ScalarType::Float, rs, ro);
          const Tensor before = out;
          const int64_t i = index < 0 ? index + sizes[d] : index;
          const int64_t base = ref_numel(rs) == 0 ? 0 : i * ref_strides(sizes, order)[d];
          const bool dense = same_addresses(in, rs, ro, base, [&](Sizes o) {
            o.insert(o.begin() + d, i);
            return o;
          });
          SelectStack s(&in.t, d, index, &out);
          KernelRuntimeContext ctx;
          et_select(ctx, s.p);
          const std::string desc = sizes_str(sizes) + order_str(order) + " select(" +
                                   std::to_string(d) + ", " + std::to_string(index) + ")";
          if (!dense) {
            EXPECT_FALSE(ctx.ok()) << desc;
            expect_same_meta(out, before, desc);
            ++refused;
            continue;
          }
          ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
          EXPECT_EQ(out.data, in.buffer() + base * 4) << desc;
          EXPECT_EQ(out.nbytes(), static_cast<size_t>(ref_numel(rs)) * 4) << desc;
          EXPECT_EQ(Sizes(out.sizes, out.sizes + out.rank), rs) << desc;
          ++aliased;
        }
  EXPECT_GT(aliased, 20);
  EXPECT_GT(refused, 20);
}

TEST(EtSelect, ErrorsLeaveOutUntouched) {
  OwnedTensor in(ScalarType::Int, {2, 3});
  struct Bad {
    int64_t dim, index;
    Sizes out_sizes;
    ScalarType dt;
  } cases[] = {{2, 0, {2}, ScalarType::Int},     {0, 2, {3}, ScalarType::Int},
               {0, -3, {3}, ScalarType::Int},    {0, 0, {3}, ScalarType::Long},
               {0, 0, {2, 3}, ScalarType::Int},  {kI64Min, 0, {3}, ScalarType::Int}};
  for (const Bad& b : cases) {
    Tensor out = alias_out(b.dt, b.out_sizes, identity_order(b.out_sizes.size()));
    const Tensor before = out;
    SelectStack s(&in.t, b.dim, b.index, &out);
    KernelRuntimeContext ctx;
    et_select(ctx, s.p);
    EXPECT_FALSE(ctx.ok()) << b.dim << " " << b.index;
    expect_same_meta(out, before, std::to_string(b.dim) + " " + std::to_string(b.index));
  }
  Tensor out = alias_out(ScalarType::Int, {3}, {0});
  SelectStack s(&in.t, 0, 0, &out);
  for (int bad = 0; bad < 4; ++bad) {
    EValue* p[4] = {s.p[0], s.p[1], s.p[2], s.p[3]};
    EValue none = EValue::none();
    p[bad] = bad % 2 ? nullptr : &none;
    KernelRuntimeContext ctx;
    et_select(ctx, p);
    EXPECT_FALSE(ctx.ok()) << "stack value " << bad;
  }
  KernelRuntimeContext ctx;
  et_select(ctx, nullptr);
  EXPECT_FALSE(ctx.ok());
}

// ---- et_view ------------------------------------------------------------------

struct ViewStack {
  EValue v[3];
  EValue* p[3];
  ViewStack(Tensor* in, const Sizes& sizes, Tensor* out) {
    v[0] = EValue::from_tensor(in);
    v[1] = EValue::from_int_list(sizes.data(), sizes.size());
    v[2] = EValue::from_tensor(out);
    for (int i = 0; i < 3; ++i) p[i] = &v[i];
  }
};

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

// Every (in layout, out sizes, out layout) with the same element count: et_view
// aliases exactly when out's addresses of every logical element are in's.
TEST(EtView, AliasesExactlyWhenEveryElementKeepsItsAddress) {
  struct Reshape {
    Sizes in, out;
  } reshapes[] = {{{2, 3}, {6}},          {{2, 3}, {3, 2}},       {{2, 1, 3}, {2, 3}},
                  {{2, 3}, {2, 1, 3}},    {{2, 3}, {1, 2, 3, 1}}, {{1, 3, 1, 2}, {3, 2}},
                  {{2, 3, 2}, {6, 2}},    {{2, 3, 2}, {2, 6}},    {{1}, {}},
                  {{}, {1, 1}},           {{0, 3}, {3, 0}},       {{2, 2, 2}, {2, 2, 2}}};
  int aliased = 0, refused = 0;
  for (const Reshape& r : reshapes)
    for (const Order& in_order : all_orders(r.in.size()))
      for (const Order& out_order : all_orders(r.out.size())) {
        OwnedTensor in(ScalarType::BFloat16, r.in, in_order);
        Tensor out = alias_out(ScalarType::BFloat16, r.out, out_order);
        const Tensor before = out;
        const bool same = ref_numel(r.in) == 0 ||
                          same_addresses(in, r.out, out_order, 0, [&](const Sizes& o) {
                            return unravel(ravel(o, r.out), r.in);
                          });
        ViewStack s(&in.t, r.out, &out);
        KernelRuntimeContext ctx;
        et_view(ctx, s.p);
        const std::string desc = sizes_str(r.in) + order_str(in_order) + " -> " + sizes_str(r.out) +
                                 order_str(out_order);
        if (!same) {
          EXPECT_FALSE(ctx.ok()) << desc;
          expect_same_meta(out, before, desc);
          ++refused;
          continue;
        }
        ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
        EXPECT_EQ(out.data, in.t.data) << desc;
        EXPECT_EQ(out.nbytes(), in.t.nbytes()) << desc;
        ++aliased;
      }
  EXPECT_GT(aliased, 30);
  EXPECT_GT(refused, 30);
}

TEST(EtView, InfersMinusOneAndRefusesBadSizes) {
  OwnedTensor in(ScalarType::Double, {2, 3, 4});
  Tensor out = alias_out(ScalarType::Double, {6, 4}, {0, 1});
  Sizes sizes{-1, 4};
  ViewStack s(&in.t, sizes, &out);
  out.dynamism = ShapeDynamism::STATIC;
  KernelRuntimeContext ctx;
  et_view(ctx, s.p);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(out.sizes[0], 6);
  for (const Sizes& bad : std::vector<Sizes>{{-1, -1}, {5, 4}, {-2, 4}, {24}, {kI64Max, 4}}) {
    Tensor o = alias_out(ScalarType::Double, {6, 4}, {0, 1});
    const Tensor before = o;
    ViewStack b(&in.t, bad, &o);
    KernelRuntimeContext c;
    et_view(c, b.p);
    EXPECT_FALSE(c.ok()) << sizes_str(bad);
    expect_same_meta(o, before, sizes_str(bad));
  }
  Tensor wrong_dtype = alias_out(ScalarType::Float, {24}, {0});
  Sizes flat{24};
  ViewStack w(&in.t, flat, &wrong_dtype);
  KernelRuntimeContext c;
  et_view(c, w.p);
  EXPECT_FALSE(c.ok());
  EValue* missing[3] = {s.p[0], nullptr, s.p[2]};
  KernelRuntimeContext m;
  et_view(m, missing);
  EXPECT_FALSE(m.ok());
  EValue not_a_list = EValue::from_int(3);
  EValue* wrong_tag[3] = {s.p[0], &not_a_list, s.p[2]};
  KernelRuntimeContext t;
  et_view(t, wrong_tag);
  EXPECT_FALSE(t.ok());
}

// ---- density facts --------------------------------------------------------------

// The closed form is a fast path of the general rule: for every shape, dim order
// and slice, slice_is_dense == view_is_dense(slice_view(...), the dim order).
RC_GTEST_PROP(ViewFacts, SliceClosedFormEqualsGeneralDensityRule, ()) {
  const int rank = *rc::gen::inRange(1, 6);
  const auto sizes = *rc::gen::container<std::vector<int64_t>>(rank, rc::gen::inRange<int64_t>(0, 5));
  auto order = identity_order(rank);
  const auto perm = *rc::gen::container<std::vector<int>>(rank, rc::gen::inRange(0, 1000));
  std::sort(order.begin(), order.end(), [&](uint8_t a, uint8_t b) { return perm[a] < perm[b]; });
  const int d = *rc::gen::inRange(0, rank);
  const auto start_m = *rc::gen::maybe(rc::gen::inRange<int64_t>(-7, 7));
  const auto end_m = *rc::gen::maybe(rc::gen::inRange<int64_t>(-7, 7));
  const OptInt start = start_m ? OptInt(*start_m) : std::nullopt;
  const OptInt end = end_m ? OptInt(*end_m) : std::nullopt;
  const int64_t step = *rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 6), rc::gen::just(kI64Max));
  Tensor t;
  RC_ASSERT(make_tensor_meta(ScalarType::Float, rank, sizes.data(), order.data(), t));
  const SliceRange r = normalize_slice(sizes[d], start, end, step);
  const ViewLayout v = slice_view(tensor_view(t), d, r);
  RC_ASSERT(slice_is_dense(t.sizes, t.dim_order, rank, d, r) == view_is_dense(v, t.dim_order));
}

// et_view's guard against brute force over random layouts of the same sizes.
RC_GTEST_PROP(ViewFacts, SameElementOrderIsSameAddressForEveryElement, ()) {
  const auto in_sizes = *rc::gen::container<std::vector<int64_t>>(
      *rc::gen::inRange(0, 5), rc::gen::inRange<int64_t>(1, 4));
  const Sizes out_sizes = *rc::gen::element(in_sizes, Sizes{ref_numel(in_sizes)},
                                            [&] { Sizes s = in_sizes; s.insert(s.begin(), 1); return s; }());
  auto shuffled = [](size_t rank, const std::vector<int>& key) {
    Order o = identity_order(rank);
    std::sort(o.begin(), o.end(), [&](uint8_t a, uint8_t b) { return key[a] < key[b]; });
    return o;
  };
  const Order in_order = shuffled(in_sizes.size(), *rc::gen::container<std::vector<int>>(in_sizes.size(), rc::gen::arbitrary<int>()));
  const Order out_order = shuffled(out_sizes.size(), *rc::gen::container<std::vector<int>>(out_sizes.size(), rc::gen::arbitrary<int>()));
  OwnedTensor in(ScalarType::Char, in_sizes, in_order);
  OwnedTensor out(ScalarType::Char, out_sizes, out_order);
  const bool brute = same_addresses(in, out_sizes, out_order, 0, [&](const Sizes& o) {
    return unravel(ravel(o, out_sizes), in_sizes);
  });
  RC_ASSERT(same_element_order(tensor_view(in.t), tensor_view(out.t)) == brute);
}

}  // namespace
}  // namespace slicefuzz
