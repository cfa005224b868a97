// One way to declare a table of the judge's categories (eligibility rules, plan
// invariants): an X-macro list of (Enumerator, "word") rows becomes the enum and
// the function that gives each value's word, the word a root-cause signature
// carries. One table per category, the enum and its words never apart.
#pragma once
#include <cstddef>
#include <cstdint>

#define SLICEFUZZ_JUDGE_WORD_ENUM_(e, word) e,
#define SLICEFUZZ_JUDGE_WORD_TEXT_(e, word) word,
#define SLICEFUZZ_DEFINE_JUDGE_WORDS(Enum, word_of, LIST)                  \
  enum class Enum : uint8_t { LIST(SLICEFUZZ_JUDGE_WORD_ENUM_) };         \
  inline const char* word_of(Enum value) {                                \
    static const char* const kWords[] = {LIST(SLICEFUZZ_JUDGE_WORD_TEXT_)}; \
    return kWords[static_cast<size_t>(value)];                            \
  }
