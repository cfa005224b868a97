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

}  // namespace slicefuzz
