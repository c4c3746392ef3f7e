// frag-separable-linear: two fullscreen fragment passes (horizontal into the intermediate, then
// vertical), each fetching two taps per bilinear sample: r+1 fetches (r+2 for odd r) per pass.
#include "blur/two_pass.h"
#include "variants/linear_common.h"

namespace blurlab {
namespace variant {
extern const VariantInfo frag_separable_linear{
    .name = "frag-separable-linear",
    .stage = Stage::Fragment,
    .family = Family::Bilinear,
    .summary = "fragment shader, horizontal then vertical pass, two taps per bilinear fetch",
    .uses_intermediate = true,
    .tolerance_lsb = 2,
    .hardware_filtering = true,
    .accumulated_terms = linear::separable_terms,
    .create = [] { return make_two_pass({Stage::Fragment, "frag_separable_linear.frag", Binding::Kind::SampledLinear}); },
    .own_bound = linear::separable_bound,
};
}  // namespace variant
}  // namespace blurlab
