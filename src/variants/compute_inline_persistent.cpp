// compute-inline-persistent: one dispatch, no intermediate texture (the FidelityFX approach);
// each workgroup walks down a column strip, keeping a ring of horizontally blurred rows in
// shared memory, so each input texel is read about once (plus the horizontal apron).
#include "variants/lds.h"

namespace blurlab {
namespace {

// Rows a workgroup walks down its strip (a segment restarts the ring, after a prologue of 2r rows).
const Knob kSegment = knobs::segment({256, 64, 4096});

// Workgroup knob W x S: a strip W columns wide, S rows per step. Shared memory, as
// glsl/compute_inline_persistent.comp lays it out: S input rows of W + 2r texels, plus a ring of
// 2r + S horizontally blurred rows of W texels.
int strip_texels(const BlurSettings& s) {
  const int w = s.workgroup().x, step = s.workgroup().y, apron = 2 * s.kernel.radius;
  return step * (w + apron) + w * (apron + step);
}

// A workgroup covers its strip's width and SEGMENT rows (a segment restarts the ring, after a
// prologue of 2r rows: longer segments waste less, shorter ones make more workgroups).
glm::ivec2 strip_cover(const BlurSettings& s) { return {s.workgroup().x, s.integer(kSegment)}; }

SharedMemory shared_memory(const BlurSettings& s) {
  const int w = s.workgroup().x, step = s.workgroup().y, apron = 2 * s.kernel.radius;
  return lds::shared_memory(s, strip_texels,
                            std::to_string(step) + " input rows of " + std::to_string(w + apron) + " + a ring of " +
                                std::to_string(apron + step) + " rows of " + std::to_string(w) + ", " + lds::cache_name(s));
}

}  // namespace

namespace variant {
extern const VariantInfo compute_inline_persistent{
    .name = "compute-inline-persistent",
    .stage = Stage::Compute,
    .family = Family::SharedMemory,
    .summary = "compute shader, one dispatch: each workgroup walks down a column strip with a ring of blurred rows "
               "in shared memory",
    .knobs = {knobs::workgroup({{16, 8}, {8, 8}, {32, 8}, {8, 4}, {64, 4}}), kSegment, lds::cache_knob({32, 16})},
    .shared_memory = shared_memory,
    .create = [] {
      return std::unique_ptr<Blur>(
          new lds::OneDispatch("compute_inline_persistent.comp", "hv", strip_texels, strip_cover));
    },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 1); },
};
}  // namespace variant
}  // namespace blurlab
