#include "backends/executorch/adapter.h"

#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/platform/platform.h>

#include <climits>

namespace slicefuzz::et_adapter {

namespace {
thread_local std::string g_log;

et::SizesType* checked_sizes(const Tensor& t, et::SizesType* out, bool& ok) {
  for (int i = 0; i < t.rank; ++i) {
    ok = ok && t.sizes[i] <= INT32_MAX;
    out[i] = static_cast<et::SizesType>(ok ? t.sizes[i] : 0);
  }
  return out;
}
}  // namespace

et::ScalarType to_et(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return et::ScalarType::Bool;
    case ScalarType::Byte: return et::ScalarType::Byte;
    case ScalarType::Char: return et::ScalarType::Char;
    case ScalarType::Short: return et::ScalarType::Short;
    case ScalarType::Int: return et::ScalarType::Int;
    case ScalarType::Long: return et::ScalarType::Long;
    case ScalarType::Half: return et::ScalarType::Half;
    case ScalarType::BFloat16: return et::ScalarType::BFloat16;
    case ScalarType::Float: return et::ScalarType::Float;
    case ScalarType::Double: return et::ScalarType::Double;
  }
  return et::ScalarType::Float;
}

EtTensor::EtTensor(const Tensor& t, Role role)
    : impl_(to_et(t.dtype), t.rank, checked_sizes(t, sizes_, ok_), t.data, dim_order_, strides_,
            role == kOut ? executorch::runtime::TensorShapeDynamism::DYNAMIC_BOUND
                         : executorch::runtime::TensorShapeDynamism::STATIC),
      tensor_(&impl_) {
  for (int i = 0; i < t.rank; ++i) dim_order_[i] = t.dim_order[i];
  // ExecuTorch's own stride rule, not slicefuzz's: its kernels read with these.
  if (t.rank > 0 &&
      executorch::runtime::dim_order_to_stride(sizes_, dim_order_, t.rank, strides_) !=
          executorch::runtime::Error::Ok)
    ok_ = false;
}

bool EtTensor::sizes_back(Tensor& t) const {
  int64_t sizes[kMaxRank];
  for (int i = 0; i < t.rank; ++i) sizes[i] = tensor_.size(i);
  return resize_tensor(t, sizes);
}

bool EtTensor::data_back(Tensor& t) const {
  // An alias owns no bytes that could bound its sizes: resize unbounded, then
  // take ExecuTorch's pointer and extent.
  Tensor alias = t;
  alias.dynamism = ShapeDynamism::DYNAMIC_BOUND;
  alias.capacity_nbytes = SIZE_MAX;
  if (!sizes_back(alias)) return false;
  alias.data = tensor_.mutable_data_ptr();
  alias.capacity_nbytes = tensor_.nbytes();
  alias.dynamism = t.dynamism;
  t = alias;
  return true;
}

std::string take_log() {
  std::string s;
  s.swap(g_log);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace slicefuzz::et_adapter

// ExecuTorch's platform log hook (weak in runtime/platform/default/posix.cpp):
// collected for the failure message instead of printed, so that a case's report
// carries ExecuTorch's reason and the console stays readable.
extern "C" void et_pal_emit_log_message(et_timestamp_t, et_pal_log_level_t level,
                                        const char* filename, const char*, size_t line,
                                        const char* message, size_t length) {
  std::string& log = slicefuzz::et_adapter::g_log;
  if (log.size() > 4096) return;
  if (!log.empty()) log += "; ";
  const char* base = filename;
  for (const char* p = filename; p && *p; ++p)
    if (*p == '/') base = p + 1;
  log += std::string(message, length) + " [" + (base ? base : "?") + ":" + std::to_string(line) +
         "]";
  (void)level;
}
