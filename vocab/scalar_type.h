// The dtypes slicing supports, named as in ExecuTorch (ScalarType) and in .case files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace slicefuzz {

enum class ScalarType : uint8_t {
  Bool,
  Byte,      // uint8
  Char,      // int8
  Short,     // int16
  Int,       // int32
  Long,      // int64
  Half,      // float16
  BFloat16,  // bfloat16
  Float,     // float32
  Double,    // float64
};

inline constexpr int kNumScalarTypes = 10;

size_t element_size(ScalarType t);
// The .case spelling: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64.
std::string_view scalar_type_name(ScalarType t);
std::optional<ScalarType> parse_scalar_type(std::string_view name);
bool is_floating(ScalarType t);

}  // namespace slicefuzz
