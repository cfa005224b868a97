// The rewrite path's executor: one arena laid out by the memory plan; every
// aliased view-copy op through its alias prim op (et_slice, et_select, et_view) or
// at the plan's offset, every other op through the kernels. Under ASan every arena
// byte not owned by a live tensor is poisoned: a region is unpoisoned when its
// tensor is defined and poisoned again after the last use of the root and all its
// aliases, so an alias reading outside its root or after a lifetime ended aborts.
// The method is executed at least twice, as a deployed ExecuTorch Method is
// executed many times: the values' tensors persist, and each execution runs in
// another arena than the one before, which stays allocated and entirely poisoned
// while it runs, so a pointer kept from the previous execution (e.g. an alias prim
// op that sets out's data only once) aborts or shows up in the alias records.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "vocab/program_info.h"
#include "vocab/case.h"
#include "program/kernel_table.h"
#include "program/memory_planner.h"
#include "vocab/path_result.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {

// Where one aliased view-copy op's result actually pointed (from its alias prim
// op, or from the plan in planned mode).
struct AliasRecord {
  int op = -1;
  int value = -1;
  int root = -1;
  int64_t delta_bytes = 0;  // out.data - root's data, as executed
  int64_t nbytes = 0;
  int64_t root_nbytes = 0;
};

struct RewriteExecution {
  PathResult path;
  std::vector<AliasRecord> aliases;
};

// `path` and `aliases` are the second execution's (the one that shows stale
// pointers); `first_execution` is kept so the judge can compare the two.
struct RewritePathResult {
  PathResult path;
  std::vector<AliasRecord> aliases;
  RewriteExecution first_execution;
};

class Arena;

// The program's constant data (version 4: weights, buffers), one allocation per
// constant value, loaded with the method's first execution.
struct ConstantData {
  std::vector<std::unique_ptr<uint8_t[]>> bytes;  // by value; empty until loaded
};

// A method loaded once and executed many times (an ExecuTorch Method): what the
// rewrite path runs. The reference's is RewriteMethod below; a backend may bring
// its own (Backend::make_method: executorch-runtime loads a real ExecuTorch
// program), judged the same way.
class MethodUnderTest {
 public:
  virtual ~MethodUnderTest() = default;
  // One execution at `c`'s sizes (its analysis `info`, same value table as the
  // plan's). Version 4: `symbols` are the execution's value of each symbol of
  // the program (MethodSpec::symbolic), in declaration order; nullptr for a
  // static case.
  virtual RewriteExecution execute(const Case& c, const ProgramInfo& info, const std::vector<TensorValue>& inputs,
                                   const std::vector<int64_t>* symbols = nullptr) = 0;
  // Two executions, the second of which shows stale pointers (RewritePathResult).
  RewritePathResult execute_twice(const Case& c, const ProgramInfo& info, const std::vector<TensorValue>& inputs,
                                  const std::vector<int64_t>* symbols = nullptr);
};

// What a method is made from: the pass's rewrite and the planner's plan of a
// program (its analysis at the plan's sizes), how aliases are materialised, and
// (version 4) the bound sizes the plan holds, per value (nullptr: static).
struct MethodSpec {
  const ProgramInfo& planned;
  const RewritePlan& rewrite;
  const MemoryPlan& plan;
  const KernelTable& kernels;
  AliasMode mode = AliasMode::RuntimeOp;
  const std::vector<std::vector<int64_t>>* bounds = nullptr;
  // Version 4: the program with its symbols (nullptr: a static case), for a
  // method that loads the program once for every execution.
  const Case* symbolic = nullptr;
};
using MethodFactory = std::unique_ptr<MethodUnderTest> (*)(const MethodSpec& spec);

// The reference's method: the values' tensors persist across executions; each
// execution runs in another arena than the previous one, which stays allocated
// and entirely poisoned meanwhile. Two arenas take turns: the third execution
// runs in the first's (retired, then opened region by region as the plan says),
// so a long schedule allocates no more than a static case's two executions.
// Version 4: `bounds` (per value, or nullptr) are the sizes the plan holds:
// every planned tensor starts each execution at its bound, DYNAMIC_BOUND, so the
// kernels resize their outs to the actual results, and an alias prim op's out
// starts at its bound's sizes the first time.
class RewriteMethod : public MethodUnderTest {
 public:
  RewriteMethod(const ProgramInfo& planned, const RewritePlan& rewrite, const MemoryPlan& plan,
                const KernelTable& kernels, AliasMode mode,
                const std::vector<std::vector<int64_t>>* bounds = nullptr);
  explicit RewriteMethod(const MethodSpec& s)
      : RewriteMethod(s.planned, s.rewrite, s.plan, s.kernels, s.mode, s.bounds) {}
  ~RewriteMethod() override;
  RewriteMethod(const RewriteMethod&) = delete;
  RewriteMethod& operator=(const RewriteMethod&) = delete;
  RewriteExecution execute(const Case& c, const ProgramInfo& info, const std::vector<TensorValue>& inputs,
                           const std::vector<int64_t>* symbols = nullptr) override;
  // The bytes the last execution ran in (nullptr before the first), for the test
  // of the arenas' turns.
  const uint8_t* last_arena() const;

 private:
  const RewritePlan& rewrite_;
  const MemoryPlan& plan_;
  const KernelTable& kernels_;
  AliasMode mode_;
  const std::vector<std::vector<int64_t>>* bounds_;
  std::vector<Tensor> values_;
  ConstantData constants_;
  std::unique_ptr<Arena> previous_;  // the last execution's arena, retired
  // The one before it, retired too: the next execution runs in it rather than in
  // a new allocation (each execution still runs in other memory than the last
  // one's, which stays poisoned while it runs; a version-4 case executes the
  // method twice per execution).
  std::unique_ptr<Arena> spare_;
};

// `inputs`: the program inputs' values, in order. `mode` is RuntimeOp or Planned (a backend declaring Both runs it twice).
RewritePathResult run_rewrite_path(const Case& c, const ProgramInfo& info,
                                   const std::vector<TensorValue>& inputs, const RewritePlan& rewrite,
                                   const MemoryPlan& plan, const KernelTable& kernels,
                                   AliasMode mode = AliasMode::RuntimeOp);

}  // namespace slicefuzz
