// compute-separable-regblock: two dispatches of one shader (glsl/compute_separable_regblock.comp),
// each blurring the rows of its source register blocked and storing them transposed: the first
// blurs the image's rows into a transposed intermediate (H x W), the second that intermediate's
// rows, i.e. the image's columns, and transposes them back. Both passes therefore read rows
// coalesced into shared memory, sum K outputs per invocation from K + 2r inputs read once each
// (glsl/regblock_common.glsl), and store coalesced: neighbouring invocations take neighbouring
// rows, which the transposed store turns into neighbouring texels. No ring, no walk, one barrier
// per workgroup: each pass is 2r+1 FMAs per channel and output plus (K + 2r) / K shared loads.
#include "variants/lds.h"
#include "variants/regblock.h"

namespace blurlab {
namespace {

const Knob kLines{.name = "lines",
                  .help = "Transposing passes: rows of a workgroup's tile (neighbouring invocations take neighbouring rows)",
                  .define = "LINES",
                  .min = 1,
                  .max = 64,
                  .candidates = {{4}, {2}, {8}, {16}}};
const Knob kBlock = regblock::block_x_knob({6, 7, 4, 8});
const Knob kTiles{.name = "tiles",
                  .help = "Transposing passes: tiles per workgroup down the same columns, the next one fetched during the sums",
                  .define = "TILES",
                  .min = 1,
                  .max = 64,
                  .candidates = {{2}, {1}, {4}, {8}}};
const Knob kWeights = knobs::weights({1, 0});

// A workgroup's tile: LINES rows of SPAN = (N / LINES) K outputs, staged with their 2r apron
// columns in shared memory rows of odd stride (glsl/compute_separable_regblock.comp).
struct Tile {
  int invocations, lines, block, span, stride, tiles;
  glm::ivec2 workgroup_covers() const { return {span, lines * tiles}; }
};
Tile tile(const BlurSettings& s) {
  const glm::ivec2 wg = s.workgroup();
  const int n = wg.x * wg.y, lines = s.integer(kLines), block = s.integer(kBlock);
  const int span = n / lines * block;
  return {n, lines, block, span, (span + 2 * s.kernel.radius) | 1, s.integer(kTiles)};
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
  return t.tiles * (staging + regblock::line_iterations(s, t.block) + t.block);
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
    .summary = "compute shader, two dispatches that blur rows register blocked and store them transposed "
               "(rows, then the columns as rows)",
    .uses_intermediate = true,
    // Defaults: lines, cache and weights among the fastest of about 230 settings timed on the H200
    // (smaller blocks and fewer lines than one would guess); 64 invocations, K = 6 and two tiles the
    // best compromise of the tiles sweep on an H100 over both sizes and radii (docs/PERFORMANCE.md, issue 16).
    .knobs = {knobs::workgroup({{64, 1}, {128, 1}, {256, 1}}), kLines, kBlock, kTiles, lds::cache_knob({16, 32}), kWeights},
    .accumulated_terms = accumulated_terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSeparableRegblock); },
};
}  // namespace variant
}  // namespace blurlab
