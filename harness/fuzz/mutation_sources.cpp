#include "harness/fuzz/mutation_sources.h"

#include <utility>

#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {

const std::optional<Case>& MutationSources::parsed(std::string_view text) {
  if (pending_ && pending_ran_ && text == pending_text_) {
    // The run of the printed mutant parsed this very text: keep what it said.
    if (entries_.size() >= kMaxEntries) entries_.clear();
    auto it = entries_.insert_or_assign(std::move(pending_text_),
                                        pending_parse_ok_ ? std::optional<Case>(std::move(pending_case_))
                                                          : std::nullopt)
                  .first;
    pending_ = false;
    ++stats_.printed_taken;
    return it->second;
  }
  if (auto it = entries_.find(std::string(text)); it != entries_.end()) {
    ++stats_.hits;
    return it->second;
  }
  ++stats_.misses;
  if (entries_.size() >= kMaxEntries) entries_.clear();
  ParseResult p = parse_case(text, "fuzz-input", byte_budget_);
  return entries_.emplace(std::string(text), p.ok ? std::optional<Case>(std::move(p.c)) : std::nullopt)
      .first->second;
}

void MutationSources::printed(std::string text, Case c) {
  canonicalize(c);  // what the printer wrote, and so what a parse would give back
  pending_text_ = std::move(text);
  pending_case_ = std::move(c);
  pending_ = true;
  pending_ran_ = false;
}

void MutationSources::ran(std::string_view text, bool parse_ok) {
  if (!pending_ || pending_ran_ || text != pending_text_) return;
  pending_ran_ = true;
  pending_parse_ok_ = parse_ok;
}

}  // namespace slicefuzz
