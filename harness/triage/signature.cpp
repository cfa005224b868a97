#include "harness/triage/signature.h"

#include <cctype>
#include <cstring>
#include <set>

#include "harness/run/runner.h"
#include "oracles/analysis.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {

// The dim order of the value op k reads (the one it writes, for add_ and copy_)
// as the judge's analysis lays it out (every value has its own: a clone into
// channels-last of a contiguous input is channels-last); the first input's
// where the analysis cannot say. In a version-1 case every value has the
// input's dim order.
std::vector<int> dim_order_under(const Case& c, int k) {
  ProgramInfo info;
  AnalysisError err;
  if (analyze(c, int64_t{1} << 62, info, err) && k < static_cast<int>(info.ops.size())) {
    const OpInfo& oi = info.ops[k];
    const int v = oi.target >= 0 ? oi.target : oi.src;
    if (v >= 0 && info.values[v].known) return info.values[v].dim_order;
  }
  return c.inputs[0].dim_order;
}

// Where a source file lies inside the system under test, or npos.
size_t sut_dir(const std::string& file) {
  // vocab/ (the parser and the IR the executors walk) is no side's, but a crash
  // in it is one of the harness's own that must keep a location.
  for (const char* dir : {"/kernels/", "/program/", "/backends/", "/executorch/", "/vocab/"}) {
    const size_t at = file.rfind(dir);
    if (at != std::string::npos) return at + 1;
  }
  return std::string::npos;
}

struct Frame {
  std::string function, file;  // file relative to the SUT dir, with :line
};

std::vector<Frame> parse_frames(const std::string& log) {
  std::vector<Frame> frames;
  size_t pos = 0;
  while (pos < log.size()) {
    size_t eol = log.find('\n', pos);
    if (eol == std::string::npos) eol = log.size();
    const std::string line = log.substr(pos, eol - pos);
    pos = eol + 1;
    // "    #1 0x55ab in slicefuzz::strided_copy(unsigned char*, ...) /src/kernels/util/strided_copy.cpp:65:7"
    const size_t hash = line.find_first_not_of(' ');
    if (hash == std::string::npos || line[hash] != '#') continue;
    const size_t in = line.find(" in ");
    const size_t space = line.rfind(' ');
    if (in == std::string::npos || space <= in) continue;
    std::string file = line.substr(space + 1);
    const size_t d = sut_dir(file);
    if (d == std::string::npos) continue;
    file = file.substr(d);
    if (const size_t col = file.rfind(':'); col != std::string::npos && file.find(':') != col)
      file.erase(col);  // drop the column, keep the line
    std::string fn = line.substr(in + 4, space - in - 4);
    // Function name without namespace, parameters or template arguments.
    int depth = 0;
    std::string bare;
    for (char ch : fn) {
      if (ch == '<' || ch == '(') ++depth;
      if (depth == 0) bare += ch;
      if ((ch == '>' || ch == ')') && depth > 0) --depth;
    }
    if (const size_t ns = bare.rfind("::"); ns != std::string::npos) bare = bare.substr(ns + 2);
    frames.push_back({bare, file});
  }
  return frames;
}

// UBSan without a stack trace: "/src/backends/faulty.cpp:53:58: runtime error: ..."
std::string ubsan_location(const std::string& log) {
  const size_t at = log.find(": runtime error:");
  if (at == std::string::npos) return "";
  size_t b = log.rfind('\n', at);
  std::string loc = log.substr(b == std::string::npos ? 0 : b + 1, at - (b == std::string::npos ? 0 : b + 1));
  const size_t d = sut_dir(loc);
  if (d == std::string::npos) return "";
  loc = loc.substr(d);
  if (const size_t col = loc.rfind(':'); col != std::string::npos && loc.find(':') != col) loc.erase(col);
  return loc;
}

}  // namespace

std::vector<std::string> sut_frames(const std::string& log) {
  std::vector<std::string> out;
  for (const Frame& f : parse_frames(log)) out.push_back(f.function + " " + f.file);
  if (out.empty())
    if (std::string loc = ubsan_location(log); !loc.empty()) out.push_back("? " + loc);
  return out;
}

// The path a dying worker wrote after kWorkerPathNote (its last such line), or
// None when it wrote no word of the paths' table.
static FindingPath worker_path_note(const std::string& log) {
  const size_t at = log.rfind(kWorkerPathNote);
  FindingPath path = FindingPath::None;
  if (at == std::string::npos) return path;
  const size_t b = at + std::strlen(kWorkerPathNote);
  const size_t e = log.find('\n', b);
  if (!parse_word(std::string_view(log).substr(b, e == std::string::npos ? std::string::npos : e - b), path))
    return FindingPath::None;
  return path;
}

