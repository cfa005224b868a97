// ExecuTorch's EValue, reduced to the kinds a prim op stack holds here.
#pragma once
#include <cstdint>

#include "kernels/tensor.h"

namespace slicefuzz {

struct EValue {
  enum class Tag : uint8_t { None, Int, Tensor };
  Tag tag = Tag::None;
  int64_t int_value = 0;
  slicefuzz::Tensor* tensor = nullptr;

  static EValue none() { return EValue{}; }
  static EValue from_int(int64_t v) { return EValue{Tag::Int, v, nullptr}; }
  static EValue from_tensor(slicefuzz::Tensor* t) { return EValue{Tag::Tensor, 0, t}; }
  bool is_none() const { return tag == Tag::None; }
  bool is_int() const { return tag == Tag::Int; }
  bool is_tensor() const { return tag == Tag::Tensor && tensor != nullptr; }
};

}  // namespace slicefuzz
