// Finding kinds (DESIGN section 3): stable names used in output lines, reports and
// dedup signatures.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace slicefuzz {

enum class FindingKind {
  VALUE_MISMATCH,
  ERROR_MISMATCH,
  UNSOUND_REWRITE,
  MISSED_REWRITE,
  ALIAS_VIOLATION,
  PLAN_VIOLATION,
  SANITIZER,
  CRASH,
  TIMEOUT,
  PARSE_ERROR,
  ORACLE_DISAGREEMENT,
  MEMORY_REGRESSION,
  PROTOCOL_ERROR,  // an out-of-process worker answered something that is not the protocol
};

std::string_view finding_kind_name(FindingKind k);
std::optional<FindingKind> parse_finding_kind(std::string_view name);

struct Finding {
  FindingKind kind = FindingKind::VALUE_MISMATCH;
  std::string path;     // "copy", "rewrite", "oracle", "parser", ...
  int op = -1;          // index into Case::ops, -1 when not about one op
  std::string message;  // expected vs actual, in a kernel author's words
  // A finding the backend declared it tolerates (counted, not failed).
  bool tolerated = false;
  // The system under test refused (raised an error) where the oracle ran: if the
  // case lies outside the backend's declared limits, this is UNSUPPORTED.
  bool sut_refused = false;
};

}  // namespace slicefuzz
