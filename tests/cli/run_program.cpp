#include "run_program.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>
#include <fstream>
#include <sstream>

extern char** environ;

namespace blurlab::test {

namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ProgramResult run_program(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& dir,
                          const std::map<std::string, std::string>& extra_env) {
  return run_program(program, args, dir, RunOptions{.env = extra_env});
}

ProgramResult run_program(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& dir,
                          const RunOptions& options) {
  static int runs = 0;
  const std::string stem = "blurlab_run_" + std::to_string(::getpid()) + "_" + std::to_string(runs++);
  const auto out_path = std::filesystem::temp_directory_path() / (stem + ".out");
  const auto err_path = std::filesystem::temp_directory_path() / (stem + ".err");

  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    const std::string key = entry.substr(0, entry.find('='));
    if (key == "DISPLAY" || key == "WAYLAND_DISPLAY" || options.env.count(key)) continue;
    env_strings.push_back(entry);
  }
  for (const auto& [key, value] : options.env) env_strings.push_back(key + "=" + value);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  std::vector<std::string> argv_strings{program};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  int pipe_ends[2] = {-1, -1};
  if (options.stdout_reader_gone) {
    if (::pipe2(pipe_ends, O_CLOEXEC) != 0) return {.err = "no pipe"};
    ::close(pipe_ends[0]);  // the reader is gone before the program writes anything
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // The program starts with default signal handling, whatever this process ignores.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t all;
  sigfillset(&all);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  ProgramResult result;
  const int spawn_error = posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (pipe_ends[1] >= 0) ::close(pipe_ends[1]);
  if (spawn_error != 0) {
    result.err = std::string("posix_spawn failed: ") + std::strerror(spawn_error);
    return result;
  }
  if (options.while_running) options.while_running(pid);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(options.timeout_s);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFSIGNALED(status)) {
    result.crashed = true;
    result.signal = WTERMSIG(status);
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
  if (!options.stdout_reader_gone) result.out = slurp(out_path);
  result.err = slurp(err_path);
  if (result.timed_out) result.err = "killed after " + std::to_string(options.timeout_s) + " s (a hang?)\n" + result.err;
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return result;
}

std::vector<std::string> files_below(const std::filesystem::path& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(std::filesystem::relative(entry.path(), dir).string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace blurlab::test
