// The .pte writer of executorch-runtime (runtime/pte_writer.h): what the program
// holds, read back with the schema's generated accessors, and that ExecuTorch's
// own Program::load (full verification) and load_method accept it.
#include "backends/executorch/runtime/pte_writer.h"

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/schema/program_generated.h>

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "backends/executorch/runtime/runtime_kernels.h"
#include "backends/executorch/runtime/runtime_method.h"
#include "program/memory_planner.h"
#include "program/rewrite_pass.h"
#include "vocab/case_format.h"
#include "vocab/op_schema.h"
#include "oracles/parse_case.h"

namespace slicefuzz::et_runtime {
namespace {

namespace fb = executorch_flatbuffer;

struct Written {
  ParseResult parsed;
  RewritePlan rewrite;
  MemoryPlan plan;
  std::vector<uint8_t> bytes;
  PteLayout layout;
  const fb::ExecutionPlan* forward() const { return fb::GetProgram(bytes.data())->execution_plan()->Get(0); }
  std::set<std::string> operators() const {
    std::set<std::string> names;
    for (const fb::Operator* op : *forward()->operators())
      names.insert(op->name()->str() + (op->overload()->size() ? "." + op->overload()->str() : ""));
    return names;
  }
  const fb::Tensor* tensor(int value) const { return forward()->values()->Get(value)->val_as_Tensor(); }
};

// The case parsed, rewritten by the reference pass and planned (a version-4
// case: at its bounds, which its parsed analysis holds), not yet written.
Written prepared(const std::string& text) {
  Written w;
  w.parsed = parse_case(text);
  EXPECT_TRUE(w.parsed.ok) << w.parsed.error;
  w.rewrite = replace_slice_copy_with_slice(w.parsed.c, w.parsed.info, {});
  w.plan = plan_memory(w.parsed.c, w.parsed.info, w.rewrite);
  return w;
}

Written write(const std::string& text, AliasMode mode, bool probes = true) {
  Written w = prepared(text);
  PteOptions o;
  o.mode = mode;
  o.probes = probes;
  EXPECT_EQ(write_pte(w.parsed.c, w.parsed.info, w.rewrite, w.plan, o, {}, w.bytes, w.layout), "");
  return w;
}

// ExecuTorch's own loader, fully verifying, then its Method over a planned buffer
// and a method pool of `pool_bytes`.
std::string load_with_executorch(const Written& w, size_t pool_bytes = 1 << 20) {
  namespace rt = executorch::runtime;
  // The operators the programs name (ExecuTorch's prim ops register themselves).
  if (!register_runtime_kernels()) return "kernel registration failed";
  executorch::extension::BufferDataLoader loader(w.bytes.data(), w.bytes.size());
  rt::Result<rt::Program> program = rt::Program::load(&loader, rt::Program::Verification::InternalConsistency);
  if (!program.ok()) return "Program::load failed";
  std::vector<uint8_t> arena(static_cast<size_t>(w.layout.arena_bytes) + 1), failing(64);
  std::vector<rt::Span<uint8_t>> buffers{{arena.data(), static_cast<size_t>(w.layout.arena_bytes)}};
  if (w.layout.failing_out_bytes) buffers.emplace_back(failing.data(), failing.size());
  rt::HierarchicalAllocator planned({buffers.data(), buffers.size()});
  std::vector<uint8_t> pool(pool_bytes);
  rt::MemoryAllocator method_allocator(static_cast<uint32_t>(pool.size()), pool.data());
  rt::MemoryManager memory(&method_allocator, &planned);
  rt::Result<rt::Method> method = program->load_method("forward", &memory);
  if (method.ok()) return "";
  return method.error() == rt::Error::MemoryAllocationFailed ? "load_method: method pool too small"
                                                             : "load_method failed";
}

constexpr const char* kSliceOfInput =
    "slicefuzz-case 1\ndtype float32\ninput x [4, 3]\n"
    "a = slice_copy(x, dim=0, start=1, end=3, step=1)\nb = clone(a)\noutput b\n";

TEST(PteWriter, ProgramVerifiesAndIdentifiesItself) {
  const Written w = write(kSliceOfInput, AliasMode::RuntimeOp);
  flatbuffers::Verifier verifier(w.bytes.data(), w.bytes.size());
  EXPECT_TRUE(fb::VerifyProgramBuffer(verifier));
  EXPECT_TRUE(fb::ProgramBufferHasIdentifier(w.bytes.data()));  // "ET12"
}

TEST(PteWriter, RuntimeOpAliasIsUnallocatedAndSetByItsPrimOp) {
  const Written w = write(kSliceOfInput, AliasMode::RuntimeOp);
  ASSERT_TRUE(w.rewrite.is_alias(1));
  EXPECT_EQ(w.tensor(1)->allocation_info(), nullptr);
  EXPECT_TRUE(w.operators().count("slicefuzz_prim::et_slice.default"));
  EXPECT_FALSE(w.operators().count("aten::slice_copy.Tensor_out"));
  EXPECT_EQ(load_with_executorch(w), "");
}

TEST(PteWriter, PlannedAliasIsAnAllocationInfoOffsetAndNoCall) {
  const Written w = write(kSliceOfInput, AliasMode::Planned);
  ASSERT_TRUE(w.rewrite.is_alias(1));
  const fb::AllocationDetails* at = w.tensor(1)->allocation_info();
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(at->memory_id(), 1u);
  EXPECT_EQ(static_cast<int64_t>(at->memory_offset_low()), w.plan.tensors[1].offset);
  // Root offset + one row of three floats.
  EXPECT_EQ(w.plan.tensors[1].offset, w.plan.tensors[0].offset + 12);
  EXPECT_FALSE(w.operators().count("slicefuzz_prim::et_slice.default"));
  EXPECT_FALSE(w.operators().count("aten::slice_copy.Tensor_out"));
  EXPECT_EQ(load_with_executorch(w), "");
}

TEST(PteWriter, OperatorsAreNamedAsFunctionsYamlNamesThem) {
  const Written w = write(
      "slicefuzz-case 3\ndtype float32\ninput x [2, 1, 3]\n"
      "a = clone(x)\nadd_(a, 2)\nb = select_copy(a, dim=2, index=1)\nc = squeeze_copy(x, dim=1)\n"
      "d = unsqueeze_copy(c, dim=0)\ne = view_copy(x, sizes=[6])\nf = narrow_copy(x, dim=2, start=0, length=2)\n"
      "g = expand_copy(x, sizes=[2, 2, 3])\nh = clone(x, dim_order=[0, 2, 1])\ncopy_(a, x)\n"
      "output a, b, d, e, f, g, h\n",
      AliasMode::RuntimeOp, false);
  const std::set<std::string> names = w.operators();
  for (const char* expected : {"aten::clone.out", "aten::add.Scalar_out", "aten::expand_copy.out",
                               "dim_order_ops::_clone_dim_order.out", "aten::copy_"})
    EXPECT_TRUE(names.count(expected)) << expected;
  for (const std::string& n : names) EXPECT_EQ(n.find("slicefuzz_probe"), std::string::npos) << n;
  EXPECT_EQ(load_with_executorch(w), "");
}

TEST(PteWriter, DimOrderAndScalarTypeAreWritten) {
  const Written w = write(
      "slicefuzz-case 1\ndtype int16\ninput x [1, 2, 1, 2] dim_order=[0, 2, 3, 1]\n"
      "a = slice_copy(x, dim=1, start=None, end=None, step=2)\noutput a\n",
      AliasMode::RuntimeOp);
  const fb::Tensor* x = w.tensor(0);
  EXPECT_EQ(std::vector<uint8_t>(x->dim_order()->begin(), x->dim_order()->end()),
            (std::vector<uint8_t>{0, 2, 3, 1}));
  EXPECT_EQ(x->scalar_type(), fb::ScalarType::SHORT);
  EXPECT_EQ(std::vector<int32_t>(x->sizes()->begin(), x->sizes()->end()), (std::vector<int32_t>{1, 2, 1, 2}));
}

TEST(PteWriter, ProgramStopsAtTheFailingOpWhoseOutHasItsOwnBuffer) {
  const Written w = write(
      "slicefuzz-case 1\ndtype float32\ninput x [4]\na = slice_copy(x, dim=3, start=None, end=None, step=1)\n"
      "b = clone(a)\noutput b\n",
      AliasMode::RuntimeOp);
  EXPECT_EQ(w.layout.ops_written, 1);
  EXPECT_TRUE(w.layout.outputs.empty());
  ASSERT_GT(w.layout.failing_out_bytes, 0);
  EXPECT_EQ(w.tensor(1)->allocation_info()->memory_id(), 2u);
  EXPECT_EQ(load_with_executorch(w), "");
}

// Version 4: values at their bounds, DYNAMIC_BOUND where they vary; a symbol
// that sizes an input is aten::sym_size.int of it, a runtime integer
// aten::_local_scalar_dense of a one-element int64 input, NAME+K add.Scalar.
TEST(PteWriter, SymbolsAreComputedByExecuTorchsPrimOps) {
  Written w = prepared(
      "slicefuzz-case 4\ndtype float32\nsym L in [1, 8]\nsym p in [0, 4]\ninput cache [1, 8, 4]\n"
      "input x [L, 4]\nk = slice_copy(cache, dim=1, start=p, end=p+2, step=1)\nc = clone(k)\n"
      "y = clone(x)\noutput c, y\nrun L=8 p=0\nrun L=3 p=2\n");
  PteOptions o;
  ASSERT_EQ(write_pte(w.parsed.c, w.parsed.info, w.rewrite, w.plan, o, {}, w.bytes, w.layout), "");
  const std::set<std::string> names = w.operators();
  for (const char* expected : {"aten::sym_size.int", "aten::_local_scalar_dense", "executorch_prim::add.Scalar"})
    EXPECT_TRUE(names.count(expected)) << expected;
  ASSERT_EQ(w.layout.symbol_inputs.size(), 1u);  // p sizes no input
  EXPECT_EQ(w.layout.symbol_inputs[0].second, 1);
  EXPECT_EQ(w.tensor(1)->shape_dynamism(), fb::TensorShapeDynamism::DYNAMIC_BOUND);  // x
  EXPECT_EQ(w.tensor(0)->shape_dynamism(), fb::TensorShapeDynamism::STATIC);         // cache
  EXPECT_EQ(load_with_executorch(w), "");
}

// Version 4's constants: bytes in a constant segment after the flatbuffer (found
// through ExecuTorch's extended header), each tensor a data_buffer_idx with no
// allocation_info and no program input; a planned alias of one, an entry at its
// root's offset plus the alias delta, which must be aligned.
TEST(PteWriter, ConstantsLiveInTheConstantSegment) {
  Written w = prepared(
      "slicefuzz-case 4\ndtype float32\nsym L in [1, 4]\nconst table [8, 4]\ninput x [L, 4]\n"
      "r = slice_copy(table, dim=0, start=2, end=4, step=1)\nc = clone(r)\ny = clone(x)\noutput c, y\n"
      "run L=4\nrun L=2\n");
  ASSERT_TRUE(w.rewrite.is_alias(2));  // r: 32 bytes into table
  std::vector<TensorValue> inputs(2);
  inputs[0].dtype = ScalarType::Float;
  inputs[0].sizes = {8, 4};
  for (int i = 0; i < 32; ++i) {
    const float f = static_cast<float>(i);
    const auto* b = reinterpret_cast<const uint8_t*>(&f);
    inputs[0].bytes.insert(inputs[0].bytes.end(), b, b + 4);
  }
  PteOptions o;
  o.mode = AliasMode::Planned;
  o.probes = false;
  ASSERT_EQ(write_pte(w.parsed.c, w.parsed.info, w.rewrite, w.plan, o, inputs, w.bytes, w.layout), "");
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(w.bytes.data()) + 8, 4), "eh00");
  const fb::Program* program = fb::GetProgram(w.bytes.data());
  ASSERT_EQ(program->segments()->size(), 1u);
  const auto* offsets = program->constant_segment()->offsets();
  ASSERT_EQ(offsets->size(), 3u);  // the placeholder, table, r
  EXPECT_EQ(w.tensor(0)->data_buffer_idx(), 1u);
  EXPECT_EQ(w.tensor(0)->allocation_info(), nullptr);
  EXPECT_EQ(w.tensor(2)->data_buffer_idx(), 2u);
  EXPECT_EQ(offsets->Get(2) - offsets->Get(1), 32u);
  EXPECT_EQ(w.layout.inputs, std::vector<int>{1});  // x only
  // table[2][0] (= 8.0f) where r's entry points.
  float first;
  const uint64_t base = w.bytes.size() - program->segments()->Get(0)->size();
  std::memcpy(&first, w.bytes.data() + base + offsets->Get(2), 4);
  EXPECT_EQ(first, 8.0f);
  EXPECT_EQ(load_with_executorch(w), "");
  // One row in (16 bytes) is aligned; an odd element is not.
  Written odd = prepared(
      "slicefuzz-case 4\ndtype float32\nconst table [8]\nr = slice_copy(table, dim=0, start=1, end=3, step=1)\n"
      "c = clone(r)\noutput c\n");
  inputs.resize(1);
  inputs[0].sizes = {8};
  inputs[0].bytes.resize(32);
  EXPECT_NE(write_pte(odd.parsed.c, odd.parsed.info, odd.rewrite, odd.plan, o, inputs, odd.bytes, odd.layout)
                .find("aligned"),
            std::string::npos);
}

