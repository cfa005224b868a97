// The mutators of eager programs (case format version 2, for backends that
// declare eager_ops): relu of a base some view or view-copy was taken of, with
// that view read after it (what a re-inplacing pass makes relu_ and an alias pass
// then reads wrong: issue 36), relu of any value, and index_copy or index_put into
// such a base (the KV cache's update, which the native delegate makes index_copy_
// and exir's default reinplace set index_put_), and add <-> mul (version 4). A case without eager ops is
// left alone ("did not apply"): relu would make it an eager program that the
// in-process backends refuse. Each leaves room for what it inserts below the
// fuzzer's op limit (kFuzzMaxOps): repair would cut the read that makes the probe.
#include "generators/mutator_util.h"
#include "generators/tensor_operands.h"

namespace slicefuzz::mut {

namespace {

// Inserts `r = relu(src)` at `at` and returns r's name.
std::string insert_relu_at(Case& c, const std::string& src, size_t at) {
  Op relu;
  relu.kind = OpKind::Relu;
  relu.src = src;
  relu.result = fresh_name(c);
  const std::string name = relu.result;
  c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), std::move(relu));
  return name;
}

// The ops that take a view or view-copy of a base (slice, select and their copies).
std::vector<size_t> view_ops(const Case& c) {
  std::vector<size_t> views;
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const OpKind k = c.ops[i].kind;
    if (k == OpKind::Slice || k == OpKind::Select || k == OpKind::SliceCopy || k == OpKind::SelectCopy)
      views.push_back(i);
  }
  return views;
}

bool relu_of_viewed_base(Case& c, Rng& rng) {
  if (!c.has_eager_ops() || c.ops.size() + 2 > kFuzzMaxOps) return false;
  const std::vector<size_t> views = view_ops(c);
  if (views.empty()) return false;
  const size_t v = views[below(rng, views.size())];
  const size_t at = v + 1 + below(rng, c.ops.size() - v);
  const std::string base = c.ops[v].src, view = c.ops[v].result;
  insert_relu_at(c, base, at);
  Op read;  // the view, read after relu
  read.kind = OpKind::AddOut;
  read.src = view;
  read.result = fresh_name(c);
  read.scalar = 1;
  c.outputs.push_back(read.result);
  c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at + 1), std::move(read));
  return true;
}

bool insert_relu(Case& c, Rng& rng) {
  if (!c.has_eager_ops() || c.ops.size() + 1 > kFuzzMaxOps) return false;
  std::vector<std::string> names = defined_before(c, c.ops.size());
  const std::string src = names[below(rng, names.size())];
  size_t first = 0;  // the op after src's definition (0 for an input)
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (c.ops[i].result == src) first = i + 1;
  const std::string r = insert_relu_at(c, src, first + below(rng, c.ops.size() - first + 1));
  if (chance(rng, 50)) c.outputs.push_back(r);
  return true;
}

// `y = index_copy(base, dim=D, index=[0], source=s)` (or index_put, the same
// arguments, values=s) after a view of base, with
// s = add(slice_copy(base, dim=D, 0..1), 1) and the view read after: D is 0 or -1,
// so the op runs wherever base has a dim and that dim an element (else it must
// fail, which is a case too).
bool index_write_of_viewed_base(Case& c, Rng& rng) {
  if (!c.has_eager_ops() || c.ops.size() + 4 > kFuzzMaxOps) return false;
  const std::vector<size_t> views = view_ops(c);
  if (views.empty()) return false;
  const size_t v = views[below(rng, views.size())];
  size_t at = v + 1 + below(rng, c.ops.size() - v);
  const std::string base = c.ops[v].src, view = c.ops[v].result;
  const int64_t dim = chance(rng, 50) ? 0 : -1;
  auto insert = [&](Op op) {
    c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at++), std::move(op));
  };
  Op rows;
  rows.kind = OpKind::SliceCopy;
  rows.src = base;
  rows.result = fresh_name(c);
  rows.dim = dim;
  rows.start = 0;
  rows.end = 1;
  const std::string rows_name = rows.result;
  insert(std::move(rows));
  Op shifted;
  shifted.kind = OpKind::AddOut;
  shifted.src = rows_name;
  shifted.result = fresh_name(c);
  shifted.scalar = 1;
  const std::string source = shifted.result;
  insert(std::move(shifted));
  Op update;
  update.kind = chance(rng, 50) ? OpKind::IndexCopy : OpKind::IndexPut;
  update.src = base;
  update.result = fresh_name(c);
  update.dim = dim;
  update.ints = {0};
  update.other = source;
  c.outputs.push_back(update.result);
  insert(std::move(update));
  Op read;  // the view, read after index_copy
  read.kind = OpKind::AddOut;
  read.src = view;
  read.result = fresh_name(c);
  read.scalar = 1;
  c.outputs.push_back(read.result);
  insert(std::move(read));
  return true;
}

