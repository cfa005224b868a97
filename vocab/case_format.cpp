#include "vocab/case_format.h"

#include <cctype>
#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <vector>


namespace slicefuzz {

namespace {

inline constexpr size_t kMaxLineLength = 4096;

// A cursor over one line, with the line number for error messages.
class Line {
 public:
  Line(std::string_view text, int number) : s_(text), number_(number) {}
  int number() const { return number_; }

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool at_end() {
    skip_space();
    return pos_ >= s_.size();
  }
  bool peek(char c) {
    skip_space();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
    return false;
  }
  bool ident(std::string& out) {
    skip_space();
    size_t b = pos_;
    if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        ++pos_;
    }
    out.assign(s_.substr(b, pos_ - b));
    return pos_ > b;
  }
  bool keyword(std::string_view kw) {
    size_t save = pos_;
    std::string id;
    if (ident(id) && id == kw) return true;
    pos_ = save;
    return false;
  }
  // A decimal int64, sign allowed. `overflow` is set when the digits do not fit.
  bool integer(int64_t& out, bool& overflow) {
    skip_space();
    size_t b = pos_;
    if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
    size_t digits = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ == digits) return pos_ = b, false;
    std::string tok(s_.substr(b, pos_ - b));
    errno = 0;
    char* endp = nullptr;
    long long v = std::strtoll(tok.c_str(), &endp, 10);
    overflow = errno == ERANGE;
    out = v;
    return true;
  }
  std::string_view rest() {
    skip_space();
    return s_.substr(pos_);
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
  int number_;
};

struct Parser {
  std::string_view filename;
  std::string error;

  bool fail(const Line& l, const std::string& what) {
    error = std::string(filename) + ":" + std::to_string(l.number()) + ": " + what;
    return false;
  }
  bool expect(Line& l, char c, const char* where) {
    if (l.accept(c)) return true;
    std::string got(l.rest().substr(0, 20));
    return fail(l, std::string("expected '") + c + "' " + where + ", found " +
                       (got.empty() ? "end of line" : "'" + got + "'"));
  }
  bool int_value(Line& l, int64_t& v, const char* what) {
    bool overflow = false;
    if (!l.integer(v, overflow)) return fail(l, std::string("expected an integer for ") + what);
    if (overflow) return fail(l, std::string(what) + " is outside the int64 range");
    return true;
  }
  bool name(Line& l, std::string& out, const char* what) {
    if (!l.ident(out)) return fail(l, std::string("expected a name for ") + what);
    if (out == "None") return fail(l, "'None' cannot name a tensor");
    return true;
  }
  bool int_list(Line& l, std::vector<int64_t>& out, const char* what) {
    if (!expect(l, '[', what)) return false;
    if (l.accept(']')) return true;
    out.reserve(8);  // most lists are short: one allocation rather than growth
    do {
      if (out.size() > static_cast<size_t>(kMaxCaseRank))
        return fail(l, std::string("too many entries in ") + what + " (rank is at most 16)");
      int64_t v;
      if (!int_value(l, v, what)) return false;
      out.push_back(v);
    } while (l.accept(','));
    return expect(l, ']', what);
  }
  // `kw=INT` or `kw=None` when allow_none.
  bool keyword_arg(Line& l, const char* kw, std::optional<int64_t>& out, bool allow_none) {
    if (!l.keyword(kw)) return fail(l, std::string("expected '") + kw + "='");
    if (!expect(l, '=', (std::string("after ") + kw).c_str())) return false;
    if (allow_none && l.keyword("None")) return out = std::nullopt, true;
    int64_t v;
    if (!int_value(l, v, kw)) return false;
    out = v;
    return true;
  }

  // `NAME [SIZES] [dtype=NAME] [dim_order=[PERM]]` (the dtype: version 2).
  bool input_line(Line& l, Case& c, bool first) {
    InputDecl in;
    if (!name(l, in.name, "the input")) return false;
    if (!int_list(l, in.sizes, "the input sizes")) return false;
    if (l.keyword("dtype")) {
      if (c.version < 2)
        return fail(l, "a dtype of its own for input '" + in.name +
                           "' needs the header 'slicefuzz-case 2'");
      if (!expect(l, '=', "after dtype")) return false;
      std::string t;
      l.ident(t);
      in.dtype = parse_scalar_type(t);
      if (!in.dtype)
        return fail(l, "unknown dtype '" + t + "' for input '" + in.name +
                           "' (expected one of bool uint8 int8 int16 int32 int64 float16 "
                           "bfloat16 float32 float64)");
    }
    if (l.keyword("dim_order") && !dim_order_list(l, in.dim_order)) return false;
    if (l.keyword("dtype")) return fail(l, "dtype= comes before dim_order= on an input line");
    if (first) c.inputs.clear();  // the IR's default input gives way to the file's
    c.inputs.push_back(std::move(in));
    return true;
  }

