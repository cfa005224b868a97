// ASan manual poisoning of arena regions; compiles to nothing without ASan.
#pragma once
#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLICEFUZZ_HAS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SLICEFUZZ_HAS_ASAN 1
#endif

#ifdef SLICEFUZZ_HAS_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace slicefuzz {

inline void poison_region(const void* p, size_t n) {
#ifdef SLICEFUZZ_HAS_ASAN
  if (n) ASAN_POISON_MEMORY_REGION(p, n);
#else
  (void)p, (void)n;
#endif
}

inline void unpoison_region(const void* p, size_t n) {
#ifdef SLICEFUZZ_HAS_ASAN
  if (n) ASAN_UNPOISON_MEMORY_REGION(p, n);
#else
  (void)p, (void)n;
#endif
}

inline constexpr bool kArenaIsPoisoned =
#ifdef SLICEFUZZ_HAS_ASAN
    true;
#else
    false;
#endif

}  // namespace slicefuzz
