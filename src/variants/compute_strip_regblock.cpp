// compute-strip-regblock: one dispatch, register blocked in both directions, each workgroup
// walking down a strip of columns with a ring of horizontally blurred rows in shared memory
// (glsl/compute_strip_regblock.comp). Against compute-inline-regblock, whose tiles blur their
// 2r-row vertical apron horizontally again (TILE_H + 2r rows for TILE_H outputs), the walk blurs
// each row once per segment (plus a 2r-row prologue per SEGMENT rows), so the Gaussian's
// arithmetic stays near the minimum of 2 (2r+1) FMAs per channel and output, with each input
// read once into registers per block of BLOCK outputs.
#include <algorithm>
#include <cmath>

#include "variants/lds.h"
#include "variants/regblock.h"

namespace blurlab {
namespace {

const Knob kStrip{.name = "strip",
                  .help = "Strip walk: columns of the strip a workgroup walks down (ring width)",
                  .define = "STRIP",
                  .min = 1,
                  .max = 1024,
                  .candidates = {{32}, {64}, {128}}};
const Knob kBlock{.name = "block",
                  .help = "Strip walk: consecutive outputs per invocation in both stages (register block)",
                  .define = "BLOCK",
                  .min = 1,
                  .max = 32,
                  .candidates = {{8}, {4}, {16}}};
const Knob kSegment = knobs::segment({1024, 512, 256, 4096});
const Knob kWeights = knobs::weights({0, 1});
// The horizontal stage's reads: through an image (imageLoad; the shader converts rgba8 to
// floats), a texture (texelFetch; the texture unit converts), or staged (the step's rows loaded
// into shared memory first, coalesced and converted once; more shared memory, one more barrier
// per prologue chunk).
const Knob kFetch{.name = "fetch",
                  .help = "Strip walk: read the source as an image, a texture (texelFetch), or staged through shared memory",
                  .define = "FETCH",
                  .type = KnobType::Choice,
                  .choices = {{"image", 0}, {"texture", 1}, {"staged", 2}},
                  .candidates = {{0}, {1}, {2}}};
struct Walk {
  int invocations, strip, block, step, ring;
};
Walk walk(const BlurSettings& s) {
  const glm::ivec2 wg = s.workgroup();
  const int n = wg.x * wg.y, strip = s.integer(kStrip), block = s.integer(kBlock);
  const int step = n * block / strip;
  return {n, strip, block, step, 2 * s.kernel.radius + step};
}

// The ring, (STRIP | 1) x (2r + STEP) texels, and with fetch=staged the staging rows, STEP x
// ((STRIP + 2r) | 1) (glsl/compute_strip_regblock.comp's LDS_TEXELS; odd strides).
int ring_texels(const BlurSettings& s) {
  const Walk w = walk(s);
  const int staging = s.integer(kFetch) == 2 ? w.step * ((w.strip + 2 * s.kernel.radius) | 1) : 0;
  return (w.strip | 1) * w.ring + staging;
}

glm::ivec2 strip_cover(const BlurSettings& s) { return {s.integer(kStrip), s.integer(kSegment)}; }

class ComputeStripRegblock final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    gl::Defines defines = lds::defines(s, ring_texels);
    defines.push_back({"RB_BOX", s.kernel.type == KernelType::Box ? "1" : "0"});
    if (s.integer(kWeights) == 1)
      for (auto& define : constant_weight_defines(s.kernel)) defines.push_back(std::move(define));
    program_ = &setup.compute("compute_strip_regblock.comp", s.input_format, s.input_format, defines);
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const Binding source = s.integer(kFetch) == 1 ? Binding::sampled(passes.source()) : Binding::read(passes.source());  // texture / image
    passes.dispatch("hv", *program_, {source, Binding::write(passes.destination())}, groups_covering(passes.size(), strip_cover(s)));
  }

 private:
  const gl::Program* program_ = nullptr;
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const Walk w = walk(s);
  if (w.strip % w.block != 0)
    return Refusal{Limit::Knobs,
                   "strip " + std::to_string(w.strip) + " must be a multiple of block " + std::to_string(w.block) + " (rows are cut into blocks)"};
  if (w.invocations < w.strip || (w.invocations * w.block) % w.strip != 0)
    return Refusal{Limit::Knobs, "the workgroup's " + std::to_string(w.invocations) + " invocations must be a multiple of strip " +
                                     std::to_string(w.strip) + " (each step blurs " + std::to_string(w.invocations) +
                                     " blocks of each row and column)"};
  return std::nullopt;
}

SharedMemory shared_memory(const BlurSettings& s) {
  const Walk w = walk(s);
  return lds::shared_memory(s, ring_texels,
                            "ring " + std::to_string(w.strip | 1) + "x" + std::to_string(w.ring) +
                                (s.integer(kFetch) == 2 ? " + staging " + std::to_string(w.step) + "x" +
                                                              std::to_string((w.strip + 2 * s.kernel.radius) | 1)
                                                        : "") +
                                " " + lds::cache_name(s));
}

// One block of K outputs (regblock_common.glsl), every iteration of every loop as written.
double block_iterations(const BlurSettings& s, int k) {
  const double r = s.kernel.radius, taps = 2 * r + 1, inputs = k + 2 * r;
  if (s.kernel.type == KernelType::Box) return taps + 2.0 * k;
  return k + inputs * (1.0 + k);
}

// A segment: the prologue's rounds and each step's two blocks and stores.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const Walk w = walk(s);
  const double block = block_iterations(s, w.block) + w.block;
  const double rows = std::min(s.integer(kSegment), size.y);
  return std::ceil(2.0 * s.kernel.radius / w.step) * block + std::ceil(rows / w.step) * 2 * block;
}

// fp32 roundings per output (regblock.h), one block size both ways.
double accumulated_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  return regblock::accumulated_terms(s, s.integer(kBlock), s.integer(kBlock));
}

}  // namespace

namespace variant {
extern const VariantInfo compute_strip_regblock{
    .name = "compute-strip-regblock",
    .stage = Stage::Compute,
    .family = Family::RegisterBlocked,
    .summary = "compute shader, one dispatch: a walk down column strips, rows blurred once into a ring, register blocked both ways",
    // Defaults: the fastest of 54 settings measured at r = 16 (docs/EXPERIMENTS.md).
    .knobs = {knobs::workgroup({{256, 1}, {128, 1}, {512, 1}}), kStrip, kBlock, kSegment, lds::cache_knob({16, 32}), kFetch, kWeights},
    .accumulated_terms = accumulated_terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeStripRegblock); },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 1, true); },
};
}  // namespace variant
}  // namespace blurlab
