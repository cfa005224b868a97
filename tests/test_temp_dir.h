// A directory of this test process's own under the temp root (mkdtemp), removed
// when the process exits. Tests that write files put them here, never under a
// fixed name in the shared temp root: two test binaries (or two ctest -j jobs, or
// two users) writing /tmp/cli_exits_x at once would read each other's files.
#pragma once
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace slicefuzz::testing {

inline const std::filesystem::path& process_temp_dir() {
  struct Owned {
    std::filesystem::path path;
    Owned() {
      std::string tmpl = (std::filesystem::path(::testing::TempDir()) / "slicefuzz-test.XXXXXX").string();
      if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed under " + ::testing::TempDir());
      path = tmpl;
    }
    ~Owned() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Owned dir;
  return dir.path;
}

// A fresh, empty subdirectory NAME of the process's own temp directory.
inline std::filesystem::path fresh_temp_subdir(const std::string& name) {
  const std::filesystem::path d = process_temp_dir() / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace slicefuzz::testing
