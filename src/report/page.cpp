#include "report/page.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "util/error.h"
#include "util/files.h"
#include "util/strings.h"

extern char** environ;

namespace blurlab::report {

namespace fs = std::filesystem;

namespace {

std::string python_interpreter() {
  if (const char* chosen = std::getenv("BLURLAB_PYTHON"); chosen && *chosen) return chosen;
  return ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

// Runs `args` (args[0] looked up on PATH) with stdin from /dev/null; returns the exit status
// (-1 when it could not start, with `output` saying why) and its stdout and stderr together.
int run_program(const std::vector<std::string>& args, std::string& output) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    output = std::string("no pipe: ") + std::strerror(errno);
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    output = std::strerror(spawned);
    return -1;
  }
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n > 0) output.append(buffer, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string last_line(const std::string& text) {
  std::string last;
  for (const std::string& line : split(text, '\n'))
    if (!trim(line).empty()) last = std::string(trim(line));
  return last;
}

}  // namespace

Charts make_charts(const fs::path& json, const fs::path& out_dir) {
  Charts charts;
  charts.python = python_interpreter();
  std::string output;
  const int status = run_program({charts.python, "-c", std::string(embedded_charts_script()), json.string(), "--out",
                                   out_dir.string(), "--log"},
                                  output);
  if (status == -1) {
    charts.failure = charts.python + " could not be started (" + output + ")";
    return charts;
  }
  if (status != 0) {
    const std::string why = last_line(output);
    charts.failure = why.empty() ? charts.python + " exited with status " + std::to_string(status) : why;
    return charts;
  }
  for (const std::string& line : split(output, '\n')) {
    std::error_code ec;
    const fs::path file(std::string(trim(line)));
    if (!file.empty() && fs::is_regular_file(file, ec)) charts.files.push_back(file);
  }
  if (charts.files.empty()) charts.failure = "the chart script wrote no chart";
  return charts;
}

void check_report_dir(const fs::path& dir) {
  std::error_code ec;
  const std::string name = dir.string();
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw Error("--report '" + name + "' is not a directory");
    if (::access(dir.c_str(), W_OK) != 0) throw Error("--report '" + name + "': cannot write into it");
    return;
  }
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec) || ::access(parent.c_str(), W_OK) != 0)
    throw Error("--report '" + name + "': cannot create it in '" + parent.string() + "'");
}

std::string write_report_page(const Report& report, const fs::path& dir) {
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec) throw Error("--report '" + dir.string() + "': cannot create it: " + ec.message());
  std::ostringstream json, csv;
  write_json(report, json);
  write_csv(report, csv);
  write_file_atomically(dir / "report.json", json.str());
  write_file_atomically(dir / "report.csv", csv.str());

  Page page;
  page.files = {"report.json", "report.csv"};
  const bool timed = std::any_of(report.rows.begin(), report.rows.end(), [](const Measurement& m) { return m.total_median(); });
  std::string charts_line;
  if (!timed) {
    page.charts_note = "No charts: nothing was timed (--frames 0).";
    charts_line = "no charts: nothing was timed";
  } else {
    const Charts charts = make_charts(dir / "report.json", dir);
    for (const fs::path& file : charts.files) page.charts.push_back(file.filename().string());
    if (!charts.failure.empty()) {
      page.charts_note = "The charts could not be made here: " + charts.failure +
                         ". With python3 and matplotlib, `python3 charts.py report.json --out . --log` in this folder makes "
                         "them (charts.py is docs/tools/charts.py of blurlab).";
      charts_line = "no charts: " + charts.failure;
    } else {
      charts_line = std::to_string(charts.files.size()) + " charts";
    }
  }
  std::ostringstream markdown;
  write_markdown(report, page, markdown);
  write_file_atomically(dir / "report.md", markdown.str());
  return "report: " + (dir / "report.md").string() + " (" + charts_line + "; report.json, report.csv beside it)";
}

}  // namespace blurlab::report
