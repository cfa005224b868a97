#include "vocab/case_format.h"
#include "vocab/case_line.h"

#include <cctype>
#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <vector>


namespace slicefuzz {

namespace {
using case_syntax::Line;
using case_syntax::kMaxLineLength;

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
  // `kw=INT` or `kw=None` when allow_none; with `sym` (version 4, a role that
  // takes one) also `kw=NAME`, `kw=NAME+K`, `kw=NAME-K`, into *sym.
  bool keyword_arg(Line& l, const char* kw, std::optional<int64_t>& out, bool allow_none,
                   const Case* c = nullptr, std::optional<SymExpr>* sym = nullptr) {
    if (!l.keyword(kw)) return fail(l, std::string("expected '") + kw + "='");
    if (!expect(l, '=', (std::string("after ") + kw).c_str())) return false;
    if (allow_none && l.keyword("None")) return out = std::nullopt, true;
    if (sym && symbol_here(l)) {
      out = 0;
      return sym_expr(l, *c, *sym, kw);
    }
    int64_t v;
    if (!int_value(l, v, kw)) return false;
    out = v;
    return true;
  }

  // Whether a name (a symbol) starts here rather than an integer.
  static bool symbol_here(Line& l) {
    const std::string_view r = l.rest();
    return !r.empty() && (std::isalpha(static_cast<unsigned char>(r[0])) || r[0] == '_') &&
           !l.keyword_peek("None");
  }
  // `NAME`, `NAME+K` or `NAME-K`, NAME a declared symbol.
  bool sym_expr(Line& l, const Case& c, std::optional<SymExpr>& out, const char* what) {
    std::string n;
    l.ident(n);
    if (c.version < kDynamicCaseVersion)
      return fail(l, std::string("a symbol ('") + n + "') for " + what +
                         " needs the header 'slicefuzz-case 4'");
    SymExpr e;
    e.sym = c.find_sym(n);
    if (e.sym < 0) return fail(l, "'" + n + "' is not a declared symbol (sym NAME in [LO, HI])");
    const bool plus = l.accept('+');
    if (plus || l.accept('-')) {
      int64_t k;
      bool overflow = false;
      if (!l.integer(k, overflow) || k < 0)
        return fail(l, std::string("expected a non-negative integer after '") + n +
                           (plus ? "+'" : "-'"));
      if (overflow) return fail(l, std::string("the constant added to '") + n + "' is outside int64");
      e.add = plus ? k : -k;
    }
    out = e;
    return true;
  }

  // A list of sizes whose entries may be symbols (version 4): each symbolic entry's
  // index and expression go to `syms`.
  bool size_list(Line& l, const Case& c, std::vector<int64_t>& out,
                 std::vector<std::pair<int, SymExpr>>& syms, const char* what, bool bare_only) {
    if (!expect(l, '[', what)) return false;
    if (l.accept(']')) return true;
    out.reserve(8);
    do {
      if (out.size() > static_cast<size_t>(kMaxCaseRank))
        return fail(l, std::string("too many entries in ") + what + " (rank is at most 16)");
      if (symbol_here(l)) {
        std::optional<SymExpr> e;
        if (!sym_expr(l, c, e, what)) return false;
        if (bare_only && e->add != 0)
          return fail(l, std::string("an input's dynamic size is a symbol alone, not '") +
                             c.syms[e->sym].name + (e->add > 0 ? "+" : "-") + "K'");
        syms.emplace_back(static_cast<int>(out.size()), *e);
        out.push_back(0);
        continue;
      }
      int64_t v;
      if (!int_value(l, v, what)) return false;
      out.push_back(v);
    } while (l.accept(','));
    return expect(l, ']', what);
  }

