#include "cpu_rasterizer_sizing.h"

#include "util/strings.h"

namespace blurlab::app {

namespace {

// A CPU rasterizer (llvmpipe) takes minutes on 2 cores for the sweep a GPU does in seconds at a
// GPU's defaults (cli::kDefaultHeadlessSize, 30 frames, at most 3 s each, and half a second of warm-up for
// clocks a CPU does not have). So on one, what the run leaves to the defaults is sized down, each
// on its own: the image (unless --size or --image chose it) and each of the warm-up, the frames
// and the budget (unless its option chose it); an option that keeps a GPU's value keeps that one
// only. --tune and --tuned are sized alike, so a tuning file made there is used there. How long
// the run takes, the progress lines estimate from what has run.
constexpr glm::ivec2 kCpuRasterizerSize{480, 270};
constexpr int kCpuRasterizerWarmup = 1, kCpuRasterizerFrames = 5;
constexpr double kCpuRasterizerBudgetS = 1.0;

std::string sizes_text(const std::vector<glm::ivec2>& sizes) {
  std::string text;
  for (glm::ivec2 size : sizes) text += (text.empty() ? "" : ", ") + size_text(size);
  return text;
}

}  // namespace

std::optional<std::string> size_for_cpu_rasterizer(cli::Options& o, const gl::GlInfo& info, bench::TimingPolicy& policy) {
  if (!info.software) return std::nullopt;
  const bool size_chosen = !o.sizes.empty() || !o.image.empty();
  if (!size_chosen) o.sizes = {kCpuRasterizerSize};
  if (!o.warmup_given) o.warmup = kCpuRasterizerWarmup;
  if (!o.frames_given) o.frames = o.frames > 0 ? kCpuRasterizerFrames : 0;  // --check alone times nothing
  if (!o.budget_given) o.budget = kCpuRasterizerBudgetS;
  policy = {.warmup_frames = o.warmup, .min_warmup_s = 0.0, .frames = o.frames, .budget_s = o.budget};
  // The size first: the line a reader sees says the size the run blurs, and how to get the other.
  std::string text = "The renderer is a CPU rasterizer: ";
  if (!size_chosen)
    text += "this run blurs " + size_text(kCpuRasterizerSize) + ", sized down from a GPU's default " + size_text(cli::kDefaultHeadlessSize) +
            " (--size " + size_text(cli::kDefaultHeadlessSize) + " runs that)";
  else
    text += "this run blurs " + (o.image.empty() ? sizes_text(o.sizes) + " as --size asks" : "--image at its own size") + ", not sized down to " +
            size_text(kCpuRasterizerSize) + " (without " + (o.image.empty() ? "--size" : "--image") + " it would be)";
  if (o.frames == 0) return text + "; nothing is timed.";
  const auto chosen = [](bool given, const std::string& what, const std::string& option) {
    return what + (given ? " as " + option + " asks" : " (" + option + " chooses)");
  };
  return text + "; " + chosen(o.frames_given, plural(o.frames, "timed frame") + " per setting", "--frames") + ", " +
         chosen(o.budget_given, "at most " + format_double(o.budget) + " s each", "--budget") + ", " +
         chosen(o.warmup_given, plural(o.warmup, "warm-up frame"), "--warmup") + " (a GPU's defaults: 30 frames, 3 s, 5).";
}

}  // namespace blurlab::app
