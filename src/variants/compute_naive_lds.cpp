// compute-naive-lds: one dispatch; each workgroup caches its tile plus the r-texel apron in
// shared memory, then sums the (2r+1)^2 window of each pixel from there.
#include "variants/lds.h"

namespace blurlab {
namespace {

// (WG_X + 2r) x (WG_Y + 2r) texels: the tile glsl/compute_naive_lds.comp declares.
int tile_texels(const BlurSettings& s) {
  const int apron = 2 * s.kernel.radius;
  const glm::ivec2 wg = s.workgroup();
  return (wg.x + apron) * (wg.y + apron);
}

SharedMemory shared_memory(const BlurSettings& s) {
  const int apron = 2 * s.kernel.radius;
  return lds::shared_memory(s, tile_texels,
                            "tile " + std::to_string(s.workgroup().x + apron) + "x" + std::to_string(s.workgroup().y + apron) + " " +
                                lds::cache_name(s));
}

}  // namespace

namespace variant {
extern const VariantInfo compute_naive_lds{
    .name = "compute-naive-lds",
    .stage = Stage::Compute,
    .family = Family::SharedMemory,
    .summary = "compute shader, workgroup tile + apron cached in shared memory, all (2r+1)^2 taps from there",
    .knobs = {knobs::workgroup({{8, 8}, {16, 16}, {32, 8}}), lds::cache_knob({32, 16})},
    .accumulated_terms = direct_2d_terms,
    .loop_iterations = direct_2d_terms,  // the (2r+1)^2 taps dominate the tile load
    .shared_memory = shared_memory,
    .create = [] { return std::unique_ptr<Blur>(new lds::OneDispatch("compute_naive_lds.comp", "2d", tile_texels)); },
    .own_bound = direct_2d_bound,
};
}  // namespace variant
}  // namespace blurlab
