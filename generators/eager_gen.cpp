// Eager programs (case format version 2) for backends that declare `eager_ops`:
// the shapes of code that functionalization and re-inplacing passes see. View
// chains (slice of slice, select of slice), writes through views (add_, copy_),
// writes to a base while views of it are live and read later, overlapping views
// of one base, out-of-place add, relu, index_copy (a KV cache's update) and clones,
// on permuted layouts. The input is
// always an output, so a pass that changes the input's final value is seen.
#include <algorithm>

#include "generators/case_gen.h"
#include "generators/eager_gen.h"
#include "oracles/analysis.h"
#include "oracles/judge_facts.h"

namespace slicefuzz {

namespace {

// Small arguments, negative ones and None: the values passes mishandle.
std::optional<int64_t> gen_bound(int64_t size) {
  switch (*rc::gen::inRange(0, 8)) {
    case 0:
    case 1: return std::nullopt;
    case 2: return -*rc::gen::inRange<int64_t>(1, std::max<int64_t>(size, 1) + 1);
    case 3: return size + *rc::gen::inRange<int64_t>(0, 3);  // past the end: clamped
    default: return *rc::gen::inRange<int64_t>(0, std::max<int64_t>(size, 1) + 1);
  }
}

int64_t gen_scalar() {
  return *rc::gen::element<int64_t>(1, 1, 2, -1, 3, 5, -7, 100);
}

// Indices of values whose sizes equal `sizes` (copy_ partners).
std::vector<size_t> same_sizes(const std::vector<std::vector<int64_t>>& shapes,
                               const std::vector<int64_t>& sizes) {
  std::vector<size_t> out;
  for (size_t i = 0; i < shapes.size(); ++i)
    if (shapes[i] == sizes) out.push_back(i);
  return out;
}

}  // namespace

rc::Gen<Case> genEagerCase() {
  // Full size always: RapidCheck scales ranges with its size, which made most
  // programs one op long.
  return rc::gen::resize(100, rc::gen::exec([] {
    Case c;
    c.version = 2;
    c.dtype = *genDtype();
    const int rank = *rc::gen::weightedElement<int>({{1, 1}, {4, 2}, {3, 3}, {1, 4}});
    InputDecl& x = c.inputs[0];  // eager programs have one input
    for (int i = 0; i < rank; ++i)
      x.sizes.push_back(*rc::gen::weightedElement<int64_t>({{2, 1}, {3, 2}, {3, 3}, {3, 4}, {1, 5}, {1, 0}}));
    x.dim_order = *genDimOrder(x.sizes);
    std::vector<std::string> names{x.name};
    std::vector<std::vector<int64_t>> shapes{x.sizes};
    auto pick = [&](bool want_rank) -> int {
      std::vector<size_t> ok;
      for (size_t i = 0; i < shapes.size(); ++i)
        if (!want_rank || !shapes[i].empty()) ok.push_back(i);
      if (ok.empty()) return -1;
      // Recent values more often: chains grow.
      const size_t k = *rc::gen::inRange<size_t>(0, ok.size() * 2);
      return static_cast<int>(ok[k >= ok.size() ? ok.size() - 1 : k]);
    };
    // Pushes `op` (a write of some base) and makes `op` a read of view `v` after
    // it: `add(v, k)`, which the loop pushes (re-inplacing the write while v is
    // an alias of that base is issue 36's probe).
    auto read_view_after = [&](Op& op, size_t v) {
      c.ops.push_back(op);
      op = Op{};
      op.kind = OpKind::AddOut;
      op.result = generated_value_name(names.size() - 1);
      op.src = names[v];
      op.scalar = gen_scalar();
      names.push_back(op.result);
      shapes.push_back(shapes[v]);
    };
    const int nops = *rc::gen::inRange(1, 8);
    // (view or view-copy value, its source): relu prefers a base some view was
    // taken of, and a read of that view after it (re-inplacing makes relu_; an
    // alias of the view then reads relu's values: issue 36's probe).
    std::vector<std::pair<size_t, size_t>> views_of;
    // Values the program must return whatever the outputs drawn at the end (a
    // relu nobody reads is dead code to the passes: dropped before they run).
    std::vector<std::string> returned;
    // torch.fx's reinplace never writes into a graph input, but after a write to
    // the input the functional base is an intermediate that it does rewrite: start
    // with one often.
    if (*rc::gen::inRange(0, 10) < 4) {
      Op first;
      first.kind = OpKind::Add;
      first.target = x.name;
      first.scalar = gen_scalar();
      c.ops.push_back(first);
    }
    for (int n = 0; n < nops; ++n) {
      Op op;
      // 0 slice, 1 select, 2 add_, 3 copy_, 4 add, 5 clone, 6 slice_copy, 7 relu,
      // 8 index_copy.
      const int kind = *rc::gen::weightedElement<int>(
          {{6, 0}, {3, 1}, {5, 2}, {3, 3}, {3, 4}, {1, 5}, {2, 6}, {3, 7}, {2, 8}});
      const std::string fresh = generated_value_name(names.size() - 1);
      if (kind == 0 || kind == 6) {  // slice view (6: slice_copy)
        int src = pick(true);
        if (src < 0) continue;
        const auto& in = shapes[src];
        const int r = static_cast<int>(in.size());
        op.kind = kind == 0 ? OpKind::Slice : OpKind::SliceCopy;
        op.result = fresh;
        op.src = names[src];
        op.dim = *rc::gen::inRange<int64_t>(-r, r);
        const int64_t size = in[judge::dim_index(r, op.dim)];
        op.start = gen_bound(size);
        op.end = gen_bound(size);
        op.step = *rc::gen::weightedElement<int64_t>({{6, 1}, {2, 2}, {1, 3}});
        if (*rc::gen::inRange(0, 100) < 2) op.step = 0;  // an op that must fail, rarely
        std::vector<int64_t> out = in;
        if (op.step > 0)
          out[judge::dim_index(r, op.dim)] =
              judge::normalize_slice_args(in, op.dim, op.start, op.end, op.step).length;
        views_of.emplace_back(names.size(), static_cast<size_t>(src));
        names.push_back(fresh);
        shapes.push_back(out);
      } else if (kind == 1) {  // select view
        int src = pick(true);
        if (src < 0) continue;
        const auto& in = shapes[src];
        const int r = static_cast<int>(in.size());
        op.kind = OpKind::Select;
        op.result = fresh;
        op.src = names[src];
        op.dim = *rc::gen::inRange<int64_t>(-r, r);
        const int64_t size = in[judge::dim_index(r, op.dim)];
        if (size == 0) continue;
        op.index = *rc::gen::inRange<int64_t>(-size, size);
        std::vector<int64_t> out = in;
        out.erase(out.begin() + judge::dim_index(r, op.dim));
        views_of.emplace_back(names.size(), static_cast<size_t>(src));
        names.push_back(fresh);
        shapes.push_back(out);
      } else if (kind == 2) {  // add_ through any value: a view, a base, the input
        op.kind = OpKind::Add;
        op.target = names[pick(false)];
        op.scalar = gen_scalar();
      } else if (kind == 3) {  // copy_ between equal-sized values (often overlapping views)
        const int dst = pick(false);
        std::vector<size_t> partners = same_sizes(shapes, shapes[dst]);
        if (partners.size() < 2) {
          // No partner yet: copy an out-of-place result back (copy_ into a view).
          Op add;
          add.kind = OpKind::AddOut;
          add.result = fresh;
          add.src = names[*rc::gen::inRange<size_t>(0, 2) ? dst : pick(false)];
          add.scalar = gen_scalar();
          const int src = static_cast<int>(std::find(names.begin(), names.end(), add.src) - names.begin());
          if (shapes[src] != shapes[dst]) add.src = names[dst];
          c.ops.push_back(add);
          names.push_back(fresh);
          shapes.push_back(shapes[dst]);
          op.kind = OpKind::Copy;
          op.target = names[dst];
          op.src = fresh;
        } else {
          op.kind = OpKind::Copy;
          op.target = names[dst];
          op.src = names[*rc::gen::elementOf(partners)];
        }
        // A self-copy through a view: a no-op in eager PyTorch that
        // functionalization still records as a write of the view.
        if (*rc::gen::inRange(0, 6) == 0) op.src = op.target;
      } else if (kind == 7 && *rc::gen::inRange(0, 10) < 4) {
        // issue 36's probe as a unit: a fresh intermediate t, a view of it, relu(t)
        // (returned, so it is live), then the view read: re-inplacing makes relu_(t)
        // and an alias pass makes the view an alias of t.
        const int src = pick(true);
        if (src < 0) continue;
        const std::vector<int64_t> in = shapes[src];  // a copy: shapes grows below
        const int r = static_cast<int>(in.size());
        Op t;
        t.kind = OpKind::AddOut;
        t.src = names[src];
        t.result = fresh;
        t.scalar = *rc::gen::element<int64_t>(-7, -3, -100);  // negative elements: relu changes them
        c.ops.push_back(t);
        names.push_back(t.result);
        shapes.push_back(in);
        Op view;
        view.kind = *rc::gen::element(OpKind::Slice, OpKind::SliceCopy);
        view.src = t.result;
        view.result = generated_value_name(names.size() - 1);
        view.dim = *rc::gen::inRange<int64_t>(-r, r);
        const int64_t size = in[judge::dim_index(r, view.dim)];
        view.start = gen_bound(size);
        view.end = gen_bound(size);
        view.step = *rc::gen::weightedElement<int64_t>({{6, 1}, {1, 2}});
        std::vector<int64_t> out = in;
        out[judge::dim_index(r, view.dim)] =
            judge::normalize_slice_args(in, view.dim, view.start, view.end, view.step).length;
        c.ops.push_back(view);
        views_of.emplace_back(names.size(), names.size() - 1);
        names.push_back(view.result);
        shapes.push_back(out);
        Op relu;
        relu.kind = OpKind::Relu;
        relu.src = t.result;
        relu.result = generated_value_name(names.size() - 1);
        c.ops.push_back(relu);
        returned.push_back(relu.result);
        names.push_back(relu.result);
        shapes.push_back(in);
        op.kind = OpKind::AddOut;  // the view, read after relu
        op.src = view.result;
        op.result = generated_value_name(names.size() - 1);
        op.scalar = gen_scalar();
        returned.push_back(op.result);
        names.push_back(op.result);
        shapes.push_back(out);
      } else if (kind == 7) {  // relu: a functional op that re-inplacing passes make relu_
        const bool of_viewed_base = !views_of.empty() && *rc::gen::inRange(0, 10) < 6;
        const auto& view = views_of.empty() ? std::pair<size_t, size_t>{0, 0}
                                            : views_of[*rc::gen::inRange<size_t>(0, views_of.size())];
        const int src = of_viewed_base ? static_cast<int>(view.second) : pick(false);
        op.kind = OpKind::Relu;
        op.result = fresh;
        op.src = names[src];
        names.push_back(fresh);
        shapes.push_back(shapes[src]);
        if (of_viewed_base && *rc::gen::inRange(0, 10) < 7) read_view_after(op, view.first);  // after relu
      } else if (kind == 8) {
        // index_copy(self, dim, index, source) or index_put(self, [None] * dim +
        // [index], values), as a KV cache's update: the source is a slice of a
        // value of self's sizes (k slices along dim, shifted by an add; for
        // index_put sometimes its row 0 along dim 0, broadcast back, and negative
        // indices); self is often a base some view was taken of, and that view is
        // read after (re-inplacing makes index_copy_/index_put_, an alias pass
        // the view).
        const bool put = *rc::gen::inRange(0, 2) == 0;
        const bool of_viewed_base = !views_of.empty() && *rc::gen::inRange(0, 10) < 6;
        const auto view = views_of.empty() ? std::pair<size_t, size_t>{0, 0}
                                           : views_of[*rc::gen::inRange<size_t>(0, views_of.size())];
        const int self = of_viewed_base ? static_cast<int>(view.second) : pick(true);
        if (self < 0 || shapes[self].empty()) continue;
        const std::vector<int64_t> in = shapes[self];  // a copy: shapes grows below
        const int r = static_cast<int>(in.size());
        const int64_t d = *rc::gen::inRange<int64_t>(-r, r);
        const int64_t n = in[judge::dim_index(r, d)];
        const int64_t k = std::min<int64_t>(n, *rc::gen::weightedElement<int64_t>({{6, 1}, {2, 2}, {1, 3}}));
        std::vector<size_t> partners = same_sizes(shapes, in);
        Op source;  // k slices of a value of self's sizes
        source.kind = *rc::gen::element(OpKind::SliceCopy, OpKind::Slice);
        source.src = names[*rc::gen::elementOf(partners)];
        source.result = fresh;
        source.dim = d;
        source.start = *rc::gen::inRange<int64_t>(0, n - k + 1);
        source.end = *source.start + k;
        std::vector<int64_t> slices = in;
        slices[judge::dim_index(r, d)] = k;
        c.ops.push_back(source);
        names.push_back(source.result);
        shapes.push_back(slices);
        Op shifted;
        shifted.kind = OpKind::AddOut;
        shifted.src = source.result;
        shifted.result = generated_value_name(names.size() - 1);
        shifted.scalar = gen_scalar();
        c.ops.push_back(shifted);
        names.push_back(shifted.result);
        shapes.push_back(slices);
        std::string written = shifted.result;
        if (put && slices[0] > 0 && *rc::gen::inRange(0, 5) == 0) {  // values broadcast over dim 0
          Op row;
          row.kind = OpKind::Select;  // a view: every eager backend carries it
          row.src = shifted.result;
          row.result = generated_value_name(names.size() - 1);
          row.dim = 0;
          row.index = 0;
          c.ops.push_back(row);
          names.push_back(row.result);
          shapes.push_back(std::vector<int64_t>(slices.begin() + 1, slices.end()));
          written = row.result;
        }
        // Distinct positions along dim; rarely one out of range (the op must fail).
        std::vector<int64_t> positions(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) positions[static_cast<size_t>(i)] = i;
        for (int64_t i = 0; i < k; ++i)
          std::swap(positions[static_cast<size_t>(i)],
                    positions[static_cast<size_t>(*rc::gen::inRange<int64_t>(i, n))]);
        positions.resize(static_cast<size_t>(k));
        if (put)  // index_put counts negative indices from the end
          for (int64_t& i : positions)
            if (*rc::gen::inRange(0, 10) < 3) i -= n;
        if (k > 0 && *rc::gen::inRange(0, 100) < 3) positions[0] = *rc::gen::element<int64_t>(-n - 1, n);
        op.kind = put ? OpKind::IndexPut : OpKind::IndexCopy;
        op.src = names[self];
        op.dim = d;
        op.ints = positions;
        op.other = written;
        op.result = generated_value_name(names.size() - 1);
        returned.push_back(op.result);
        names.push_back(op.result);
        shapes.push_back(in);
        if (of_viewed_base && *rc::gen::inRange(0, 10) < 7) read_view_after(op, view.first);
      } else if (kind == 4 || kind == 5) {  // add (out of place) or clone
        const int src = pick(false);
        op.kind = kind == 4 ? OpKind::AddOut : OpKind::Clone;
        op.result = fresh;
        op.src = names[src];
        if (kind == 4) op.scalar = gen_scalar();
        names.push_back(fresh);
        shapes.push_back(shapes[src]);
      }
      c.ops.push_back(op);
      if (op.step == 0) break;  // nothing after an op that must fail runs anyway
    }
    if (c.ops.empty()) {  // every pick refused (rank 0): one write to the input
      Op op;
      op.kind = OpKind::Add;
      op.target = x.name;
      op.scalar = 1;
      c.ops.push_back(op);
    }
    // A copy_ between views that share elements where torch 1.13 cannot check
    // them (a view is not dense) has no defined result (the analysis refuses
    // it): copy a clone of the source, as PyTorch's own overlap error advises.
    for (size_t tries = 0; tries < c.ops.size(); ++tries) {
      ProgramInfo info;
      AnalysisError err;
      if (analyze(c, kDefaultByteBudget, info, err) ||
          err.cause != AnalysisError::Cause::OrderDependentCopy)
        break;
      Op clone;
      clone.kind = OpKind::Clone;
      clone.result = generated_value_name(names.size() - 1);
      clone.src = c.ops[err.op].src;
      names.push_back(clone.result);
      c.ops[err.op].src = clone.result;
      c.ops.insert(c.ops.begin() + err.op, clone);
    }
    // The input's final value always; often only that (every other output is a
    // late read that keeps a pass from re-inplacing); the last value defined;
    // sometimes another.
    c.outputs.push_back(x.name);
    const auto add_returned = [&] {
      for (const std::string& n : returned)
        if (std::find(c.outputs.begin(), c.outputs.end(), n) == c.outputs.end()) c.outputs.push_back(n);
    };
    if (*rc::gen::inRange(0, 2) == 0) return add_returned(), c;
    if (names.size() > 1) c.outputs.push_back(names.back());
    if (names.size() > 2 && *rc::gen::inRange(0, 2)) {
      const std::string& other = names[*rc::gen::inRange<size_t>(1, names.size() - 1)];
      c.outputs.push_back(other);
    }
    add_returned();
    return c;
  }));
}

}  // namespace slicefuzz
