// compute-separable-regblock: two dispatches of one shader (glsl/compute_separable_regblock.comp),
// each blurring the rows of its source register blocked and storing them transposed: the first
// blurs the image's rows into a transposed intermediate (H x W), the second that intermediate's
// rows, i.e. the image's columns, and transposes them back. Both passes therefore read rows
// coalesced into shared memory, sum K outputs per invocation from K + 2r inputs read once each
// (glsl/regblock_common.glsl), and store coalesced: neighbouring invocations take neighbouring
// rows, which the transposed store turns into neighbouring texels. No ring, no walk, one barrier
// per workgroup: each pass is 2r+1 FMAs per channel and output plus (K + 2r) / K shared loads.
#include <limits>
#include <map>
#include <set>

#include "variants/lds.h"
#include "variants/regblock.h"

namespace blurlab {
namespace {

// The defaults change with the radius: each from its radius up, measured at r = 9, 16, 30, 64, 90
// and 128 (4096x4096 first, 1920x1080 second; docs/EXPERIMENTS.md, "The exact Gaussian"), a
// change halfway between two measured radii. Small r: every loop unrolled, 8 lines
// of K = 8 at r = 9 (the stores in 32-byte runs), today's 4 lines of K = 6 at r = 16. From r = 24
// the taps streamed through a loop (a compiler may leave unrolled sums of hundreds of taps rolled,
// indexing weights at run time: a cliff of 35x) and workgroups of 128, whose tiles share their 2r apron among more
// invocations: shared memory per warp is what keeps warps resident.
// The rows of a transposing pass's tile (the knob's name and help are shared with fft's).
const Knob kLines = with_defaults_by_radius(knobs::lines({4, 2, 8, 16}), {{0, {8}}, {13, {4}}, {48, {2}}, {77, {4}}, {109, {2}}});
const Knob kBlock = with_defaults_by_radius(regblock::block_x_knob({6, 7, 4, 8}), {{0, {8}}, {13, {6}}, {24, {8}}, {109, {6}}});
const Knob kTiles{.name = "tiles",
                  .help = "Transposing passes: tiles per workgroup down the same columns, the next one fetched during the sums",
                  .define = "TILES",
                  .min = 1,
                  .max = 64,
                  .candidates = {{2}, {1}, {4}, {8}}};
const Knob kWeights = knobs::weights({1, 0});
const Knob kTaps = with_defaults_by_radius(regblock::taps_knob({0, 1}), {{24, {1}}});
const Knob kWorkgroup = with_defaults_by_radius(knobs::workgroup({{64, 1}, {128, 1}, {256, 1}}), {{24, {128, 1}}});

// The stride of the staged rows, at least `width` texels, that spreads the sums' shared loads over
// the most banks. Invocation n reads line n % lines at column (n / lines) K + i, so its texel is
// (n % lines) stride + (n / lines) K + i. Shared memory serves 128 bytes a wavefront: 16
// invocations at a time for fp16 texels (8 bytes), 8 for fp32 (16 bytes), whose texels conflict
// when they are equal modulo 16 (or 8) and not the same texel. The old rule, an odd stride, spreads
// the lines but not the blocks: with K = 8, two lines and fp16, 4 invocations met in one bank.
int conflict_free_stride(int width, int lines, int block, int invocations, int texel_bytes) {
  const int per_wavefront = std::min(128 / texel_bytes, 32), banks = per_wavefront;
  int best = width, fewest = std::numeric_limits<int>::max();
  for (int stride = width; stride < width + banks; ++stride) {
    int worst = 1;  // the most distinct texels one wavefront reads in one bank
    for (int first = 0; first < std::min(invocations, 32); first += per_wavefront) {
      std::map<int, std::set<int>> texels_by_bank;
      for (int n = first; n < std::min(first + per_wavefront, invocations); ++n) {
        const int texel = (n % lines) * stride + (n / lines) * block;
        texels_by_bank[texel % banks].insert(texel);
      }
      for (const auto& [bank, texels] : texels_by_bank) worst = std::max(worst, static_cast<int>(texels.size()));
    }
    if (worst < fewest) fewest = worst, best = stride;
  }
  return best;
}

// A workgroup's tile: LINES rows of SPAN = (N / LINES) K outputs, staged with their 2r apron
// columns in shared memory rows of conflict_free_stride() (glsl/compute_separable_regblock.comp).
struct Tile {
  int invocations, lines, block, span, stride, tiles;
  glm::ivec2 workgroup_covers() const { return {span, lines * tiles}; }
};
Tile tile(const BlurSettings& s) {
  const glm::ivec2 wg = s.workgroup();
  const int n = wg.x * wg.y, lines = s.integer(kLines), block = s.integer(kBlock);
  const int span = n / lines * block;
  const int stride = conflict_free_stride(span + 2 * s.kernel.radius, lines, block, n, lds::texel_bytes(lds::cache_bits(s)));
  return {n, lines, block, span, stride, s.integer(kTiles)};
}
int stage_texels(const BlurSettings& s) {
  const Tile t = tile(s);
  return t.lines * t.stride;
}

class ComputeSeparableRegblock final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    gl::Defines defines = lds::defines(s, stage_texels);
    defines.push_back({"RB_BOX", s.kernel.type == KernelType::Box ? "1" : "0"});
    defines.push_back({"STAGE_STRIDE", std::to_string(tile(s).stride)});
    if (s.integer(kWeights) == 1)
      for (auto& define : constant_weight_defines(s.kernel)) defines.push_back(std::move(define));
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    rows_ = &setup.compute("compute_separable_regblock.comp", io, mid, defines);
    columns_ = &setup.compute("compute_separable_regblock.comp", mid, io, defines);
  }
  void run(BlurPasses& passes) override {
    const Tile t = tile(passes.settings());
    const glm::ivec2 size = passes.size(), transposed{size.y, size.x};
    const gl::Texture& rows = passes.intermediate(0, std::nullopt, transposed);
    passes.dispatch("h", *rows_, {Binding::sampled(passes.source()), Binding::write(rows)}, groups_covering(size, t.workgroup_covers()));
    const DispatchGrid down = groups_covering(transposed, t.workgroup_covers());
    passes.dispatch("v", *columns_, {Binding::sampled(rows), Binding::write(passes.destination())},
                    {down.groups, "ceil(H / " + std::to_string(t.span) + ") x ceil(W / " + std::to_string(t.workgroup_covers().y) + ") x 1"});
  }

