#include "harness/run/case_job.h"

#include <cstdlib>

#include <sstream>

#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {

namespace {
// Messages travel on one line each.
std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return s;
}
}  // namespace

CaseSummary summarize(const CaseReport& report) {
  CaseSummary s;
  if (const Finding* f = report.first_failure()) {
    s.failed = true;
    s.kind = f->kind;
    s.message = std::string(finding_path_word(f->path)) + " path: " + f->message;
    s.path = f->path;
    s.op = f->op;
    s.cause = f->cause;
    s.rule = f->rule;
    s.check = f->check;
    s.execution = f->execution;
    s.off_schedule = f->off_schedule;
  }
  for (const Finding& f : report.findings) s.tolerated += f.tolerated;
  s.slices = report.slices;
  s.rewritten = report.rewritten;
  s.arena_bytes = report.arena_bytes;
  s.copy_arena_bytes = report.copy_arena_bytes;
  s.rules = report.rules;
  s.decided = report.decided;
  s.unsupported = report.unsupported;
  s.executions = report.executions;
  return s;
}

std::string encode_summary(const CaseSummary& s) {
  std::ostringstream o;
  o << s.failed << ' ' << static_cast<int>(s.kind) << ' ' << s.op << ' ' << s.slices << ' ' << s.rewritten << ' '
    << s.tolerated << ' ' << s.arena_bytes << ' ' << s.copy_arena_bytes << ' ' << s.rules.size()
    << '\n'
    << one_line(s.message) << '\n' << one_line(s.unsupported) << '\n';
  for (const std::string& r : s.rules) o << one_line(r) << '\n';
  o << s.decided.size() << '\n';
  for (const OpDecision& d : s.decided) o << d.alias << ' ' << one_line(d.op_kind) << '\n';
  o << "cause " << one_line(s.cause) << '\n';
  o << "rule " << s.rule.word() << '\n';
  o << "path " << finding_path_word(s.path) << '\n';
  o << "check " << s.check.word() << '\n';
  if (s.execution >= 0) o << "execution " << s.execution << '\n';
  if (s.executions > 0) o << "executions " << s.executions << '\n';
  if (!s.off_schedule.empty()) {
    o << "off_schedule";
    for (int64_t v : s.off_schedule) o << ' ' << v;
    o << '\n';
  }
  return o.str();
}

CaseSummary decode_outcome(const JobOutcome& outcome) {
  CaseSummary s;
  // A dead worker: the kind says how it died, the message what it printed.
  auto died = [&](FindingKind kind) {
    s.failed = true;
    s.kind = kind;
    s.message = "worker: " + outcome.detail;
    s.worker_log = outcome.log;
    return s;
  };
  switch (outcome.status) {
    case JobOutcome::Status::Ok: break;
    case JobOutcome::Status::Sanitizer: return died(FindingKind::SANITIZER);
    case JobOutcome::Status::Crash: return died(FindingKind::CRASH);
    case JobOutcome::Status::Timeout: return died(FindingKind::TIMEOUT);
  }
  std::istringstream in(outcome.text);
  int kind = 0;
  size_t nreasons = 0;
  in >> s.failed >> kind >> s.op >> s.slices >> s.rewritten >> s.tolerated >> s.arena_bytes >>
      s.copy_arena_bytes >> nreasons;
  s.kind = static_cast<FindingKind>(kind);
  in.ignore(1);
  std::getline(in, s.message);
  std::getline(in, s.unsupported);
  for (size_t i = 0; i < nreasons; ++i) {
    std::string r;
    std::getline(in, r);
    s.rules.push_back(r);
  }
  size_t ndecided = 0;
  if (in >> ndecided) {
    in.ignore(1);
    for (size_t i = 0; i < ndecided && in; ++i) {
      OpDecision d;
      in >> d.alias;
      in.ignore(1);
      std::getline(in, d.op_kind);
      s.decided.push_back(std::move(d));
    }
  }
  // Then "KEY VALUE" lines, each optional, in any order.
  for (std::string line; std::getline(in, line);) {
    const size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "cause") s.cause = value;
    // A word of no table (a worker of another build): left empty, never guessed.
    else if (key == "rule") s.rule = BrokenRule::parse(value).value_or(BrokenRule{});
    else if (key == "path") {
      if (!parse_word(value, s.path)) s.path = FindingPath::Unknown;
    } else if (key == "check") s.check = CheckId::parse(value).value_or(CheckId{});
    else if (key == "execution") s.execution = std::atoi(value.c_str());
    else if (key == "executions") s.executions = std::atoi(value.c_str());
    else if (key == "off_schedule") {
      std::istringstream values(value);
      for (long long v; values >> v;) s.off_schedule.push_back(v);
    }
  }
  return s;
}

}  // namespace slicefuzz

namespace slicefuzz {

std::string run_case_text_job(const std::string& text, const Backend& backend,
                              const RunOptions& options) {
  ParseResult p = parse_case(text, "candidate", options.byte_budget, KeepAssignments::Every);
  if (!p.ok) {
    CaseSummary s;
    s.failed = true;
    s.kind = FindingKind::PARSE_ERROR;
    s.message = "parser path: " + p.error;
    s.path = FindingPath::Parser;
    return encode_summary(s);
  }
  return encode_summary(summarize(run_case(p.c, p.info, backend, options, &p.dynamic)));
}

}  // namespace slicefuzz