  // `sym NAME in [LO, HI]` (version 4).
  bool sym_line(Line& l, Case& c) {
    SymDecl d;
    if (c.version < kDynamicCaseVersion) return fail(l, "'sym' needs the header 'slicefuzz-case 4'");
    if (!name(l, d.name, "the symbol")) return false;
    if (c.find_sym(d.name) >= 0) return fail(l, "symbol '" + d.name + "' is declared twice");
    if (c.syms.size() >= kMaxSymbols)
      return fail(l, "too many symbols (at most " + std::to_string(kMaxSymbols) + ")");
    if (!l.keyword("in")) return fail(l, "expected 'in [LO, HI]' after the symbol's name");
    std::vector<int64_t> range;
    if (!int_list(l, range, "the symbol's range")) return false;
    if (range.size() != 2 || range[0] < 0 || range[0] > range[1] || range[1] > kMaxSymbolValue)
      return fail(l, "a symbol's range is [LO, HI] with 0 <= LO <= HI <= " +
                         std::to_string(kMaxSymbolValue));
    d.lo = range[0];
    d.hi = range[1];
    c.syms.push_back(std::move(d));
    return true;
  }

  // `run NAME=INT ...` (version 4): every symbol once.
  bool run_line(Line& l, Case& c) {
    if (c.syms.empty()) return fail(l, "'run' lines need symbols ('sym NAME in [LO, HI]')");
    if (c.runs.size() >= kMaxRuns)
      return fail(l, "too many executions (at most " + std::to_string(kMaxRuns) + ")");
    Execution e;
    e.values.assign(c.syms.size(), 0);
    std::vector<bool> given(c.syms.size(), false);
    while (!l.at_end()) {
      std::string n;
      if (!name(l, n, "a symbol")) return false;
      const int k = c.find_sym(n);
      if (k < 0) return fail(l, "'" + n + "' is not a declared symbol");
      if (given[k]) return fail(l, "symbol '" + n + "' is given twice");
      if (!expect(l, '=', ("after " + n).c_str()) || !int_value(l, e.values[k], n.c_str())) return false;
      given[k] = true;
    }
    for (size_t k = 0; k < given.size(); ++k)
      if (!given[k]) return fail(l, "the execution gives no value to symbol '" + c.syms[k].name + "'");
    c.runs.push_back(std::move(e));
    return true;
  }