  // `, dim_order=[PERM]` (entries 0..15).
  bool dim_order_list(Line& l, std::vector<int>& out) {
    if (!expect(l, '=', "after dim_order")) return false;
    std::vector<int64_t> order;
    if (!int_list(l, order, "dim_order")) return false;
    for (int64_t v : order) {
      if (v < 0 || v >= kMaxCaseRank) return fail(l, "dim_order entries must be in 0..15");
      out.push_back(static_cast<int>(v));
    }
    return true;
  }

  // `, ` before `name=`; the message is built only when the comma is missing.
  bool comma_before(Line& l, const char* arg_name) {
    if (l.accept(',')) return true;
    return expect(l, ',', ("before " + std::string(arg_name) + "=").c_str());
  }

  // One argument after the op's first operand, written as its schema says
  // (vocab/op_schema.h): the parser has no per-op code.
  bool op_arg(Line& l, const OpKindInfo& info, const ArgSpec& a, Op& op, const Case& c) {
    std::optional<int64_t> v;
    switch (a.kind) {
      case ArgKind::Tensor:
        return expect(l, ',', "between arguments") && name(l, op.src, "the source");
      case ArgKind::Scalar:
        return expect(l, ',', "between arguments") && int_value(l, op_int(op, a.slot), "the scalar");
      case ArgKind::Int:
      case ArgKind::OptInt:
        if (!comma_before(l, a.name) || !keyword_arg(l, a.name, v, a.kind == ArgKind::OptInt))
          return false;
        if (a.kind == ArgKind::OptInt) op_opt_int(op, a.slot) = v;
        else op_int(op, a.slot) = *v;
        return true;
      case ArgKind::IntList:
        if (!l.accept(',') || !l.keyword(a.name))
          return fail(l, std::string("expected '") + a.name + "=[...]' after " + info.name +
                             "'s source");
        return expect(l, '=', (std::string("after ") + a.name).c_str()) &&
               int_list(l, op.ints, (std::string(info.name) + "'s " + a.name).c_str());
      case ArgKind::DimList:
        if (!comma_before(l, a.name)) return false;
        if (l.keyword(a.name))
          return expect(l, '=', (std::string("after ") + a.name).c_str()) &&
                 int_list(l, op.ints, (std::string(info.name) + "'s " + a.name).c_str());
        // The one-entry spelling `dim=INT`.
        if (!keyword_arg(l, "dim", v, false))
          return fail(l, std::string("expected '") + a.name + "=[...]' or 'dim=INT'");
        op.single_dim = true;
        op.ints = {*v};
        return true;
      case ArgKind::DimOrder:  // optional and last: `, dim_order=[PERM]` (version 2)
        if (!l.accept(',')) return true;
        if (c.version < 2)
          return fail(l, std::string(info.name) + "(SRC, " + a.name +
                             "=[...]) needs the header 'slicefuzz-case 2'");
        if (!l.keyword(a.name))
          return fail(l, std::string("expected '") + a.name + "=' after " + info.name + "'s source");
        op.dim_order.emplace();
        return dim_order_list(l, *op.dim_order);
    }
    return fail(l, "internal: an argument kind the parser does not know");
  }

  // The defining ops this version has, for the message when none is named.
  static std::string defining_op_names(int version) {
    std::vector<const char*> names;
    for (const OpKindInfo& row : kOpKinds)
      if (row.effect == OpEffect::Defines && row.min_version <= version) names.push_back(row.name);
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
      s += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return s;
  }

  // `NAME = OP(SRC, ARGS)` or `OP(TARGET, ARGS)` for an in-place op.
  bool op_line(Line& l, const std::string& first, Case& c) {
    Op op;
    const std::optional<OpKind> mutating = op_kind_from_name(first);
    std::string fn = first;
    if (mutating && !op_defines(*mutating)) {
      op.kind = *mutating;
      if (!expect(l, '(', ("after " + first).c_str())) return false;
      if (!name(l, op.target, "the tensor to mutate")) return false;
    } else {
      op.result = first;
      if (op.result == "None") return fail(l, "'None' cannot name a tensor");
      if (!expect(l, '=', "after the result name (ops are NAME = op(...), add_(...), copy_(...))"))
        return false;
      l.ident(fn);
      const std::optional<OpKind> kind = op_kind_from_name(fn);
      if (!kind || !op_defines(*kind) || op_kind_info(*kind).min_version > kLatestCaseVersion)
        return fail(l, "expected " + defining_op_names(c.version) + " after '='");
      op.kind = *kind;
      if (op_kind_info(op.kind).min_version > c.version)
        return fail(l, "'" + fn + "' needs the header 'slicefuzz-case " +
                           std::to_string(op_kind_info(op.kind).min_version) + "'");
      // The message is built only when the '(' is missing (no string per op).
      if (!l.accept('(') && !expect(l, '(', ("after " + fn).c_str())) return false;
      if (!name(l, op.src, "the source")) return false;
    }
    const OpKindInfo& info = op_kind_info(op.kind);
    for (const ArgSpec& a : info.args)
      if (!op_arg(l, info, a, op, c)) return false;
    if (!expect(l, ')', "to close the op")) return false;
    c.ops.push_back(std::move(op));
    return true;
  }

