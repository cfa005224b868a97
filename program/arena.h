// One execution's planned memory under ASan: every byte not owned by a live
// tensor is poisoned. Shared by the executors of the rewrite path (the
// reference's RewriteMethod, and a backend's own, e.g. executorch-runtime's).
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>

#include "program/poison.h"
#include "vocab/plan_types.h"

namespace slicefuzz {

// Owns one execution's arena and keeps the poisoning schedule: a region is
// addressable exactly from its first step to its (extended) last step.
class Arena {
 public:
  explicit Arena(int64_t bytes) : bytes_(static_cast<size_t>(bytes)), data_(new uint8_t[bytes_]) {
    poison_all();
  }
  ~Arena() { unpoison_region(data_.get(), bytes_); }  // hand clean memory back to delete[]
  uint8_t* base() const { return data_.get(); }
  size_t size() const { return bytes_; }
  // A region opens with a fixed pattern, so that reading bytes nobody wrote gives
  // the same (wrong) values on every run and a finding's text is reproducible.
  void open(const TensorPlacement& t) {
    unpoison_region(base() + t.offset, t.nbytes);
    std::memset(base() + t.offset, 0xA5, static_cast<size_t>(t.nbytes));
  }
  void close(const TensorPlacement& t) { poison_region(base() + t.offset, t.nbytes); }
  void poison_all() { poison_region(data_.get(), bytes_); }
  // After its execution (the outputs were copied out) nothing may touch it again:
  // poisoned for ASan, and overwritten first so that without ASan a pointer kept
  // into it reads wrong values rather than the first execution's right ones.
  void retire() {
    unpoison_region(data_.get(), bytes_);
    std::memset(data_.get(), 0x5A, bytes_);
    poison_all();
  }

 private:
  size_t bytes_;
  std::unique_ptr<uint8_t[]> data_;
};

}  // namespace slicefuzz
