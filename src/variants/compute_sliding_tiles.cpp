// compute-sliding-tiles: compute-sliding's two passes of running sums (a box along the rows into
// the intermediate, then along the columns), built to cost what two passes must move at any radius
// and image size (glsl/box_walk.glsl): each pass reads its tiles of texels into shared memory once,
// neighbouring invocations on neighbouring texels, and each invocation walks a chunk of one line
// from its own window sum (2r + 1 reads from shared memory), so neither a long warm-up nor a few
// long walks decide the time. rgba8: integer sums, the average rounded exactly in the shader (the
// intermediate holds the rows' averages, as compute-sliding's does; 1 LSB).
#include "variants/box_walk.h"
#include "variants/sliding.h"

namespace blurlab {
namespace {

const Knob kChunk = box_walk::chunk_knob({0, 31, 63, 127, 255});

box_walk::Cascade cascade(const BlurSettings& s) { return {{s.kernel.radius}}; }

struct Passes {
  box_walk::Tile rows, columns;
};
Passes passes_for(const BlurSettings& s, glm::ivec2 size) {
  const gl::Format io = s.input_format, mid = s.intermediate_format();
  return {box_walk::tile(s, size, 0, cascade(s), io, mid), box_walk::tile(s, size, 1, cascade(s), mid, io)};
}

class ComputeSlidingTiles final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    tiles_ = passes_for(s, setup.size());
    rows_ = &setup.compute("compute_sliding_tiles.comp", io, mid, box_walk::defines(s, tiles_.rows, cascade(s), io, mid));
    columns_ = &setup.compute("compute_sliding_tiles.comp", mid, io, box_walk::defines(s, tiles_.columns, cascade(s), mid, io));
  }
  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    box_walk::dispatch(passes, "h", *rows_, tiles_.rows, passes.source(), rows);
    box_walk::dispatch(passes, "v", *columns_, tiles_.columns, rows, passes.destination());
  }

 private:
  Passes tiles_;
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  return box_walk::check(s, cascade(s));
}

SharedMemory shared_memory(const BlurSettings& s) { return box_walk::shared_memory(s, cascade(s)); }

double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const Passes p = passes_for(s, size);
  return std::max(box_walk::loop_iterations(p.rows, cascade(s)), box_walk::loop_iterations(p.columns, cascade(s)));
}

// Float input: each pass's window sum and running sum over its chunk, and the weight.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const Passes p = passes_for(s, size);
  return box_walk::float_terms(cascade(s), p.rows.chunk) + box_walk::float_terms(cascade(s), p.columns.chunk);
}

}  // namespace

namespace variant {
extern const VariantInfo compute_sliding_tiles{
    .name = "compute-sliding-tiles",
    .stage = Stage::Compute,
    .summary = "box only: running sums along rows, then columns, each invocation a chunk of a tile staged in shared memory",
    .kernels = KernelSupport::BoxOnly,
    .uses_intermediate = true,
    .knobs = {knobs::workgroup({{32, 1}, {64, 1}, {128, 1}}), kChunk},
    .accumulated_terms = terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSlidingTiles); },
    .own_bound = sliding::two_pass_bound,
};
}  // namespace variant
}  // namespace blurlab