// Each op's ExecuTorch identity is the op table's et_op column (vocab/op_schema.h):
// every op a program can hold names an operator that the registration
// (runtime/portable_registration.cpp) registers, and the writer calls it by that
// name; only the eager ops have none, and no program holds them.
TEST(PteWriter, EveryOpOfTheTableNamesARegisteredOperator) {
  int named = 0;
  for (const OpKindInfo& row : kOpKinds) {
    const std::string et_op = row.et_op;
    if (row.eager) {
      EXPECT_EQ(et_op, "") << row.name << ": an eager op no ExecuTorch program holds";
      continue;
    }
    ASSERT_NE(et_op, "") << row.name << " has no ExecuTorch operator in the op table";
    EXPECT_TRUE(executorch::runtime::registry_has_op_function(et_op.c_str()))
        << row.name << ": " << et_op << " is not registered";
    ++named;
  }
  EXPECT_EQ(named, 11);
  // The writer names the table's operator (and the quirks their own overloads).
  const Written w = write(
      "slicefuzz-case 3\ndtype float32\ninput x [2, 1, 3]\n"
      "a = slice_copy(x, dim=0, start=0, end=1, step=1)\nb = squeeze_copy(x, dims=[1])\n"
      "c = narrow_copy(x, dim=2, start=0, length=2)\noutput a, b, c\n",
      AliasMode::RuntimeOp, false);
  for (OpKind k : {OpKind::SliceCopy, OpKind::SqueezeCopy, OpKind::NarrowCopy})
    EXPECT_TRUE(w.operators().count(op_kind_info(k).et_op)) << op_kind_info(k).et_op;
  EXPECT_EQ(load_with_executorch(w), "");
}

