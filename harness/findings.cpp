#include "harness/findings.h"

namespace slicefuzz {

namespace {
constexpr std::string_view kNames[] = {
    "VALUE_MISMATCH",  "ERROR_MISMATCH", "UNSOUND_REWRITE", "MISSED_REWRITE",
    "ALIAS_VIOLATION", "PLAN_VIOLATION", "SANITIZER",       "CRASH",
    "TIMEOUT",         "PARSE_ERROR",    "ORACLE_DISAGREEMENT", "MEMORY_REGRESSION",
    "PROTOCOL_ERROR",
};
}  // namespace

std::string_view finding_kind_name(FindingKind k) { return kNames[static_cast<int>(k)]; }

std::optional<FindingKind> parse_finding_kind(std::string_view name) {
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (kNames[i] == name) return static_cast<FindingKind>(i);
  return std::nullopt;
}

}  // namespace slicefuzz