  // `NAME [SIZES] [dtype=NAME] [dim_order=[PERM]]` (the dtype: version 2).
  bool input_line(Line& l, Case& c, bool first, bool constant = false) {
    InputDecl in;
    in.constant = constant;
    if (constant && c.version < kDynamicCaseVersion)
      return fail(l, "'const' needs the header 'slicefuzz-case 4'");
    if (!name(l, in.name, constant ? "the constant" : "the input")) return false;
    std::vector<std::pair<int, SymExpr>> dynamic;
    if (!size_list(l, c, in.sizes, dynamic, "the input sizes", true)) return false;
    if (!dynamic.empty()) {
      if (constant) return fail(l, "a constant's sizes are static");
      in.sym_sizes.assign(in.sizes.size(), -1);
      for (const auto& [d, e] : dynamic) {
        in.sym_sizes[d] = e.sym;
        in.sizes[d] = c.syms[e.sym].hi;  // the bound
      }
    }
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
      case ArgKind::NamedTensor:
        if (!comma_before(l, a.name)) return false;
        if (!l.keyword(a.name))
          return fail(l, std::string("expected '") + a.name + "=NAME' in " + info.name);
        return expect(l, '=', (std::string("after ") + a.name).c_str()) &&
               name(l, op.other, (std::string(info.name) + "'s " + a.name).c_str());
      case ArgKind::Scalar:
        return expect(l, ',', "between arguments") && int_value(l, op_int(op, a.slot), "the scalar");
      case ArgKind::Int:
      case ArgKind::OptInt: {
        std::optional<SymExpr> sym;
        const bool symbolic = role_takes_symbol(a.role);
        if (!comma_before(l, a.name) ||
            !keyword_arg(l, a.name, v, a.kind == ArgKind::OptInt, &c, symbolic ? &sym : nullptr))
          return false;
        if (a.kind == ArgKind::OptInt) op_opt_int(op, a.slot) = v;
        else op_int(op, a.slot) = *v;
        if (sym) op.sym_args.push_back(SymArg{a.slot, -1, *sym});
        return true;
      }
      case ArgKind::IntList: {
        if (!l.accept(',') || !l.keyword(a.name))
          return fail(l, std::string("expected '") + a.name + "=[...]' after " + info.name +
                             "'s source");
        std::vector<std::pair<int, SymExpr>> syms;
        if (!expect(l, '=', (std::string("after ") + a.name).c_str()) ||
            !size_list(l, c, op.ints, syms, (std::string(info.name) + "'s " + a.name).c_str(), false))
          return false;
        for (const auto& [k, e] : syms) op.sym_args.push_back(SymArg{a.slot, k, e});
        return true;
      }
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
      if (row.effect == OpEffect::Defines && row.min_version <= version &&
          std::find_if(names.begin(), names.end(), [&](const char* n) { return std::string_view(n) == row.name; }) ==
              names.end())  // an overload is named once
        names.push_back(row.name);
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
      if (!l.accept('(') && !expect(l, '(', ("after " + fn).c_str())) return false;
      if (!name(l, op.src, "the source")) return false;
      // An overload (a later row of the same name) whose first argument is a
      // named tensor is chosen by that argument's form: add(a, other=b).
      for (const OpKindInfo& row : kOpKinds)
        if (row.kind != op.kind && fn == row.name && row.args.size > 0 &&
            row.args.data[0].kind == ArgKind::NamedTensor && l.comma_keyword_peek(row.args.data[0].name))
          op.kind = row.kind;
      if (op_kind_info(op.kind).min_version > c.version)
        return fail(l, "'" + fn + "' needs the header 'slicefuzz-case " +
                           std::to_string(op_kind_info(op.kind).min_version) + "'");
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
      case_syntax::Line eof("", number);
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
    case_syntax::Line l(raw.substr(0, raw.find('#')), number);
    if (raw.size() > kMaxLineLength) return done(p.fail(l, "line longer than 4096 characters"));
    if (raw.find('\0') != std::string_view::npos) return done(p.fail(l, "NUL byte in a text file"));
    if (l.at_end()) continue;

    if (stage == kDone) {
      // Only executions follow the output line (version 4).
      if (r.c.version < kDynamicCaseVersion) return done(p.fail(l, "nothing may follow the output line"));
      if (!l.keyword("run")) return done(p.fail(l, "nothing but 'run' lines may follow the output line"));
      if (!p.run_line(l, r.c)) return done(false);
      r.run_lines.push_back(number);
      continue;
    }
    if (stage == kHeader) {
      int64_t version;
      bool overflow = false;
      if (!l.keyword("slicefuzz-case") && !(l.keyword("slicefuzz") && l.accept('-') && l.keyword("case")))
        return done(p.fail(l, "expected the header 'slicefuzz-case 1'"));
      if (!l.integer(version, overflow) || overflow)
        return done(p.fail(l, "expected a format version after 'slicefuzz-case'"));
      if (version < 1 || version > kNewestReadableCaseVersion)
        return done(p.fail(l, "format version " + std::to_string(version) +
                                  " is not supported (this build reads versions 1 to " +
                                  std::to_string(kNewestReadableCaseVersion) + ")"));
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
      if (l.keyword("sym")) {  // symbols come before the inputs (version 4)
        if (!p.sym_line(l, r.c)) return done(false);
        r.sym_lines.push_back(number);
        continue;
      }
      const bool constant = r.c.version >= kDynamicCaseVersion && l.keyword("const");
      if (!constant && !l.keyword("input")) return done(p.fail(l, "expected 'input NAME [SIZES]'"));
      if (!p.input_line(l, r.c, true, constant)) return done(false);
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
      } else if (first == "const" && !l.peek('=') && r.c.version >= kDynamicCaseVersion) {
        if (!op_lines.empty()) return done(p.fail(l, "const lines come before the ops"));
        if (!p.input_line(l, r.c, false, true)) return done(false);
        r.input_lines.push_back(number);
      } else if (first == "sym" && !l.peek('=') && r.c.version >= kDynamicCaseVersion) {
        return done(p.fail(l, "sym lines come before the inputs"));
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

  if (!r.c.syms.empty() && r.c.runs.empty()) {
    p.fail(case_syntax::Line("", output_line),
           "a case with symbols needs at least one 'run NAME=INT ...' line after the output line");
    return done(false);
  }
  canonicalize(r.c);
  return done(true);
}

}  // namespace slicefuzz