TEST(PteWriter, WhatIsNotWrittenSaysWhy) {
  const ParseResult eager = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [4]\na = slice(x, dim=0, start=1, end=3, step=1)\n"
      "b = clone(a)\noutput b\n");
  ASSERT_TRUE(eager.ok) << eager.error;
  EXPECT_NE(pte_unwritable(eager.c, eager.info).find("eager"), std::string::npos);
  EXPECT_EQ(pte_unwritable(parse_case(kSliceOfInput).c, parse_case(kSliceOfInput).info), "");
}

// The method loads with a pool fitted to its program (method_pool_bytes) and
// retries with the generous one only on MemoryAllocationFailed: the fitted pool
// holds a large program (rank 16, forty ops with dims and sizes lists, 41
// values), and a pool that is too small fails with exactly that error, the one
// the retry is keyed on.
TEST(PteWriter, FittedMethodPoolHoldsALargeProgram) {
  std::string text = "slicefuzz-case 2\ndtype float32\ninput x [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 8]\n";
  std::string prev = "x";
  for (int i = 0; i < 10; ++i) {
    const std::string n = "v" + std::to_string(i);
    text += "s" + n + " = slice_copy(" + prev + ", dim=-1, start=0, end=8, step=1)\n";
    text += "q" + n + " = squeeze_copy(s" + n + ", dims=[0, 1, 2, 3, 4, 5])\n";
    text += "u" + n + " = view_copy(q" + n + ", sizes=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 8])\n";
    text += n + " = clone(u" + n + ")\n";
    prev = n;
  }
  text += "output " + prev + "\n";
  for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned}) {
    const Written w = write(text, mode);
    const size_t values = w.parsed.info.values.size();
    const MethodPoolBytes pool = method_pool_bytes(w.bytes.size(), values);
    EXPECT_LT(pool.fitted, pool.generous);
    EXPECT_EQ(load_with_executorch(w, pool.fitted), "") << "fitted pool " << pool.fitted << " bytes";
    EXPECT_EQ(load_with_executorch(w, 256), "load_method: method pool too small");
  }
}

