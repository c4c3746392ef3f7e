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

namespace blurlab::report {

// docs/tools/charts.py as the program was built with it.
std::string_view embedded_charts_script();

// What a run of the chart script made: the files it wrote, or why it made none.
struct Charts {
  std::vector<std::filesystem::path> files;
  std::string failure;  // empty when the script ran
  std::string python;   // the interpreter that ran it (or was tried)
};
// Runs the embedded charts.py on a JSON report, writing into `out_dir`, with BLURLAB_PYTHON, else
// /usr/bin/python3 (where Debian's python3-matplotlib is), else python3 on PATH.
Charts make_charts(const std::filesystem::path& json, const std::filesystem::path& out_dir);

// Throws Error (exit 1) unless the page can be written at the end: DIR is a writable directory,
// or does not exist and its parent is one. Called before any GL work.
void check_report_dir(const std::filesystem::path& dir);

// Creates DIR if needed and writes report.json, report.csv, the charts and report.md (last, so
// a page never points at files that are not there). Returns the line to print.
std::string write_report_page(const Report& report, const std::filesystem::path& dir);

}  // namespace blurlab::report
