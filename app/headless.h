#pragma once
#include "cli/options.h"

namespace blurlab::app {

// Headless mode: time variants, check them against the CPU reference, or blur one image to a
// file. Returns the process exit code.
int run_headless(const cli::Options& options);

}  // namespace blurlab::app