// The policy itself: the generous pool is tried after the fitted one ran out of
// memory, never after another error, never first; the last answer is returned.
TEST(PteWriter, GenerousPoolOnlyAfterTheFittedOneRanOut) {
  const MethodPoolBytes pool{100, 1000};
  std::vector<size_t> tried;
  auto loader = [&](size_t needed, int other_error) {
    return [&tried, needed, other_error](size_t bytes) {
      tried.push_back(bytes);
      return bytes < needed ? (other_error ? other_error : 1) : 0;  // 1: out of memory
    };
  };
  EXPECT_EQ(load_fitted_then_generous(pool, loader(50, 0), 1), 0);
  EXPECT_EQ(tried, (std::vector<size_t>{100}));
  tried.clear();
  EXPECT_EQ(load_fitted_then_generous(pool, loader(500, 0), 1), 0);
  EXPECT_EQ(tried, (std::vector<size_t>{100, 1000}));
  tried.clear();
  EXPECT_EQ(load_fitted_then_generous(pool, loader(5000, 0), 1), 1);
  EXPECT_EQ(tried, (std::vector<size_t>{100, 1000}));
  tried.clear();
  EXPECT_EQ(load_fitted_then_generous(pool, loader(500, 7), 1), 7);  // another error: no retry
  EXPECT_EQ(tried, (std::vector<size_t>{100}));
}

}  // namespace
}  // namespace slicefuzz::et_runtime
