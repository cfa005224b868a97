#include "harness/run/worker_client.h"

#include "harness/run/isolation.h"
#include "harness/run/line_process.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

namespace slicefuzz {

namespace {

using Clock = std::chrono::steady_clock;
// Importing torch takes seconds, more on shared cores: start-up has its own bound.
constexpr double kStartupSeconds = 120;
constexpr size_t kMaxLine = size_t{64} << 20;

Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

struct Worker {
  LineProcess process;
  // The worker's stderr: a file unlinked as soon as it is made (only this
  // descriptor, and the worker's fd 2, hold it), so that no log is ever left
  // behind, whatever ends the harness process. Owned by log_owner: a forked job
  // worker makes its own rather than truncate its parent's.
  int log_fd = -1;
  pid_t log_owner = -1;
};

std::map<std::vector<std::string>, Worker>& workers() {
  static std::map<std::vector<std::string>, Worker> w;
  return w;
}

std::string log_tail(const Worker& w) {
  const int fd = w.log_fd;
  if (fd < 0) return {};
  struct stat st {};
  if (fstat(fd, &st) != 0) return {};
  const off_t size = st.st_size;
  off_t from = size > 4000 ? size - 4000 : 0;
  std::string s(static_cast<size_t>(size - from), '\0');
  ssize_t n = pread(fd, s.data(), s.size(), from);
  s.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return s;
}

// Starts the worker and waits for its greeting `slicefuzz-worker 1 ...`.
std::string start(const std::vector<std::string>& command, Worker& w) {
  if (w.log_fd >= 0 && w.log_owner == getpid()) {
    // A restarted worker's log starts empty (were it not, the tail still ends in its lines).
    const int truncated = ftruncate(w.log_fd, 0);
    (void)truncated;
  } else {
    if (w.log_fd >= 0) close(w.log_fd);  // the parent's, inherited through fork
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir && *dir ? dir : "/tmp") + "/slicefuzz-ext-worker-XXXXXX";
    w.log_fd = mkostemp(path.data(), O_APPEND | O_CLOEXEC);
    if (w.log_fd >= 0) unlink(path.c_str());
    w.log_owner = getpid();
  }
  const std::string failed = w.process.start(command, w.log_fd);
  if (!failed.empty()) return failed;
  std::string line;
  const LineProcess::Read got = w.process.read_line(line, after(kStartupSeconds), kMaxLine);
  if (got != LineProcess::Read::Line || line.rfind("slicefuzz-worker 1", 0) != 0) {
    std::string why = got == LineProcess::Read::Timeout
                          ? "no greeting within " + std::to_string(int(kStartupSeconds)) + " s"
                          : "expected the greeting 'slicefuzz-worker 1', got '" + line.substr(0, 80) + "'";
    std::string how = w.process.stop();
    return why + (how.empty() ? "" : " (worker " + how + ")");
  }
  return {};
}

// `output NAME DTYPE [S, ...] hex HEX` or `... values V V ...`.
bool parse_output(const std::string& line, std::string& name, TensorValue& v, std::string& why) {
  std::istringstream in(line);
  std::string word, dtype;
  in >> word >> name >> dtype;
  auto t = parse_scalar_type(dtype);
  if (!t) return why = "unknown dtype '" + dtype + "'", false;
  v.dtype = *t;
  std::string rest;
  std::getline(in, rest);
  size_t open = rest.find('['), close = rest.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return why = "expected sizes [S, ...]", false;
  std::string sizes = rest.substr(open + 1, close - open - 1);
  for (char& ch : sizes) ch = ch == ',' ? ' ' : ch;
  std::istringstream ss(sizes);
  for (long long s; ss >> s;) v.sizes.push_back(s);
  std::istringstream body(rest.substr(close + 1));
  std::string form;
  body >> form;
  const size_t es = element_size(v.dtype);
  const size_t want = static_cast<size_t>(v.numel()) * es;
  if (form == "hex") {
    std::string hex;
    body >> hex;
    if (!from_hex(hex, v.bytes)) return why = "bad hex", false;
  } else if (form == "values") {
    if (v.dtype == ScalarType::Half || v.dtype == ScalarType::BFloat16)
      return why = "float16/bfloat16 values must be sent as hex", false;
    for (std::string tok; body >> tok;) {
      uint8_t elem[8] = {};
      char* end = nullptr;
      if (v.dtype == ScalarType::Float || v.dtype == ScalarType::Double) {
        double d = std::strtod(tok.c_str(), &end);
        float f = static_cast<float>(d);
        std::memcpy(elem, v.dtype == ScalarType::Float ? static_cast<void*>(&f) : &d, es);
      } else {
        long long i = std::strtoll(tok.c_str(), &end, 10);
        if (v.dtype == ScalarType::Bool) i = i != 0;
        std::memcpy(elem, &i, es);  // little-endian: the low bytes
      }
      if (!end || *end) return why = "bad element '" + tok + "'", false;
      v.bytes.insert(v.bytes.end(), elem, elem + es);
    }
  } else {
    return why = "expected 'hex' or 'values' after the sizes", false;
  }
  if (v.bytes.size() != want)
    return why = std::to_string(v.bytes.size()) + " bytes for " + std::to_string(v.numel()) +
                 " elements of " + dtype, false;
  return true;
}

}  // namespace

