#include "backends/backend.h"

namespace slicefuzz {

namespace {
std::vector<Backend> make_backends() {
  std::vector<Backend> b;
  b.push_back(Backend{"reference", "the project's own kernels, pass and planner (default)", {}});
  return b;
}
}  // namespace

const std::vector<Backend>& all_backends() {
  static const std::vector<Backend> backends = make_backends();
  return backends;
}

const Backend* find_backend(std::string_view name) {
  for (const Backend& b : all_backends())
    if (b.name == name) return &b;
  return nullptr;
}

}  // namespace slicefuzz
