#include "vocab/scalar_type.h"

namespace slicefuzz {

namespace {
struct ScalarTypeInfo {
  ScalarType type;
  std::string_view name;
  size_t size;
  bool floating;
};
constexpr ScalarTypeInfo kInfo[kNumScalarTypes] = {
    {ScalarType::Bool, "bool", 1, false},         {ScalarType::Byte, "uint8", 1, false},
    {ScalarType::Char, "int8", 1, false},         {ScalarType::Short, "int16", 2, false},
    {ScalarType::Int, "int32", 4, false},         {ScalarType::Long, "int64", 8, false},
    {ScalarType::Half, "float16", 2, true},       {ScalarType::BFloat16, "bfloat16", 2, true},
    {ScalarType::Float, "float32", 4, true},      {ScalarType::Double, "float64", 8, true},
};
const ScalarTypeInfo& info(ScalarType t) { return kInfo[static_cast<int>(t)]; }
}  // namespace

size_t element_size(ScalarType t) { return info(t).size; }
std::string_view scalar_type_name(ScalarType t) { return info(t).name; }
bool is_floating(ScalarType t) { return info(t).floating; }

std::optional<ScalarType> parse_scalar_type(std::string_view name) {
  for (const auto& i : kInfo)
    if (i.name == name) return i.type;
  return std::nullopt;
}

}  // namespace slicefuzz
