#include "harness/cli/cli_args.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace slicefuzz {

namespace fs = std::filesystem;

bool CliArgs::parse(int argc, char** argv, const std::set<std::string>& value_flags,
                    const std::set<std::string>& bool_flags, std::string& error) {
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0 && a.rfind("-o", 0) != 0) {
      positional_.push_back(a);
      continue;
    }
    std::string name = a, value;
    bool has_value = false;
    if (auto eq = a.find('='); eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    }
    if (bool_flags.count(name)) {
      if (has_value) return error = name + " takes no value", false;
      values_[name] = "1";
    } else if (value_flags.count(name)) {
      if (!has_value) {
        if (i + 1 >= argc) return error = name + " needs a value", false;
        value = argv[++i];
      }
      values_[name] = value;
    } else {
      return error = "unknown option " + name, false;
    }
  }
  return true;
}

std::optional<std::string> CliArgs::get(const std::string& flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

bool CliArgs::get_int(const std::string& flag, int64_t& out, std::string& error) const {
  auto v = get(flag);
  if (!v) return true;
  errno = 0;
  char* end = nullptr;
  long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0' || errno == ERANGE)
    return error = flag + " expects an integer, got '" + *v + "'", false;
  out = x;
  return true;
}

std::vector<std::string> collect_case_files(const std::vector<std::string>& args,
                                            std::vector<std::string>& missing) {
  std::vector<std::string> files;
  for (const std::string& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(a, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".case")
          found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(a, ec)) {
      files.push_back(a);
    } else {
      missing.push_back(a);
    }
  }
  return files;
}

bool read_text_file(const std::string& path, size_t max_bytes, std::string& out,
                    std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error = "cannot open: " + std::string(std::strerror(errno)), false;
  out.clear();
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    out.append(buf, static_cast<size_t>(in.gcount()));
    if (out.size() > max_bytes)
      return error = "file is larger than " + std::to_string(max_bytes) + " bytes", false;
  }
  if (in.bad()) return error = "read error", false;
  return true;
}

bool write_file_atomic(const std::string& path, const std::string& content, std::string& error) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return error = "cannot write " + tmp + ": " + std::strerror(errno), false;
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok = std::fflush(f) == 0 && ok;
  ok = fsync(fileno(f)) == 0 && ok;
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace slicefuzz
