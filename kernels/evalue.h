// ExecuTorch's EValue, reduced to the kinds a prim op stack holds here.
#pragma once
#include <cstdint>

#include "kernels/tensor.h"

namespace slicefuzz {

struct EValue {
  enum class Tag : uint8_t { None, Int, Tensor, IntList };
  Tag tag = Tag::None;
  int64_t int_value = 0;
  slicefuzz::Tensor* tensor = nullptr;
  const int64_t* list = nullptr;  // IntList (et_view's sizes); not owned
  size_t list_size = 0;

  static EValue none() { return EValue{}; }
  static EValue from_int(int64_t v) { return EValue{Tag::Int, v, nullptr}; }
  static EValue from_tensor(slicefuzz::Tensor* t) { return EValue{Tag::Tensor, 0, t}; }
  static EValue from_int_list(const int64_t* p, size_t n) {
    return EValue{Tag::IntList, 0, nullptr, p, n};
  }
  bool is_int_list() const { return tag == Tag::IntList; }
  bool is_none() const { return tag == Tag::None; }
  bool is_int() const { return tag == Tag::Int; }
  bool is_tensor() const { return tag == Tag::Tensor && tensor != nullptr; }
};

}  // namespace slicefuzz
