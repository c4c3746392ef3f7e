#pragma once
// Runs the real blurlab program in a directory of its own and collects what it did.
#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace blurlab::test {

struct ProgramResult {
  bool crashed = false;  // killed by a signal (a crash, an abort, a sanitizer, or the timeout)
  int signal = 0;
  bool timed_out = false;  // it ran past RunOptions::timeout_s and was killed (a hang)
  int exit_code = -1;
  std::string out, err;
};

struct RunOptions {
  std::map<std::string, std::string> env = {};  // added to (or replacing) this process's environment
  double timeout_s = 60;                         // then the program is killed: a hang fails, it does not stall the suite
  bool stdout_reader_gone = false;               // stdout is a pipe whose reader has closed it (`| head -1` after the line)
  std::function<void(pid_t)> while_running = {}; // called once it started; it is waited for after this returns
};

// Runs `program args...` with `dir` as working directory and the environment of this process
// minus DISPLAY and WAYLAND_DISPLAY (so it cannot open a window), plus `extra_env`.
ProgramResult run_program(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& dir,
                          const std::map<std::string, std::string>& extra_env = {});
ProgramResult run_program(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& dir,
                          const RunOptions& options);

// Every regular file below `dir`, relative to it.
std::vector<std::string> files_below(const std::filesystem::path& dir);

}  // namespace blurlab::test
