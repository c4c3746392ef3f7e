#pragma once
// The files and folders a headless run writes, with the options that name them: checked before
// any GL work, so a run that cannot write its outputs fails first.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.h"

namespace blurlab::app {

using OutputList = std::vector<std::pair<std::filesystem::path, std::string>>;

// --output, --csv and --json where given, with their options.
OutputList file_outputs(const cli::Options& o);
// Every file and folder the run may write, with its option: none may be another's.
OutputList all_outputs(const cli::Options& o);

}  // namespace blurlab::app
