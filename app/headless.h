#pragma once
#include "cli/options.h"

namespace blurlab::app {

// The image size of a headless run that names none (--size, --image).
inline constexpr glm::ivec2 kDefaultSize{1920, 1080};

// Headless mode: time variants, check them against the CPU reference, or blur one image to a
// file. Returns the process exit code.
int run_headless(const cli::Options& options);

}  // namespace blurlab::app
