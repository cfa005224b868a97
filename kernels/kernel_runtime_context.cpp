#include "kernels/kernel_runtime_context.h"

#include <cstdarg>
#include <cstdio>

namespace slicefuzz {

std::string format_msg(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

}  // namespace slicefuzz
