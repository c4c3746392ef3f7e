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

namespace blurlab {
namespace {

// The register blocks: consecutive outputs one invocation computes from inputs read once.
const Knob kBlockX{.name = "block-x",
                   .help = "Register block: consecutive outputs per invocation along a row (horizontal stage)",
                   .define = "BLOCK_X",
                   .min = 1,
                   .max = 64,
                   .candidates = {{16}, {8}}};
const Knob kBlockY{.name = "block-y",
                   .help = "Register block: consecutive outputs per invocation down a column (vertical stage)",
                   .define = "BLOCK_Y",
                   .min = 1,
                   .max = 64,
                   .candidates = {{8}, {4}, {16}}};

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

std::optional<std::string> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& limits) {
  const Tile t0 = tile(s);
  if (t0.width % t0.kx != 0)
    return "the workgroup width " + std::to_string(t0.width) + " must be a multiple of block-x " + std::to_string(t0.kx) +
           " (rows are cut into blocks of that many columns)";
  const Tile t = tile(s);
  return lds::check_budget(s, limits, cache_texels,
                           "cache " + std::to_string(t.stride) + "x" + std::to_string(t.rows) + " " + lds::cache_name(s) +
                               " for a " + std::to_string(t.width) + "x" + std::to_string(t.height) + " tile");
}

// One line segment (regblock_common.glsl), every iteration of every loop as written: an upper
// bound, as compilers unroll the short constant loops.
double segment_iterations(const BlurSettings& s, int outputs) {
  const double r = s.kernel.radius, k = outputs, taps = 2 * r + 1, inputs = k + 2 * r;
  if (s.kernel.type == KernelType::Box) return taps + (k - 1) + k;  // first sum, slide, scale
  const double full = std::floor(taps / k), tail_start = std::max(k, full * k);
  return k + k * (1 + k)                          // zero, head inputs x outputs
         + std::max(full - 1, 0.0) * (1 + k * (1 + k))  // full blocks of k inputs x outputs
         + (inputs - tail_start) * (1 + k);            // tail inputs x outputs
}

// The horizontal stage's rounds of segments (and their stores), then the vertical segment.
double loop_iterations(const BlurSettings& s, glm::ivec2 /*size*/) {
  const Tile t = tile(s);
  const double invocations = s.workgroup().x * s.workgroup().y;
  const double rounds = std::ceil(double(t.rows) * (t.width / t.kx) / invocations);
  return rounds * (1 + segment_iterations(s, t.kx) + t.kx) + segment_iterations(s, t.ky) + t.ky;
}

// fp32 roundings per output: weighted, 2r+1 FMAs per stage (the default 2(2r+1) + 2). Box: per
// stage the first sum (2r+1 adds), two per slide step (KX-1 and KY-1), the scale and the
// weight's own rounding; plus the output. The fp16 cache's rounding is added by the check.
double accumulated_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  const double taps = 2.0 * s.kernel.radius + 1.0;
  if (s.kernel.type != KernelType::Box) return 2.0 * taps + 2.0;
  const Tile t = tile(s);
  return 2.0 * (taps + 2.0) + 2.0 * (t.kx - 1) + 2.0 * (t.ky - 1) + 2.0;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_inline_regblock{
    .name = "compute-inline-regblock",
    .stage = Stage::Compute,
    .summary = "compute shader, one dispatch, register blocked: K outputs per invocation from K+2r inputs read once, "
               "horizontal into shared memory, then vertical",
    .knobs = {knobs::workgroup({{16, 16}, {16, 8}, {32, 8}, {64, 4}}), kBlockX, kBlockY, lds::cache_knob({16, 32})},
    .accumulated_terms = accumulated_terms,
    .loop_iterations = loop_iterations,
    .check = check,
    .create = [] {
      return std::unique_ptr<Blur>(new lds::OneDispatch("compute_inline_regblock.comp", "hv", cache_texels, tile_cover,
                                                        kernel_path));
    },
};
}  // namespace variant
}  // namespace blurlab
