// ExecuTorch's KernelRuntimeContext, reduced: a kernel that rejects its arguments
// records a failure (with a human-readable reason) and returns without writing.
#pragma once
#include <string>

namespace slicefuzz {

enum class Error { Ok, InvalidArgument, NotSupported, MemoryAllocationFailed };

class KernelRuntimeContext {
 public:
  void fail(Error e, std::string message) {
    if (error_ == Error::Ok) {  // keep the first reason
      error_ = e;
      message_ = std::move(message);
    }
  }
  Error failure_state() const { return error_; }
  bool ok() const { return error_ == Error::Ok; }
  const std::string& message() const { return message_; }
  void reset() {
    error_ = Error::Ok;
    message_.clear();
  }

 private:
  Error error_ = Error::Ok;
  std::string message_;
};

// ET_KERNEL_CHECK_MSG in spirit: on a false condition, fail the context and return.
#define SF_KERNEL_CHECK_MSG(ctx, cond, err, retval, ...)                   \
  do {                                                                     \
    if (!(cond)) {                                                         \
      (ctx).fail(::slicefuzz::Error::err, ::slicefuzz::format_msg(__VA_ARGS__)); \
      return retval;                                                       \
    }                                                                      \
  } while (0)

std::string format_msg(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace slicefuzz
