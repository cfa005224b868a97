#include "harness/run/plan_codec.h"

#include <sstream>

namespace slicefuzz {

namespace {

void encode_memory(std::ostringstream& o, const char* tag, const MemoryPlan& m) {
  o << tag << ' ' << m.arena_bytes << ' ' << m.end_step << ' ' << m.tensors.size() << '\n';
  for (const TensorPlacement& t : m.tensors)
    o << t.value << ' ' << t.root << ' ' << t.offset << ' ' << t.nbytes << ' ' << t.first_step
      << ' ' << t.last_step << ' ' << t.own_last_step << ' ' << t.constant << '\n';
}

bool decode_memory(std::istringstream& in, const char* tag, MemoryPlan& m) {
  std::string got;
  size_t n = 0;
  if (!(in >> got >> m.arena_bytes >> m.end_step >> n) || got != tag || n > 100000) return false;
  m.tensors.resize(n);
  for (TensorPlacement& t : m.tensors)
    if (!(in >> t.value >> t.root >> t.offset >> t.nbytes >> t.first_step >> t.last_step >>
          t.own_last_step >> t.constant))
      return false;
  return true;
}

}  // namespace

std::string encode_plans(const PlansForExplain& p) {
  std::ostringstream o;
  const RewritePlan& rw = p.rewrite;
  o << "values " << rw.root.size() << '\n';
  for (size_t v = 0; v < rw.root.size(); ++v) o << rw.root[v] << ' ' << rw.delta_bytes[v] << '\n';
  o << "decisions " << rw.decisions.size() << '\n';
  for (const RewriteDecision& d : rw.decisions)  // reason last: it is free text
    o << d.op << ' ' << d.value << ' ' << d.alias << ' ' << d.rule << ' ' << d.reason << '\n';
  encode_memory(o, "plan", p.plan);
  encode_memory(o, "copy_plan", p.copy_plan);
  return o.str();
}

bool decode_plans(const std::string& text, PlansForExplain& p) {
  std::istringstream in(text);
  std::string tag;
  size_t n = 0;
  if (!(in >> tag >> n) || tag != "values" || n > 100000) return false;
  p.rewrite.root.resize(n);
  p.rewrite.delta_bytes.resize(n);
  for (size_t v = 0; v < n; ++v)
    if (!(in >> p.rewrite.root[v] >> p.rewrite.delta_bytes[v])) return false;
  if (!(in >> tag >> n) || tag != "decisions" || n > 100000) return false;
  p.rewrite.decisions.resize(n);
  for (RewriteDecision& d : p.rewrite.decisions) {
    if (!(in >> d.op >> d.value >> d.alias >> d.rule)) return false;
    in.get();  // the space before the reason
    std::getline(in, d.reason);
  }
  return decode_memory(in, "plan", p.plan) && decode_memory(in, "copy_plan", p.copy_plan);
}

}  // namespace slicefuzz