  bool output_line(Line& l, Case& c) {
    do {
      std::string n;
      if (!name(l, n, "an output")) return false;
      c.outputs.push_back(n);
    } while (l.accept(','));
    return true;
  }
};

}  // namespace

namespace {
// What the canonical form leaves out of an input line (canonicalize, print_case):
// an identity dim order, and a dtype equal to the case's default.
bool order_is_identity(const InputDecl& in) {
  bool identity = in.dim_order.size() == in.sizes.size();
  for (size_t i = 0; identity && i < in.dim_order.size(); ++i)
    identity = in.dim_order[i] == static_cast<int>(i);
  return identity;
}
bool dtype_is_default(const InputDecl& in, ScalarType default_dtype) {
  return in.dtype == default_dtype;
}
}  // namespace

void canonicalize(Case& c) {
  for (InputDecl& in : c.inputs) {
    if (order_is_identity(in)) in.dim_order.clear();
    if (dtype_is_default(in, c.dtype)) in.dtype.reset();  // the default is not repeated
  }
  c.version = std::max(c.version, c.min_version());
  for (Op& op : c.ops)
    if (op.single_dim && op.ints.size() != 1) op.single_dim = false;
}

CaseSyntax parse_case_syntax(std::string_view text, std::string_view filename) {
  CaseSyntax r;
  Parser p{filename, {}};
  enum Stage { kHeader, kDtype, kInput, kBody, kDone } stage = kHeader;
  std::vector<int>& op_lines = r.op_lines;
  int& output_line = r.output_line;
  r.c.ops.reserve(8);  // a typical case's ops without regrowth
  op_lines.reserve(8);
  // Every use is `return done(...)`: r is moved out, not copied (a Case copy per parse).
  auto done = [&](bool ok) {
    r.ok = ok;
    if (!ok) r.error = p.error;
    return std::move(r);
  };

  size_t pos = 0;
  for (int number = 1; pos < text.size() || stage != kDone; ++number) {
    if (pos >= text.size()) {
      Line eof("", number);
      const char* missing = stage == kHeader ? "the header 'slicefuzz-case 1'"
                            : stage == kDtype ? "'dtype NAME'"
                            : stage == kInput ? "'input NAME [SIZES]'"
                                              : "an 'output NAME, ...' line";
      p.fail(eof, std::string("unexpected end of file: expected ") + missing);
      return done(false);
    }
    size_t nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    Line l(raw.substr(0, raw.find('#')), number);
    if (raw.size() > kMaxLineLength) return done(p.fail(l, "line longer than 4096 characters"));
    if (raw.find('\0') != std::string_view::npos) return done(p.fail(l, "NUL byte in a text file"));
    if (l.at_end()) continue;

    if (stage == kDone) return done(p.fail(l, "nothing may follow the output line"));
    if (stage == kHeader) {
      int64_t version;
      bool overflow = false;
      if (!l.keyword("slicefuzz-case") && !(l.keyword("slicefuzz") && l.accept('-') && l.keyword("case")))
        return done(p.fail(l, "expected the header 'slicefuzz-case 1'"));
      if (!l.integer(version, overflow) || overflow)
        return done(p.fail(l, "expected a format version after 'slicefuzz-case'"));
      if (version < 1 || version > kLatestCaseVersion)
        return done(p.fail(l, "format version " + std::to_string(version) +
                                  " is not supported (this build reads versions 1 to " +
                                  std::to_string(kLatestCaseVersion) + ")"));
      r.c.version = static_cast<int>(version);
      stage = kDtype;
    } else if (stage == kDtype) {
      std::string name;
      if (!l.keyword("dtype")) return done(p.fail(l, "expected 'dtype NAME'"));
      l.ident(name);
      auto t = parse_scalar_type(name);
      if (!t)
        return done(p.fail(l, "unknown dtype '" + name + "' (expected one of bool uint8 int8 "
                                  "int16 int32 int64 float16 bfloat16 float32 float64)"));
      r.c.dtype = *t;
      stage = kInput;
    } else if (stage == kInput) {
      if (!l.keyword("input")) return done(p.fail(l, "expected 'input NAME [SIZES]'"));
      if (!p.input_line(l, r.c, true)) return done(false);
      r.input_line = number;
      r.input_lines.push_back(number);
      stage = kBody;
    } else {
      std::string first;
      if (!l.ident(first)) return done(p.fail(l, "expected an op or 'output NAME, ...'"));
      if (first == "input" && !l.peek('=')) {  // another input line (`input = ...` is an op)
        if (r.c.version < 2) return done(p.fail(l, "several inputs need the header 'slicefuzz-case 2'"));
        if (!op_lines.empty()) return done(p.fail(l, "input lines come before the ops"));
        if (!p.input_line(l, r.c, false)) return done(false);
        r.input_lines.push_back(number);
      } else if (first == "output") {
        if (!p.output_line(l, r.c)) return done(false);
        output_line = number;
        stage = kDone;
      } else {
        if (r.c.ops.size() >= kMaxOps)
          return done(p.fail(l, "too many ops (at most " + std::to_string(kMaxOps) + ")"));
        if (!p.op_line(l, first, r.c)) return done(false);
        op_lines.push_back(number);
      }
    }
    if (!l.at_end()) {
      std::string extra(l.rest().substr(0, 20));
      return done(p.fail(l, "unexpected '" + extra + "' at the end of the line"));
    }
  }

  canonicalize(r.c);
  return done(true);
}

