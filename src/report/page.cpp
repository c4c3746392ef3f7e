#include "report/page.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "blur/blur.h"
#include "report/effect_report.h"
#include "util/child_process.h"
#include "util/error.h"
#include "util/files.h"
#include "util/strings.h"
#include "util/temp_files.h"

namespace blurlab::report {

namespace fs = std::filesystem;

namespace {

std::string python_interpreter() {
  if (const char* chosen = std::getenv("BLURLAB_PYTHON"); chosen && *chosen) return chosen;
  return ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

double chart_seconds() {
  const char* given = std::getenv("BLURLAB_CHART_SECONDS");
  if (!given || !*given) return kChartSeconds;
  const auto seconds = parse_double(given);
  if (!seconds || *seconds <= 0 || *seconds > 86400)
    throw Error("BLURLAB_CHART_SECONDS '" + std::string(given) + "' is not a number of seconds in (0, 86400]");
  return *seconds;
}

std::string last_line(const std::string& text) {
  std::string last;
  for (const std::string& line : split(text, '\n'))
    if (!trim(line).empty()) last = std::string(trim(line));
  return last;
}

}  // namespace

Charts make_charts(std::string_view json) {
  Charts charts;
  charts.python = python_interpreter();
  const double seconds = chart_seconds();
  // Everything the script sees is here; it goes when this function returns, or with a signal.
  std::unique_ptr<TemporaryDirectory> work;
  try {
    work = std::make_unique<TemporaryDirectory>(fs::temp_directory_path(), 0700);
    work->write_file("report.json", json);
    work->write_file("tool_io.py", embedded_tool_io_module());
  } catch (const std::exception& e) {  // std::system_error, or filesystem_error for a TMPDIR that is not a directory
    charts.failure = "no private directory for the chart script in the temporary directory (" + std::string(e.what()) + ")";
    return charts;
  }
  const fs::path dir = work->path();
  ChildRequest request;
  request.argv = {charts.python, "-I", "-c", std::string(embedded_charts_script()), "report.json", "--out", dir.string(), "--log"};
  request.env = {"HOME=" + dir.string(), "MPLCONFIGDIR=" + (dir / "matplotlib").string(), "MPLBACKEND=Agg", "LC_ALL=C.UTF-8",
                 std::string("PATH=") + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")};
  request.directory = dir;
  request.timeout_s = seconds;
  const ChildResult run = run_child(request);
  if (!run.started) {
    charts.failure = charts.python + " could not be started (" + run.failure + ")";
    return charts;
  }
  if (run.timed_out) {
    charts.failure = charts.python + " did not finish within " + format_double(seconds) + " s (BLURLAB_CHART_SECONDS) and was stopped";
    return charts;
  }
  if (run.exit_code != 0) {
    const std::string why = last_line(run.output);
    charts.failure = !why.empty() ? why
                     : run.signal ? charts.python + " was ended by signal " + std::to_string(run.signal)
                                  : charts.python + " exited with status " + std::to_string(run.exit_code);
    return charts;
  }
  // The lines it printed name its charts; only PNGs it made in the directory are taken.
  for (const std::string& line : split(run.output, '\n')) {
    const fs::path file(std::string(trim(line)));
    const std::string name = file.filename().string();
    if (file.parent_path() != dir || name.empty() || name.front() == '.' || file.extension() != ".png") continue;
    // report.md links it as it is: a name that would need escaping is no chart charts.py makes.
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != std::string::npos) {
      charts.failure = "the chart script named a chart '" + name + "', which is not letters, digits, dots, dashes and underscores";
      charts.files.clear();
      return charts;
    }
    try {
      charts.files.emplace_back(name, read_regular_file(file, kMaxChartBytes, "the chart"));
    } catch (const Error& e) {
      charts.failure = e.what();
      charts.files.clear();
      return charts;
    }
  }
  if (charts.files.empty()) charts.failure = "the chart script wrote no chart";
  return charts;
}

const OutputFolderKind& report_folder() {
  // The page links its charts as "![NAME](NAME)" and its files as "- [NAME](NAME)" (write_markdown).
  static const OutputFolderKind kind{"--report", "report", "report.md", [](std::string_view text) {
    const std::vector<std::string> lines = split(text, '\n');
    if (lines.empty() || lines.front() != "# blurlab report") throw Error("it does not start with \"# blurlab report\"");
    std::vector<std::string> files;
    for (const std::string& line : lines) {
      const size_t target = line.rfind("](");
      if ((line.rfind("![", 0) == 0 || line.rfind("- [", 0) == 0) && target != std::string::npos && line.back() == ')')
        files.push_back(line.substr(target + 2, line.size() - target - 3));
    }
    return files;
  }};
  return kind;
}

void check_report_dir(const fs::path& dir) {
  check_output_directory(dir, report_folder());
  chart_seconds();  // a bad BLURLAB_CHART_SECONDS is refused now, not after the run
}

std::string write_report_page(const Report& report, const fs::path& dir) {
  std::ostringstream json, csv;
  write_json(report, json);
  write_csv(report, csv);
  write_file_into(dir, "report.json", json.str(), "--report");
  write_file_into(dir, "report.csv", csv.str(), "--report");

  Page page;
  page.files = {"report.json", "report.csv"};
  const bool timed = std::any_of(report.rows.begin(), report.rows.end(), [](const Measurement& m) { return m.total_median(); });
  // The charts draw blurs against the copy pass: a run that timed the copy alone has nothing to draw.
  const bool blur_timed = std::any_of(report.rows.begin(), report.rows.end(),
                                      [](const Measurement& m) { return m.total_median() && is_blur(*m.variant); });
  std::string charts_line;
  std::vector<std::string> crops;
  if (!report.effect_rows.empty()) {  // the crops of the shipped frames are the pictures an effect run shows
    for (const auto& [name, bytes] : effect_crop_files(report)) {
      write_file_into(dir, name, bytes, "--report");
      crops.push_back(name);
    }
    page.charts_note = "No charts for an effect run: the crops above show each implementation's shipped frame beside the ground truth.";
    charts_line = crops.empty() ? "no crops: nothing was checked" : std::to_string(crops.size()) + " crops";
  } else if (!timed) {
    page.charts_note = "No charts: nothing was timed (--frames 0).";
    charts_line = "no charts: nothing was timed";
  } else if (!blur_timed) {
    page.charts_note = "No charts: only the copy pass was timed, and the charts draw blurs against it (add a blur to --variant).";
    charts_line = "no charts: only the copy pass was timed";
  } else {
    const Charts charts = make_charts(json.str());
    for (const auto& [name, bytes] : charts.files) {
      write_file_into(dir, name, bytes, "--report");
      page.charts.push_back(name);
    }
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
  std::vector<std::string> written = page.files;
  written.insert(written.end(), page.charts.begin(), page.charts.end());
  written.insert(written.end(), crops.begin(), crops.end());
  written.push_back("report.md");
  remove_earlier_output(dir, report_folder(), written);
  write_file_into(dir, "report.md", markdown.str(), "--report");
  return "report: " + single_line((dir / "report.md").string()) + " (" + charts_line + "; report.json, report.csv beside it)";
}

}  // namespace blurlab::report
