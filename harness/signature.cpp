#include "harness/signature.h"

#include <cctype>

namespace slicefuzz {

std::string finding_signature(const Case& c, const CaseSummary& f) {
  std::string s(finding_kind_name(f.kind));
  const Op* op = f.op >= 0 && f.op < static_cast<int>(c.ops.size()) ? &c.ops[f.op] : nullptr;
  s += ":";
  s += !op ? "program"
           : op->kind == OpKind::SliceCopy ? "slice_copy"
           : op->kind == OpKind::Clone     ? "clone"
           : op->kind == OpKind::Add       ? "add_"
                                           : "copy_";
  s += ":dim_order=";
  s += c.dim_order.empty() ? "identity" : "permuted";
  if (op && op->kind == OpKind::SliceCopy) s += op->step == 1 ? ":step=1" : ":step=strided";
  s += ":rank=" + std::to_string(c.sizes.size() > 4 ? 5 : c.sizes.size());
  return s;
}

std::string signature_slug(const std::string& signature) {
  std::string out;
  for (char ch : signature)
    out += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') ? ch : '-';
  return out;
}

}  // namespace slicefuzz