double worker_timeout_seconds() {
  const char* e = std::getenv("SLICEFUZZ_WORKER_TIMEOUT");
  double t = e ? std::atof(e) : 0;
  return t > 0 ? t : 10;
}

std::string to_hex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

bool from_hex(const std::string& hex, std::vector<uint8_t>& out) {
  if (hex.size() % 2) return false;
  auto nib = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  };
  out.resize(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    int hi = nib(hex[2 * i]), lo = nib(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

WorkerAnswer ask_worker(const std::vector<std::string>& command, const std::string& verb,
                        const std::string& case_text, const TensorValue& input,
                        double timeout_s) {
  WorkerAnswer a;
  Worker& w = workers()[command];
  auto fail = [&](WorkerAnswer::Status s, std::string detail) {
    std::string how = w.process.stop();
    a.status = s;
    a.detail = std::move(detail) + (how.empty() ? "" : " (worker " + how + ")");
    a.log = log_tail(w);
    return a;
  };
  if (!w.process.running()) {
    std::string why;
    {
      const JobStartup startup(kStartupSeconds);  // not this case's time (isolation.h)
      why = start(command, w);
    }
    if (!why.empty()) return fail(WorkerAnswer::Status::Crash, "worker failed to start: " + why);
  }
  std::string request = verb + " " + std::to_string(case_text.size()) + "\n" + case_text;
  request += "input " + std::string(scalar_type_name(input.dtype)) + " [";
  for (size_t i = 0; i < input.sizes.size(); ++i)
    request += (i ? ", " : "") + std::to_string(input.sizes[i]);
  request += "] hex " + to_hex(input.bytes) + "\n";
  if (!w.process.send(request))
    return fail(WorkerAnswer::Status::Crash, "the worker closed its stdin");

  const auto deadline = after(timeout_s);
  bool first = true;
  for (std::string line;;) {
    switch (w.process.read_line(line, deadline, kMaxLine)) {
      case LineProcess::Read::Line: break;
      case LineProcess::Read::Timeout:
        return fail(WorkerAnswer::Status::Timeout, "no answer within " + std::to_string(timeout_s) + " s");
      case LineProcess::Read::TooLong:
        return fail(WorkerAnswer::Status::Protocol, "an answer line longer than 64 MiB");
      case LineProcess::Read::Eof:
        return fail(WorkerAnswer::Status::Crash, "the worker died before 'end'");
    }
    std::string word = line.substr(0, line.find(' '));
    if (word == "end") break;
    if ((verb == "graph" || verb == "diagnose") && word == "text") {
      a.text.push_back(line.size() > 5 ? line.substr(5) : "");
    } else if (verb == "diagnose" && word == "cause") {
      // One word the signature carries as is: anything else is no diagnosis.
      std::string cause = line.size() > 6 ? line.substr(6) : "";
      bool clean = !cause.empty() && cause.size() <= 120 && cause != "none";
      for (char ch : cause)
        clean = clean && (std::isalnum(static_cast<unsigned char>(ch)) || std::strchr("_:.-", ch));
      a.cause = clean ? cause : "";
    } else if (word == "ok" && first) {
    } else if (word == "error" && first) {
      std::istringstream in(line.substr(5));
      int op = -2;
      in >> op;
      std::string message;
      std::getline(in, message);
      if (in.fail() && op == -2)
        return fail(WorkerAnswer::Status::Protocol, "expected 'error K MESSAGE', got '" +
                                                        line.substr(0, 80) + "'");
      a.path.error_op = op < 0 ? -1 : op;
      a.path.error_message = message.empty() ? message : message.substr(1);
      if (op < 0) a.detail = "the worker failed outside any op: " + a.path.error_message;
    } else if (word == "output" && !first && a.path.error_op < 0 && a.detail.empty()) {
      TensorValue v;
      std::string name, why;
      if (!parse_output(line, name, v, why))
        return fail(WorkerAnswer::Status::Protocol,
                    "bad output line '" + line.substr(0, 80) + "': " + why);
      a.names.push_back(name);
      a.path.outputs.push_back(std::move(v));
    } else {
      return fail(WorkerAnswer::Status::Protocol,
                  "unexpected line '" + line.substr(0, 80) + "' in the answer to '" + verb + "'");
    }
    first = false;
  }
  return a;
}

}  // namespace slicefuzz
