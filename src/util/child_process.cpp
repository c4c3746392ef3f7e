#include "util/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "util/strings.h"
#include "util/temp_files.h"

namespace blurlab {

namespace {

// argv[0] as execve() needs it: as given when it names a path, else the first executable of that
// name on PATH; "" when there is none.
std::string executable_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  for (const std::string& dir : split(path ? path : "/usr/bin:/bin", ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

class Pipe {
 public:
  Pipe() {
    if (::pipe2(ends_, O_CLOEXEC) != 0) ends_[0] = ends_[1] = -1;
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  bool ok() const { return ends_[0] >= 0; }
  int read_end() const { return ends_[0]; }
  int write_end() const { return ends_[1]; }
  void close_read() { close_end(0); }
  void close_write() { close_end(1); }

 private:
  void close_end(int i) {
    if (ends_[i] >= 0) ::close(ends_[i]);
    ends_[i] = -1;
  }
  int ends_[2];
};

// In the child between fork() and execve(): async-signal-safe calls only. Reports errno on
// `error_fd` when it cannot start.
[[noreturn]] void become_child(const char* path, char* const* argv, char* const* envp, const char* directory, int output_fd,
                               int error_fd, pid_t parent) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before the line above
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; ++s) ::sigaction(s, &default_action, nullptr);  // an ignored SIGPIPE is inherited otherwise
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int error = 0;
  if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(output_fd, 1) < 0 || ::dup2(output_fd, 2) < 0 || ::chdir(directory) != 0)
    error = errno;
  else {
    ::execve(path, argv, envp);
    error = errno;
  }
  (void)!::write(error_fd, &error, sizeof error);
  ::_exit(127);
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> list;
  for (std::string& s : strings) list.push_back(s.data());
  list.push_back(nullptr);
  return list;
}

}  // namespace

ChildResult run_child(const ChildRequest& request) {
  ChildResult result;
  const std::string path = request.argv.empty() ? "" : executable_path(request.argv.front());
  if (path.empty()) {
    result.failure = std::strerror(ENOENT);
    return result;
  }
  // Everything the child needs is made before fork(): after it, the child may not allocate.
  std::vector<std::string> argv_strings = request.argv, env_strings = request.env;
  const std::vector<char*> argv = pointers(argv_strings), envp = pointers(env_strings);
  const std::string directory = request.directory.string();
  Pipe output, exec_error;
  if (!output.ok() || !exec_error.ok()) {
    result.failure = std::string("no pipe: ") + std::strerror(errno);
    return result;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.failure = std::strerror(errno);
    return result;
  }
  if (pid == 0) become_child(path.c_str(), argv.data(), envp.data(), directory.c_str(), output.write_end(), exec_error.write_end(), parent);
  ::setpgid(pid, pid);  // as the child does itself: whichever runs first, the group exists before a kill
  const ChildGroupListing listing(pid);
  output.close_write();
  exec_error.close_write();
  int error = 0;
  ssize_t got = 0;
  while ((got = ::read(exec_error.read_end(), &error, sizeof error)) < 0 && errno == EINTR) {
  }
  if (got == static_cast<ssize_t>(sizeof error)) {  // else end of file: execve() succeeded
    ::waitpid(pid, nullptr, 0);
    result.failure = std::strerror(error);
    return result;
  }
  result.started = true;

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(request.timeout_s);
  bool open = true, exited = false;
  int status = 0;
  while (open || !exited) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      if (!exited) ::waitpid(pid, &status, 0);
      break;
    }
    if (open) {
      pollfd fd{output.read_end(), POLLIN, 0};
      if (::poll(&fd, 1, static_cast<int>(std::min<long long>(left, 100))) > 0) {
        char buffer[4096];
        const ssize_t n = ::read(output.read_end(), buffer, sizeof buffer);
        if (n > 0 && result.output.size() < kMaxChildOutputBytes)
          result.output.append(buffer, std::min(static_cast<size_t>(n), kMaxChildOutputBytes - result.output.size()));
        else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
          open = false;
      }
    } else {
      ::usleep(10000);
    }
    if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      ::kill(-pid, SIGKILL);  // whatever it left running, which may hold the pipe open
    }
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace blurlab
