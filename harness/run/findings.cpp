#include "harness/run/findings.h"

namespace slicefuzz {

std::string_view finding_kind_name(FindingKind k) {
  const int i = static_cast<int>(k);
  return i >= 0 && i < kNumFindingKinds ? kFindingKindNames[i] : "UNKNOWN_FINDING";
}

std::optional<FindingKind> parse_finding_kind(std::string_view name) {
  for (int i = 0; i < kNumFindingKinds; ++i)
    if (kFindingKindNames[i] == name) return static_cast<FindingKind>(i);
  return std::nullopt;
}

namespace {
constexpr std::string_view kShadowPrefix = "provenance-shadow/";
}

std::string CheckId::word() const {
  return (shadow ? std::string(kShadowPrefix) : std::string()) + runner_check_word(check);
}

std::optional<CheckId> CheckId::parse(std::string_view word) {
  CheckId id;
  if (word.substr(0, kShadowPrefix.size()) == kShadowPrefix) {
    id.shadow = true;
    word.remove_prefix(kShadowPrefix.size());
  }
  if (!parse_word(word, id.check)) return std::nullopt;
  return id;
}

}  // namespace slicefuzz
