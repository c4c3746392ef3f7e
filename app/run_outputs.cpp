#include "run_outputs.h"

#include <tuple>

#include "export/export.h"
#include "report/page.h"

namespace blurlab::app {

// --output, --csv and --json where given, with their options.
OutputList file_outputs(const cli::Options& o) {
  OutputList files;
  for (const auto& [file, option] : {std::pair{&o.output, "--output"}, std::pair{&o.csv, "--csv"}, std::pair{&o.json, "--json"}})
    if (!file->empty()) files.emplace_back(*file, option);
  return files;
}

// Every file and folder the run may write, with its option: none may be another's.
OutputList all_outputs(const cli::Options& o) {
  OutputList files = file_outputs(o);
  if (o.tune) files.emplace_back(o.tune_file, "--tune-file");
  for (const auto& [dir, option, names] : {std::tuple{&o.report_dir, "--report", &report::kReportFiles},
                                           std::tuple{&o.export_dir, "--export", &kExportFiles}}) {
    if (dir->empty()) continue;
    files.emplace_back(*dir, option);
    for (const std::string& name : *names) files.emplace_back(std::filesystem::path(*dir) / name, option);
  }
  if (!o.dump_dir.empty()) files.emplace_back(o.dump_dir, "--dump-programs");
  return files;
}

}  // namespace blurlab::app
