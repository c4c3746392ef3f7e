#pragma once
// Runs the real blurlab program in a directory of its own and collects what it did.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace blurlab::test {

struct ProgramResult {
  bool crashed = false;  // killed by a signal (a crash, an abort, a sanitizer)
  int signal = 0;
  int exit_code = -1;
  std::string out, err;
};

// Runs `program args...` with `dir` as working directory and the environment of this process
// minus DISPLAY and WAYLAND_DISPLAY (so it cannot open a window), plus `extra_env`.
ProgramResult run_program(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& dir,
                          const std::map<std::string, std::string>& extra_env = {});

// Every regular file below `dir`, relative to it.
std::vector<std::string> files_below(const std::filesystem::path& dir);

}  // namespace blurlab::test
