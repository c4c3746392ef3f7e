#include "cpu_rasterizer_sizing.h"

#include <string_view>

#include "headless.h"
#include "util/strings.h"

namespace blurlab::app {

namespace {

// A CPU rasterizer (llvmpipe) takes 4 to 7 minutes on 2 cores for the sweep a GPU does in seconds
// at a GPU's defaults (kDefaultSize, 30 frames, at most 3 s each, and half a second of warm-up
// for clocks a CPU does not have). A run on one that chooses neither the image (--size, --image) nor the timing
// (--warmup, --frames, --budget) is sized down, and says so, with the time the default run
// (every variant, the default kernel) took on 2 cores; --tune and --tuned are sized alike, so a
// tuning file made there is used there.
constexpr glm::ivec2 kCpuRasterizerSize{480, 270};
constexpr int kCpuRasterizerWarmup = 1, kCpuRasterizerFrames = 5;
constexpr double kCpuRasterizerBudgetS = 1.0;
constexpr std::string_view kCpuRasterizerRunTime = "about 45 s on 2 cores, 42 s of CPU time";

}  // namespace

std::optional<std::string> size_for_cpu_rasterizer(cli::Options& o, const gl::GlInfo& info, bench::TimingPolicy& policy) {
  if (!info.software || !o.sizes.empty() || !o.image.empty() || o.timing_given) return std::nullopt;
  o.sizes = {kCpuRasterizerSize};
  o.warmup = kCpuRasterizerWarmup;
  o.frames = o.frames > 0 ? kCpuRasterizerFrames : 0;  // --check alone times nothing
  o.budget = kCpuRasterizerBudgetS;
  policy = {.warmup_frames = o.warmup, .min_warmup_s = 0.0, .frames = o.frames, .budget_s = o.budget};
  if (o.frames == 0)
    return "The renderer is a CPU rasterizer, so this run is sized down to " + size_text(kCpuRasterizerSize) + " (a GPU's default: " +
           size_text(kDefaultSize) + "; --size chooses).";
  return "The renderer is a CPU rasterizer, so this run is sized down: " + size_text(kCpuRasterizerSize) + ", " +
         plural(o.frames, "timed frame") + " per setting, at most " + format_double(o.budget) + " s each (the default run took " +
         std::string(kCpuRasterizerRunTime) + "; a GPU's defaults: " + size_text(kDefaultSize) +
         ", 30 frames, 3 s; --size, --frames and --budget choose).";
}

}  // namespace blurlab::app