namespace {
// The printer appends to one string (it prints every mutant the fuzzer makes:
// no temporary string per token, no copy of the case).
void append_int(std::string& s, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

template <class T>
void append_list(std::string& s, const std::vector<T>& v) {
  s += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    append_int(s, static_cast<int64_t>(v[i]));
  }
  s += ']';
}

void append_opt(std::string& s, const std::optional<int64_t>& v) {
  if (v) append_int(s, *v);
  else s += "None";
}

// One argument after the first operand, as the schema writes it (the parser's
// op_arg, in reverse).
void append_arg(std::string& s, const ArgSpec& a, const Op& op) {
  switch (a.kind) {
    case ArgKind::Tensor: s.append(", ").append(op.src); return;
    case ArgKind::Scalar:
      s += ", ";
      append_int(s, op_int(op, a.slot));
      return;
    case ArgKind::Int:
      s.append(", ").append(a.name) += '=';
      append_int(s, op_int(op, a.slot));
      return;
    case ArgKind::OptInt:
      s.append(", ").append(a.name) += '=';
      append_opt(s, op_opt_int(op, a.slot));
      return;
    case ArgKind::DimList:
      if (op.single_dim && op.ints.size() == 1) {
        s += ", dim=";
        append_int(s, op.ints[0]);
        return;
      }
      [[fallthrough]];
    case ArgKind::IntList:
      s.append(", ").append(a.name) += '=';
      append_list(s, op.ints);
      return;
    case ArgKind::DimOrder:
      if (!op.dim_order) return;
      s.append(", ").append(a.name) += '=';
      append_list(s, *op.dim_order);
      return;
  }
}

void append_op(std::string& s, const Op& op) {
  const OpKindInfo& info = op_kind_info(op.kind);
  if (info.effect == OpEffect::Mutates) s.append(info.name).append("(").append(op.target);
  else s.append(op.result).append(" = ").append(info.name).append("(").append(op.src);
  for (const ArgSpec& a : info.args) append_arg(s, a, op);
  s += ')';
}
}  // namespace

std::string print_op(const Op& op) {
  std::string s;
  append_op(s, op);
  return s;
}

std::string print_case(const Case& c) {
  std::string s;
  s.reserve(64 + 64 * (c.inputs.size() + c.ops.size()));
  // A case read as version 1 prints as version 1, byte for byte; eager ops need 2.
  s += "slicefuzz-case ";
  append_int(s, std::max(c.version, c.min_version()));
  s.append("\ndtype ").append(scalar_type_name(c.dtype)) += '\n';
  for (const InputDecl& in : c.inputs) {
    // Canonical as canonicalize() makes it, without copying the case.
    s.append("input ").append(in.name) += ' ';
    append_list(s, in.sizes);
    if (in.dtype && !dtype_is_default(in, c.dtype)) s.append(" dtype=").append(scalar_type_name(*in.dtype));
    if (!in.dim_order.empty() && !order_is_identity(in)) {
      s += " dim_order=";
      append_list(s, in.dim_order);
    }
    s += '\n';
  }
  for (const Op& op : c.ops) {
    append_op(s, op);
    s += '\n';
  }
  s += "output ";
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    if (i) s += ", ";
    s += c.outputs[i];
  }
  s += '\n';
  return s;
}

}  // namespace slicefuzz