 private:
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const Tile t = tile(s);
  if (t.invocations % t.lines != 0 || t.invocations < t.lines)
    return Refusal{Limit::Knobs, "the workgroup's " + std::to_string(t.invocations) + " invocations must be a multiple of lines " +
                                     std::to_string(t.lines) + " (each row of the tile takes the same number of blocks)"};
  return std::nullopt;
}

SharedMemory shared_memory(const BlurSettings& s) {
  const Tile t = tile(s);
  return lds::shared_memory(s, stage_texels,
                            "staged rows " + std::to_string(t.lines) + "x" + std::to_string(t.stride) + " " + lds::cache_name(s) +
                                " for a " + std::to_string(t.span) + "x" + std::to_string(t.lines) + " tile");
}

// Per tile: the staging loops, then one line segment of K outputs and its stores.
double loop_iterations(const BlurSettings& s, glm::ivec2 /*size*/) {
  const Tile t = tile(s);
  const double staging = 2 * std::ceil(double(t.lines) * (t.span + 2 * s.kernel.radius) / t.invocations);
  return t.tiles * (staging + regblock::line_iterations(s, t.block, regblock::streamed_taps(s, kTaps)) + t.block);
}

double accumulated_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  const Tile t = tile(s);
  return regblock::accumulated_terms(s, t.block, t.block);
}

}  // namespace

namespace variant {
extern const VariantInfo compute_separable_regblock{
    .name = "compute-separable-regblock",
    .stage = Stage::Compute,
    .family = Family::RegisterBlocked,
    .summary = "compute shader, two dispatches that blur rows register blocked and store them transposed "
               "(rows, then the columns as rows)",
    .uses_intermediate = true,
    // Defaults: the fp16 cache and two tiles the fastest at every radius timed (the fp32 cache's
    // doubled shared memory costs more warps than its conversions save); lines, block, taps and
    // workgroup by radius (above).
    .knobs = {kWorkgroup, kLines, kBlock, kTiles, lds::cache_knob({16, 32}), kWeights, kTaps},
    .accumulated_terms = accumulated_terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSeparableRegblock); },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 2, true); },
};
}  // namespace variant
}  // namespace blurlab
