#pragma once
// A headless run on a CPU rasterizer that chose neither the image nor the timing is sized down
// (cpu_rasterizer_sizing.cpp says by how much and why).
#include <optional>
#include <string>

#include "bench/measure.h"
#include "cli/options.h"
#include "gl/context.h"

namespace blurlab::app {

// Sizes `o` (and `policy`) for a CPU rasterizer when it chose none of that; returns what the run
// says about it.
std::optional<std::string> size_for_cpu_rasterizer(cli::Options& o, const gl::GlInfo& info, bench::TimingPolicy& policy);

}  // namespace blurlab::app
