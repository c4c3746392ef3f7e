// compute-inline-lds: one dispatch, no intermediate texture; each workgroup blurs horizontally
// the rows its tile needs into shared memory, then vertically from there.
#include "variants/lds.h"

namespace blurlab {
namespace {

// WG_X x (WG_Y + 2r) texels: the tile glsl/compute_inline_lds.comp declares. Tall, narrow tiles
// keep the vertical apron small relative to the tile: 8x128 fits r = 64 in 32 KiB at fp32.
int tile_texels(const BlurSettings& s) { return s.workgroup().x * (s.workgroup().y + 2 * s.kernel.radius); }

SharedMemory shared_memory(const BlurSettings& s) {
  return lds::shared_memory(s, tile_texels,
                            "tile " + std::to_string(s.workgroup().x) + "x" + std::to_string(s.workgroup().y + 2 * s.kernel.radius) +
                                " " + lds::cache_name(s));
}

}  // namespace

namespace variant {
extern const VariantInfo compute_inline_lds{
    .name = "compute-inline-lds",
    .stage = Stage::Compute,
    .family = Family::SharedMemory,
    .summary = "compute shader, one dispatch: horizontal sums of the tile's rows + apron into shared memory, then vertical",
    .knobs = {knobs::workgroup({{8, 128}, {16, 64}, {32, 32}, {16, 16}}), lds::cache_knob({32, 16})},
    .shared_memory = shared_memory,
    .create = [] { return std::unique_ptr<Blur>(new lds::OneDispatch("compute_inline_lds.comp", "hv", tile_texels)); },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 1); },
};
}  // namespace variant
}  // namespace blurlab
