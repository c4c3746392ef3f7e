// compute-separable-linear: two compute dispatches (horizontal into the intermediate, then
// vertical), one invocation per pixel, reading through the linear sampler two taps per fetch
// and writing with imageStore.
#include "blur/two_pass.h"
#include "variants/linear_common.h"

namespace blurlab {
namespace variant {
extern const VariantInfo compute_separable_linear{
    .name = "compute-separable-linear",
    .stage = Stage::Compute,
    .family = Family::Bilinear,
    .summary = "compute shader, horizontal then vertical dispatch, two taps per bilinear fetch",
    .uses_intermediate = true,
    .tolerance_lsb = 2,
    .hardware_filtering = true,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}, {64, 4}, {256, 1}})},
    .accumulated_terms = linear::separable_terms,
    .create = [] { return make_two_pass({Stage::Compute, "compute_separable_linear.comp", Binding::Kind::SampledLinear}); },
    .own_bound = linear::separable_bound,
};
}  // namespace variant
}  // namespace blurlab
