// compute-inline-regblock: one dispatch, no intermediate texture, register blocked. Like
// compute-inline-lds, a workgroup blurs its tile's rows plus the vertical apron horizontally into
// shared memory, then vertically from there; but each invocation sums K consecutive outputs of a
// line from the K + 2r inputs they need, each read once into registers (glsl/regblock_common.glsl):
// (K + 2r) / K image fetches per horizontal output and (K + 2r) / K shared loads per vertical
// output, instead of 2r + 1 of each.
//
// Knobs: workgroup W x H invocations; block-y KY, the outputs per invocation of the vertical
// stage; block-x KX, those of the horizontal stage; cache fp16 or fp32. The output tile is W
// columns by H * KY rows: in the vertical stage invocation (x, y) writes column x, rows
// y*KY .. y*KY + KY-1; in the horizontal stage the W x (H*KY + 2r) cached sums are cut into
// segments of KX columns (KX must divide W), dealt out to the W * H invocations; KX = W (one
// segment per row) reads fewest texels. The default, 16x16 with KY = 8 and KX = 16, blurs a
// 16x128 tile, takes its 128 + 2r cached rows in one round of segments for r <= 64, and its fp16
// cache fits 48 KiB for r <= 116 (32 KiB: r <= 56). The box kernel takes a running sum instead
// of weighted taps (RB_BOX).
#include <algorithm>
#include <cmath>

#include "variants/lds.h"
#include "variants/regblock.h"

namespace blurlab {
namespace {

// The register blocks: consecutive outputs one invocation computes from inputs read once.
const Knob kBlockX = regblock::block_x_knob({16, 8});
const Knob kBlockY{.name = "block-y",
                   .help = "Register block: consecutive outputs per invocation down a column (vertical stage)",
                   .define = "BLOCK_Y",
                   .min = 1,
                   .max = 64,
                   .candidates = {{8}, {4}, {16}}};
// Streamed taps from r = 48: faster than unrolled at r = 64 and 90 (docs/EXPERIMENTS.md).
const Knob kTaps = with_defaults_by_radius(regblock::taps_knob({0, 1}), {{48, {1}}});

struct Tile {
  int width, height;  // outputs
  int rows;           // cached rows: the vertical apron added
  int stride;         // cache row stride: the width rounded up to odd (no bank conflicts)
  int kx, ky;          // outputs per line segment: horizontal, vertical
};
Tile tile(const BlurSettings& s) {
  const int kx = s.integer(kBlockX), ky = s.integer(kBlockY);
  const glm::ivec2 wg = s.workgroup();
  return {wg.x, wg.y * ky, wg.y * ky + 2 * s.kernel.radius, wg.x | 1, kx, ky};
}

// glsl/compute_inline_regblock.comp's cache: (W | 1) x (HK + 2r) texels.
int cache_texels(const BlurSettings& s) {
  const Tile t = tile(s);
  return t.stride * t.rows;
}

glm::ivec2 tile_cover(const BlurSettings& s) {
  const Tile t = tile(s);
  return {t.width, t.height};
}

gl::Defines kernel_path(const BlurSettings& s) {
  return {{"RB_BOX", s.kernel.type == KernelType::Box ? "1" : "0"}};
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const Tile t = tile(s);
  if (t.width % t.kx != 0)
    return Refusal{Limit::Knobs, "the workgroup width " + std::to_string(t.width) + " must be a multiple of block-x " +
                                     std::to_string(t.kx) + " (rows are cut into blocks of that many columns)"};
  return std::nullopt;
}

SharedMemory shared_memory(const BlurSettings& s) {
  const Tile t = tile(s);
  return lds::shared_memory(s, cache_texels,
                            "cache " + std::to_string(t.stride) + "x" + std::to_string(t.rows) + " " + lds::cache_name(s) + " for a " +
                                std::to_string(t.width) + "x" + std::to_string(t.height) + " tile");
}

// The horizontal stage's rounds of segments (and their stores), then the vertical segment.
double loop_iterations(const BlurSettings& s, glm::ivec2 /*size*/) {
  const Tile t = tile(s);
  const double invocations = s.workgroup().x * s.workgroup().y;
  const double rounds = std::ceil(double(t.rows) * (t.width / t.kx) / invocations);
  const bool streamed = regblock::streamed_taps(s, kTaps);
  return rounds * (1 + regblock::line_iterations(s, t.kx, streamed) + t.kx) + regblock::line_iterations(s, t.ky, streamed) + t.ky;
}

// fp32 roundings per output (regblock.h); the fp16 cache's rounding is added by the check.
double accumulated_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  const Tile t = tile(s);
  return regblock::accumulated_terms(s, t.kx, t.ky);
}

}  // namespace

namespace variant {
extern const VariantInfo compute_inline_regblock{
    .name = "compute-inline-regblock",
    .stage = Stage::Compute,
    .family = Family::RegisterBlocked,
    .summary = "compute shader, one dispatch, register blocked: K outputs per invocation from K+2r inputs read once, "
               "horizontal into shared memory, then vertical",
    .knobs = {knobs::workgroup({{16, 16}, {16, 8}, {32, 8}, {64, 4}}), kBlockX, kBlockY, lds::cache_knob({16, 32}), kTaps},
    .accumulated_terms = accumulated_terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] {
      return std::unique_ptr<Blur>(new lds::OneDispatch("compute_inline_regblock.comp", "hv", cache_texels, tile_cover,
                                                        kernel_path));
    },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 1, true); },
};
}  // namespace variant
}  // namespace blurlab
