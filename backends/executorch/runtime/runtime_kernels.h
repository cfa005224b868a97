// Registration of the kernels executorch-runtime's programs call
// (runtime_kernels.cpp), and the sink of its probe ops.
#pragma once
#include <cstddef>

namespace slicefuzz::et_runtime {

// Registers slicefuzz's operators with ExecuTorch's kernel registry, once per
// process. False when the registry refused them or the portable kernels'
// registration (a name registered twice, a full registry).
bool register_runtime_kernels();

// Whether portable_registration.cpp's static registration succeeded.
bool portable_kernels_registered();

// What the probe ops report while a method executes (pte_writer.h's probes).
class ProbeSink {
 public:
  virtual ~ProbeSink() = default;
  virtual void enter(int step) = 0;
  virtual void leave(int step) = 0;
  // Where an alias points after its op: its bytes and its root's, as executed.
  virtual void alias(int op, int value, int root, const void* alias_data, size_t alias_nbytes,
                     const void* root_data, size_t root_nbytes) = 0;
};

// The sink the probes report to while this scope lives (one per thread).
class ProbeScope {
 public:
  explicit ProbeScope(ProbeSink* sink);
  ~ProbeScope();
  ProbeScope(const ProbeScope&) = delete;
  ProbeScope& operator=(const ProbeScope&) = delete;

 private:
  ProbeSink* previous_;
};

}  // namespace slicefuzz::et_runtime
