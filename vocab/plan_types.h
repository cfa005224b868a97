// What the pass and the planner hand over: plain data, read by the executors
// (system under test) and checked by the judge (oracles/plan_check.h), which
// share no code beyond these definitions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace slicefuzz {

struct RewriteDecision {
  int op = -1;          // the view-copy op (any *_copy op that may become an alias)
  int value = -1;       // the value it defines
  bool alias = false;   // true: its alias prim op (et_slice, et_view, ...); false: stays a copy
  std::string reason;   // in words, for people
  // A short stable tag for statistics: "et_slice", "not-dense-step",
  // "not-dense-extent", "output", "mutated", "root-written", "copy-only".
  std::string rule;
  // Version 4: which of the sizes the pass decided at (an index into its list of
  // sizes) made it a copy, or -1; the harness names those sizes for people.
  int at_size = -1;
};

struct RewritePlan {
  std::vector<RewriteDecision> decisions;  // one per view-copy op that runs
  // Per value: the storage it lives in. A non-alias value is its own root with
  // delta 0; an alias points at its root and the byte offset of its first element.
  std::vector<int> root;
  std::vector<int64_t> delta_bytes;
  bool is_alias(int value) const { return root[value] != value; }
  const RewriteDecision* decision_for_op(int op) const {
    for (const RewriteDecision& d : decisions)
      if (d.op == op) return &d;
    return nullptr;
  }
};

// How the rewrite path materialises an alias (DESIGN 1): RuntimeOp, an alias prim
// op (et_slice) computes the data pointer when it runs; Planned, no op runs and
// the pointer is the plan's root offset + delta (PR 21552's _SliceSpec.mem_offset).
enum class AliasMode : uint8_t { RuntimeOp, Planned, Both };
inline const char* alias_mode_name(AliasMode m) {
  switch (m) {
    case AliasMode::RuntimeOp: return "runtime-op";
    case AliasMode::Planned: return "planned";
    case AliasMode::Both: return "runtime-op and planned";
  }
  return "?";
}

inline constexpr int64_t kArenaAlignment = 16;  // as ExecuTorch's planner

// Lifetimes are in steps: step 0 defines the input, op k runs at step k + 1, and
// outputs are read at step ops_run + 1 (the end of the program).
struct TensorPlacement {
  int value = -1;
  int root = -1;         // == value for a non-alias tensor
  int64_t offset = 0;    // bytes into the arena (root offset + delta for an alias)
  int64_t nbytes = 0;
  int first_step = 0;    // defined at
  int last_step = 0;     // last use (a root: of itself or any alias)
  int own_last_step = 0; // a root's own last use, before extension by its aliases
  // Version 4: a constant (weight, buffer) or an alias of one. Its bytes are the
  // program's, not the arena's: a constant's own offset is 0 (the program lays
  // out its constant data), an alias's is its delta from its constant root.
  bool constant = false;
};

struct MemoryPlan {
  int64_t arena_bytes = 0;
  std::vector<TensorPlacement> tensors;  // indexed by value; only values that run
  int end_step = 0;                      // the step at which outputs are read
};

}  // namespace slicefuzz