// An out-of-place add becomes a mul by the same integer, or back (version 4's
// mul: issue 36's probe reads its slice as `s * 2`). Same sizes and dtype: the
// program stays valid.
bool swap_add_and_mul(Case& c, Rng& rng) {
  std::vector<size_t> arithmetic;
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (c.ops[i].kind == OpKind::AddOut || c.ops[i].kind == OpKind::MulOut) arithmetic.push_back(i);
  if (arithmetic.empty()) return false;
  Op& op = c.ops[arithmetic[below(rng, arithmetic.size())]];
  op.kind = op.kind == OpKind::AddOut ? OpKind::MulOut : OpKind::AddOut;
  return true;
}

// relu, sigmoid and gelu: one becomes another (the rest of NativeReinplacePass's
// functional set, version 4 on). Same operand and sizes; sigmoid of an integer
// tensor is float32, so what reads it may now fail: a program all the same.
bool swap_activation(Case& c, Rng& rng) {
  static constexpr OpKind kActivations[] = {OpKind::Relu, OpKind::Sigmoid, OpKind::Gelu};
  std::vector<size_t> at;
  for (size_t i = 0; i < c.ops.size(); ++i)
    for (OpKind k : kActivations)
      if (c.ops[i].kind == k) at.push_back(i);
  if (at.empty()) return false;
  Op& op = c.ops[at[below(rng, at.size())]];
  OpKind next = kActivations[below(rng, 2)];
  if (next == op.kind) next = kActivations[2];
  op.kind = next;
  return true;
}

// An add or mul by an integer becomes the op of two tensors (version 4), or one
// of two tensors goes back to an integer (k = 2: mul by 2, the probe's s * 2).
bool swap_scalar_and_tensor_operand(Case& c, Rng& rng) {
  std::vector<size_t> at;
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const OpKind k = c.ops[i].kind;
    if (k == OpKind::AddOut || k == OpKind::MulOut || k == OpKind::AddTensor || k == OpKind::MulTensor) at.push_back(i);
  }
  if (at.empty()) return false;
  const size_t i = at[below(rng, at.size())];
  Op& op = c.ops[i];
  if (op.kind == OpKind::AddTensor || op.kind == OpKind::MulTensor) {
    op.kind = op.kind == OpKind::AddTensor ? OpKind::AddOut : OpKind::MulOut;
    op.other.clear();
    op.scalar = 2;
    return true;
  }
  return gen::make_two_tensor_op(c, i, rng);
}

}  // namespace

std::vector<CaseMutator> eager_mutators() {
  return {{"ReluOfViewedBase", relu_of_viewed_base, false},
          {"InsertRelu", insert_relu, false},
          {"IndexWriteOfViewedBase", index_write_of_viewed_base, false},
          {"SwapAddAndMul", swap_add_and_mul, false, kDynamicCaseVersion},
          {"SwapActivation", swap_activation, false, kDynamicCaseVersion},
          {"SwapScalarAndTensorOperand", swap_scalar_and_tensor_operand, false, kDynamicCaseVersion}};
}

}  // namespace slicefuzz::mut
