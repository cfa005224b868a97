// The judge's rules on an op's operands beyond their layouts (judge_layouts.h
// declares them): which dtypes an op takes and gives, and when copy_, add and mul
// of two tensors refuse their second operand (slicefuzz programs neither cast nor
// broadcast).
#include <string>
#include <vector>

#include "oracles/judge_layouts.h"

namespace slicefuzz::judge {

namespace {
std::string bracketed(const std::vector<int64_t>& sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}
}  // namespace

std::string copy_error(const Layout& target, const Layout& src) {
  if (target.sizes == src.sizes) return {};
  return "copy_: sizes " + bracketed(src.sizes) + " and " + bracketed(target.sizes) + " differ";
}

std::string other_operand_error(OpKind kind, const Layout& src, ScalarType src_dtype, const Layout& other,
                                ScalarType other_dtype) {
  if (kind != OpKind::AddTensor && kind != OpKind::MulTensor) return {};
  const std::string name = op_kind_name(kind);
  if (src_dtype != other_dtype)
    return name + ": dtypes differ (" + std::string(scalar_type_name(src_dtype)) + " and " + std::string(scalar_type_name(other_dtype)) +
           "; slicefuzz programs do not cast)";
  if (src.sizes != other.sizes)
    return name + ": sizes " + bracketed(src.sizes) + " and " + bracketed(other.sizes) +
           " differ (slicefuzz programs do not broadcast)";
  return {};
}

std::string copy_dtype_error(ScalarType target, ScalarType src) {
  if (target == src) return {};
  return "copy_: dtypes differ (" + std::string(scalar_type_name(src)) + " into " +
         std::string(scalar_type_name(target)) + "; slicefuzz programs do not cast)";
}

std::string op_dtype_error(OpKind kind, ScalarType src) {
  switch (kind) {
    case OpKind::Relu:
      if (src == ScalarType::Bool) return "relu: Boolean inputs not supported for relu";
      if (src == ScalarType::Half) return "relu: float16 is not supported (torch 1.13's CPU clamp_min has no Half kernel)";
      return {};
    case OpKind::Sigmoid:
      if (src == ScalarType::Half) return "sigmoid: float16 is not supported (torch 1.13's \"sigmoid_cpu\" has no Half kernel)";
      return {};
    case OpKind::Gelu:
      if (src == ScalarType::Float || src == ScalarType::Double || src == ScalarType::BFloat16) return {};
      return "gelu: " + std::string(scalar_type_name(src)) +
             " is not supported (torch 1.13's CPU GeluKernelImpl takes float32, float64 and bfloat16)";
    default: return {};
  }
}

ScalarType op_result_dtype(OpKind kind, ScalarType src) {
  if (kind == OpKind::Sigmoid && !is_floating(src)) return ScalarType::Float;
  return src;
}

}  // namespace slicefuzz::judge
