#include "harness/run/worker_client.h"

#include "harness/run/isolation.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
  pid_t pid = -1;
  int to = -1, from = -1;
  std::string buffer;   // bytes read but not yet consumed
  // The worker's stderr: a file unlinked as soon as it is made (only this
  // descriptor, and the worker's fd 2, hold it), so that no log is ever left
  // behind, whatever ends the harness process.
  int log_fd = -1;
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

// Ends the worker (it may already be dead) and says how it ended.
std::string stop(Worker& w) {
  std::string how;
  if (w.pid > 0) {
    int status = 0;
    pid_t r = waitpid(w.pid, &status, WNOHANG);
    if (r == 0) {
      kill(w.pid, SIGKILL);
      waitpid(w.pid, &status, 0);
      how = "killed";
    } else if (r == w.pid && WIFSIGNALED(status)) {
      how = std::string("killed by signal ") + strsignal(WTERMSIG(status));
    } else if (r == w.pid && WIFEXITED(status)) {
      how = "exited with status " + std::to_string(WEXITSTATUS(status));
    }
  }
  if (w.to >= 0) close(w.to);
  if (w.from >= 0) close(w.from);
  w.pid = -1;
  w.to = w.from = -1;
  w.buffer.clear();
  return how;
}

// One line (without '\n'), or false at the deadline (timed_out) or EOF.
bool read_line(Worker& w, Clock::time_point deadline, std::string& line, bool& timed_out) {
  timed_out = false;
  for (;;) {
    size_t nl = w.buffer.find('\n');
    if (nl != std::string::npos) {
      line = w.buffer.substr(0, nl);
      w.buffer.erase(0, nl + 1);
      return true;
    }
    if (w.buffer.size() > kMaxLine) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return timed_out = true, false;
    pollfd p{w.from, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return timed_out = true, false;
    char buf[65536];
    ssize_t n = read(w.from, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    w.buffer.append(buf, static_cast<size_t>(n));
  }
}

bool write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Starts the worker and waits for its greeting `slicefuzz-worker 1 ...`.
std::string start(const std::vector<std::string>& command, Worker& w) {
  static bool once = [] { return signal(SIGPIPE, SIG_IGN), true; }();
  (void)once;
  int down[2], up[2];
  if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC)) return "pipe failed";
  if (w.log_fd < 0) {
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir && *dir ? dir : "/tmp") + "/slicefuzz-ext-worker-XXXXXX";
    w.log_fd = mkostemp(path.data(), O_APPEND | O_CLOEXEC);
    if (w.log_fd >= 0) unlink(path.c_str());
  } else {
    // A restarted worker's log starts empty (were it not, the tail still ends in its lines).
    const int truncated = ftruncate(w.log_fd, 0);
    (void)truncated;
  }
  const pid_t parent = getpid();
  w.pid = fork();
  if (w.pid < 0) return "fork failed";
  if (w.pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the harness process
    if (getppid() != parent) _exit(127);
    dup2(down[0], 0);
    dup2(up[1], 1);
    if (w.log_fd >= 0) dup2(w.log_fd, 2);
    std::vector<char*> argv;
    for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  close(down[0]);
  close(up[1]);
  w.to = down[1];
  w.from = up[0];
  std::string line;
  bool timed_out = false;
  const auto deadline = after(kStartupSeconds);
  if (!read_line(w, deadline, line, timed_out) || line.rfind("slicefuzz-worker 1", 0) != 0) {
    std::string why = timed_out ? "no greeting within " + std::to_string(int(kStartupSeconds)) + " s"
                                : "expected the greeting 'slicefuzz-worker 1', got '" +
                                      line.substr(0, 80) + "'";
    std::string how = stop(w);
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
    std::string how = stop(w);
    a.status = s;
    a.detail = std::move(detail) + (how.empty() ? "" : " (worker " + how + ")");
    a.log = log_tail(w);
    return a;
  };
  if (w.pid < 0) {
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
  if (!write_all(w.to, request))
    return fail(WorkerAnswer::Status::Crash, "the worker closed its stdin");

  const auto deadline = after(timeout_s);
  bool first = true, timed_out = false;
  for (std::string line;;) {
    if (!read_line(w, deadline, line, timed_out)) {
      if (timed_out)
        return fail(WorkerAnswer::Status::Timeout,
                    "no answer within " + std::to_string(timeout_s) + " s");
      if (w.buffer.size() > kMaxLine)
        return fail(WorkerAnswer::Status::Protocol, "an answer line longer than 64 MiB");
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
