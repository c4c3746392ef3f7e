// compute-sliding-tiles: compute-sliding's two passes of running sums (a box along the rows into
// the intermediate, then along the columns), built to cost what two passes must move at any radius
// and image size (glsl/box_walk.glsl): each pass reads its tiles of texels into shared memory once,
// neighbouring invocations on neighbouring texels, and each invocation walks chunks of one line
// (`chains` of them side by side) from their own window sums (block sums of the tile and fewer than
// a chunk's texels from shared memory), so neither a long warm-up nor a few long walks decide the
// time. rgba8: integer sums, the average rounded exactly in the shader (the
// intermediate holds the rows' averages, as compute-sliding's does; 1 LSB).
#include "variants/box_walk.h"
#include "variants/sliding.h"

namespace blurlab {
namespace {

const Knob kChunk = box_walk::chunk_knob({0, 31, 63, 95});
const Knob kChains = box_walk::chains_knob({0, 1, 2, 4});

box_walk::Cascade cascade(const BlurSettings& s) { return {{s.kernel.radius}}; }

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  return box_walk::check(s, cascade(s));
}
SharedMemory shared_memory(const BlurSettings& s) { return box_walk::shared_memory(s, cascade(s)); }
double loop_iterations(const BlurSettings& s, glm::ivec2 size) { return box_walk::loop_iterations(s, size, cascade(s)); }

// Float input: each pass's window sum and running sum over its chunk, and the weight.
double terms(const BlurSettings& s, glm::ivec2 size) {
  if (s.input_format == gl::Format::rgba8) return 2.0 * sliding::kScaleTerms;  // integer sums, exact
  const box_walk::Passes p = box_walk::passes(s, size, cascade(s));
  return box_walk::float_terms(cascade(s), p.rows.chunk) + box_walk::float_terms(cascade(s), p.columns.chunk);
}

}  // namespace

namespace variant {
extern const VariantInfo compute_sliding_tiles{
    .name = "compute-sliding-tiles",
    .stage = Stage::Compute,
    .family = Family::RunningSums,
    .summary = "box only: running sums along rows, then columns, each invocation a chunk of a tile staged in shared memory",
    .kernels = KernelSupport::BoxOnly,
    .uses_intermediate = true,
    .knobs = {knobs::workgroup({{256, 1}, {128, 1}, {32, 1}, {64, 1}}), kChunk, kChains},
    .accumulated_terms = terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new box_walk::TwoPasses("compute_sliding_tiles.comp", cascade)); },
    .own_bound = sliding::two_pass_bound,
};
}  // namespace variant
}  // namespace blurlab
