#include "backends/backend.h"

namespace slicefuzz {

// Every registrar the build knows (CMake's SLICEFUZZ_BACKEND_REGISTRARS).
#define SLICEFUZZ_REGISTRAR(fn) void fn(std::vector<Backend>& out);
#include "backend_registrars.inc"
#undef SLICEFUZZ_REGISTRAR

namespace {
std::vector<Backend> make_backends() {
  std::vector<Backend> b;
  Backend reference{"reference", "the project's own kernels, pass and planner (default); "
                    "aliases checked both as et_slice and as placed by the plan", {}};
  reference.alias_mode = AliasMode::Both;
  b.push_back(reference);
  Backend conservative{"conservative",
                       "sound but incomplete pass: only step-1 slices of the outermost dim "
                       "(tolerates MISSED_REWRITE)", {}};
  conservative.pass = [](const Case& c, const ProgramInfo& info, const PassContext& ctx) {
    PassRules rules;
    rules.outermost_only = true;
    return rewrite_with_rules(c, info, rules, ctx);
  };
  conservative.tolerates_missed_rewrite = true;
  b.push_back(conservative);
#define SLICEFUZZ_REGISTRAR(fn) fn(b);
#include "backend_registrars.inc"
#undef SLICEFUZZ_REGISTRAR
  return b;
}
}  // namespace

const std::vector<Backend>& all_backends() {
  static const std::vector<Backend> backends = make_backends();
  return backends;
}

std::vector<UnavailableBackend>& unavailable_backends() {
  static std::vector<UnavailableBackend> list;
  return list;
}

const Backend* find_backend(std::string_view name) {
  for (const Backend& b : all_backends())
    if (b.name == name) return &b;
  return nullptr;
}

}  // namespace slicefuzz