std::string finding_signature(const Case& c, const CaseSummary& f) {
  std::string s(finding_kind_name(f.kind));
  // A whole-program worker that diagnosed its own wrong value, or its rewritten
  // graph raising, names the change of its pass to blame: where the value
  // surfaces (the op below) or the stack is no root cause.
  if ((f.kind == FindingKind::VALUE_MISMATCH || f.kind == FindingKind::CRASH) && !f.cause.empty())
    return s + ":worker:" + f.cause;
  if (f.kind == FindingKind::SANITIZER || f.kind == FindingKind::CRASH ||
      f.kind == FindingKind::TIMEOUT) {
    // The worker died: the path is the one it said it was running as it died
    // (runner.h, kWorkerPathNote); without that note (a build without the
    // sanitizers' death callback), which executor is on the stack. The location
    // is its top frame inside the system under test, without the line number
    // (lines move with every edit; the report shows them).
    const std::vector<Frame> frames = parse_frames(f.worker_log);
    FindingPath path = worker_path_note(f.worker_log);
    for (const Frame& fr : frames) {
      if (path != FindingPath::None) break;
      if (fr.function == "run_rewrite_path") path = FindingPath::Rewrite;
      else if (fr.function == "run_copy_path") path = FindingPath::Copy;
    }
    if (path == FindingPath::None) path = FindingPath::Unknown;
    // An abort names the check that fired, not the abort machinery: when the top
    // frame is ExecuTorch's platform abort, skip it and the inline tensor
    // accessors (portable_type) whose ET_CHECK called it.
    const Frame* top = frames.empty() ? nullptr : &frames[0];
    auto in = [](const Frame& fr, const char* dir) { return fr.file.find(dir) != std::string::npos; };
    if (top && in(*top, "runtime/platform/"))
      for (const Frame& fr : frames)
        if (!in(fr, "runtime/platform/") && !in(fr, "runtime/core/portable_type/")) {
          top = &fr;
          break;
        }
    std::string where;
    if (top) {
      where = top->function + "@" + top->file.substr(0, top->file.rfind(':'));
    } else if (std::string loc = ubsan_location(f.worker_log); !loc.empty()) {
      where = "@" + loc;  // no function known: the line is all there is
    } else {
      where = "no-sut-frame";
    }
    return s + ":" + finding_path_word(path) + ":" + where;
  }
  const Op* op = f.op >= 0 && f.op < static_cast<int>(c.ops.size()) ? &c.ops[f.op] : nullptr;
  s += ":";
  s += op ? op_kind_name(op->kind) : "program";
  if (f.path != FindingPath::None) s += std::string(":") + finding_path_word(f.path);  // as data, never read from the message
  // The few words that separate different causes of one kind: which eligibility
  // rule an unsound rewrite broke, which plan invariant failed. They are the
  // judge's own categories (oracles/eligibility.h, oracles/plan_check.h), carried
  // as data from where the judge decides; no message is read for them.
  if (!f.rule.empty()) s += ":" + std::string(f.rule.word());
  // Wrong values on a non-default dim order and on a contiguous tensor are
  // different causes in every kernel seen so far (ExecuTorch's channels-last
  // slice_copy among them): the one feature kept, so that a known layout bug
  // never hides a new contiguous one.
  // The layout is the one of the value the op reads (or writes in place), which
  // clone(dim_order=...) may have changed from the input's.
  if (f.kind == FindingKind::VALUE_MISMATCH && op) {
    const std::vector<int> order = dim_order_under(c, f.op);
    bool identity = true;
    for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == static_cast<int>(i);
    s += identity ? ":contiguous" : ":dim-order";
  }
  return s;
}

std::string root_cause_signature(const Case& c, const CaseSummary& f, const CaseRunner& run) {
  if (f.kind != FindingKind::VALUE_MISMATCH || !run || !f.cause.empty()) return finding_signature(c, f);
  const FindingPath path = f.path;
  std::set<std::string> names;
  for (const InputDecl& in : c.inputs) names.insert(in.name);
  for (const Op& op : c.ops) names.insert(op.result);
  std::string probe = "probe";
  while (names.count(probe)) probe += "_";
  // One probe per op (at most 64: artifacts can hold 256 ops, and the culprit is
  // nearly always early after minimisation), including the in-place ops after the
  // one that defined the output: an add_ that computes the wrong value is to blame
  // for it, not the slice that made the tensor.
  std::vector<Case> probes;
  std::vector<int> probe_op;
  for (int j = 0; j < static_cast<int>(c.ops.size()) && probes.size() < 64; ++j) {
    const Op& op = c.ops[j];
    const std::string& v = op.result.empty() ? op.target : op.result;
    Case p = c;
    p.ops.resize(static_cast<size_t>(j) + 1);
    if (path == FindingPath::Copy) {
      p.outputs = {v};  // the copy path has no aliasing to preserve
    } else {
      // A program output is never aliased: read the value through a clone so
      // the rewrite the finding depends on can still happen.
      Op clone;
      clone.kind = OpKind::Clone;
      clone.result = probe;
      clone.src = v;
      p.ops.push_back(clone);
      p.outputs = {probe};
    }
    probes.push_back(std::move(p));
    probe_op.push_back(j);
  }
  const std::vector<CaseSummary> results = probes.empty() ? std::vector<CaseSummary>{} : run(probes);
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].failed || results[i].kind != FindingKind::VALUE_MISMATCH) continue;
    CaseSummary blamed = f;
    blamed.op = probe_op[i];
    return finding_signature(c, blamed);
  }
  return finding_signature(c, f);
}

std::string signature_slug(const std::string& signature) {
  std::string out;
  for (char ch : signature)
    out += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') ? ch : '-';
  return out;
}

}  // namespace slicefuzz
