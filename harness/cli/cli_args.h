// Command-line arguments shared by every verb: `--flag value` / `--flag=value`
// options and positional arguments, with clear errors for anything unknown.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace slicefuzz {

class CliArgs {
 public:
  // `value_flags` take a value; `bool_flags` do not. Returns false (with `error`)
  // on an unknown flag or a missing value.
  bool parse(int argc, char** argv, const std::set<std::string>& value_flags,
             const std::set<std::string>& bool_flags, std::string& error);
  bool has(const std::string& flag) const { return values_.count(flag) > 0; }
  std::optional<std::string> get(const std::string& flag) const;
  // An integer flag; false with `error` when present but not a valid integer.
  bool get_int(const std::string& flag, int64_t& out, std::string& error) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

// Files named by the arguments: files as given, directories searched recursively
// for *.case in sorted order. Paths that do not exist are returned too (so the
// caller reports them), in `missing`.
std::vector<std::string> collect_case_files(const std::vector<std::string>& args,
                                            std::vector<std::string>& missing);

// Reads a whole file of at most `max_bytes`; false with `error` otherwise.
bool read_text_file(const std::string& path, size_t max_bytes, std::string& out,
                    std::string& error);

// Writes via a temporary file and rename(2): a reader never sees a partial file,
// and an existing file is replaced only by a complete one.
bool write_file_atomic(const std::string& path, const std::string& content, std::string& error);

}  // namespace slicefuzz
