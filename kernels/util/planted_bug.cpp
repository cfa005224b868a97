#include "kernels/util/planted_bug.h"

#if SLICEFUZZ_PLANTED_BUGS
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace slicefuzz {

namespace {
struct PlantedName {
  PlantedBug bug;
  const char* name;
};
constexpr PlantedName kPlanted[] = {
#define SLICEFUZZ_PLANTED_ROW(id, name, what) {PlantedBug::id, name},
    SLICEFUZZ_PLANTED_BUG_LIST(SLICEFUZZ_PLANTED_ROW)
#undef SLICEFUZZ_PLANTED_ROW
};

// -1: none; read once (workers inherit the environment of the CLI).
int active_bug() {
  static const int active = [] {
    const char* env = std::getenv("SLICEFUZZ_PLANTED_BUG");
    if (!env || !*env) return -1;
    for (const PlantedName& p : kPlanted)
      if (std::strcmp(p.name, env) == 0) return static_cast<int>(p.bug);
    std::fprintf(stderr, "SLICEFUZZ_PLANTED_BUG=%s names no planted bug\n", env);
    std::abort();
  }();
  return active;
}
}  // namespace

bool planted(PlantedBug b) { return active_bug() == static_cast<int>(b); }

}  // namespace slicefuzz
#endif
