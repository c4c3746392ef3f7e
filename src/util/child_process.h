#pragma once
// Running a helper program (the chart script's interpreter) so that it can neither outlive nor
// hang the run: in a process group of its own that is killed when it runs past its time, when it
// is done (whatever it left running) and when a signal ends this process (util/temp_files.h), and
// with SIGKILL should this process die without a chance to clean up (PR_SET_PDEATHSIG).
#include <filesystem>
#include <string>
#include <vector>

namespace blurlab {

struct ChildRequest {
  std::vector<std::string> argv;    // argv[0]: a path, or a name looked up on this process's PATH
  std::vector<std::string> env;     // exactly its environment ("NAME=value")
  std::filesystem::path directory;  // its working directory
  double timeout_s = 60;
};

struct ChildResult {
  bool started = false;    // false: `failure` says why it could not be started
  std::string failure;
  bool timed_out = false;  // it ran past timeout_s and was killed
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it
  std::string output;      // its stdout and stderr together, the first kMaxChildOutputBytes of them
};
inline constexpr size_t kMaxChildOutputBytes = 1 << 20;

// Runs the child with stdin from /dev/null and every signal at its default action, and waits for it.
ChildResult run_child(const ChildRequest& request);

}  // namespace blurlab
