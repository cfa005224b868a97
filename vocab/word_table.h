// One way to declare a table of named categories (finding paths, runner checks,
// the judge's eligibility rules and plan invariants): an X-macro list of
// (Enumerator, "word") rows becomes the enum, the function that gives each
// value's word (the word reports and root-cause signatures carry), and
// parse_word, its inverse (for what crosses a process boundary as text). The
// enum and its words are never apart.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#define SLICEFUZZ_WORD_ENUM_(e, word) e,
#define SLICEFUZZ_WORD_TEXT_(e, word) word,
#define SLICEFUZZ_DEFINE_WORDS(Enum, word_of, LIST)                                        \
  enum class Enum : uint8_t { LIST(SLICEFUZZ_WORD_ENUM_) };                                \
  inline constexpr const char* const k##Enum##Words[] = {LIST(SLICEFUZZ_WORD_TEXT_)};      \
  inline constexpr size_t k##Enum##Count = sizeof k##Enum##Words / sizeof k##Enum##Words[0]; \
  /* A value outside the table (a corrupt answer) has the word "?", never a wild read. */ \
  inline const char* word_of(Enum value) {                                                 \
    const size_t i = static_cast<size_t>(value);                                           \
    return i < k##Enum##Count ? k##Enum##Words[i] : "?";                                   \
  }                                                                                        \
  inline bool parse_word(std::string_view word, Enum& out) {                               \
    for (size_t i = 0; i < k##Enum##Count; ++i)                                            \
      if (word == k##Enum##Words[i]) {                                                     \
        out = static_cast<Enum>(i);                                                        \
        return true;                                                                       \
      }                                                                                    \
    return false;                                                                          \
  }
