#pragma once
// --report DIR: one page a user can share. DIR/report.md (Markdown: GPU, driver, settings, the
// command, the correctness summary, the table and the charts) with its files beside it:
// report.json, report.csv and the charts as PNGs. The charts come from docs/tools/charts.py,
// which the program carries and runs with python3; when that is not possible the page says why
// and how to make them, and shows no chart it does not have.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.h"
#include "util/files.h"

namespace blurlab::report {

// docs/tools/charts.py as the program was built with it.
std::string_view embedded_charts_script();
// docs/tools/tool_io.py, which the script imports: written beside it in its private folder.
std::string_view embedded_tool_io_module();

// What a run of the chart script made: the charts (file name and bytes), or why it made none.
struct Charts {
  std::vector<std::pair<std::string, std::string>> files;
  std::string failure;  // empty when the script ran
  std::string python;   // the interpreter that ran it (or was tried)
};
// The most seconds the chart script may take (BLURLAB_CHART_SECONDS changes it) and the most bytes
// one chart may hold.
inline constexpr double kChartSeconds = 120;
inline constexpr uint64_t kMaxChartBytes = 64 << 20;
// Runs the embedded charts.py on a JSON report with BLURLAB_PYTHON, else /usr/bin/python3 (where
// Debian's python3-matplotlib is), else python3 on PATH: isolated (-I: no code from the working
// directory, the script's or the user's site, no PYTHON* variables), in a private temporary
// directory that holds its only input and its outputs and is its working directory and HOME, with
// a minimal environment, within kChartSeconds (util/child_process.h). Reads back only the PNGs it
// made there, through the one reader.
Charts make_charts(std::string_view json);

// The files report.md links to besides the charts, whose names are known before the run.
inline const std::vector<std::string> kReportFiles = {"report.md", "report.json", "report.csv"};

// A report folder's kind (util/files.h): report.md, and the charts and files it links to.
const OutputFolderKind& report_folder();
// Throws Error (exit 1) unless the page can be written at the end (check_output_directory(): empty,
// new, or an earlier report and nothing else) and BLURLAB_CHART_SECONDS, if set, is a number of
// seconds. Called before any GL work.
void check_report_dir(const std::filesystem::path& dir);

// Writes report.json, report.csv, the charts and report.md into DIR (made if missing), staged with
// the run's other outputs (util/files.h: all of them appear at the run's commit, or none), and
// removes there the files of an earlier report it did not write again (its other charts). Returns
// the line to print once they are in place.
std::string write_report_page(const Report& report, const std::filesystem::path& dir);

}  // namespace blurlab::report
