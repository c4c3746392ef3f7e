// compute-separable: two compute dispatches (horizontal into the intermediate, then vertical),
// one invocation per pixel, 2r+1 taps each.
#include "blur/two_pass.h"

namespace blurlab {
namespace variant {
extern const VariantInfo compute_separable{
    .name = "compute-separable",
    .stage = Stage::Compute,
    .family = Family::Separable,
    .summary = "compute shader, horizontal then vertical dispatch, 2r+1 taps each",
    .uses_intermediate = true,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}, {64, 4}, {256, 1}})},
    .create = [] { return make_two_pass({Stage::Compute, "compute_separable.comp"}); },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 2); },
};
}  // namespace variant
}  // namespace blurlab
