// A cursor over one line of .case text, for the parser (case_format.cpp): the
// tokens of the format (names, keywords, decimal int64s) and the line number
// for error messages. Vocabulary: no semantics.
#pragma once
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace slicefuzz {
namespace case_syntax {

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
  // Whether `, KW=` comes next (nothing is consumed): an overload's argument form.
  bool comma_keyword_peek(std::string_view kw) {
    const size_t save = pos_;
    const bool is = accept(',') && keyword(kw) && accept('=');
    pos_ = save;
    return is;
  }
  bool keyword_peek(std::string_view kw) {
    const size_t save = pos_;
    const bool is = keyword(kw);
    pos_ = save;
    return is;
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

}  // namespace case_syntax
}  // namespace slicefuzz
