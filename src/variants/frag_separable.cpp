// frag-separable: two fullscreen fragment passes (horizontal into the intermediate, then
// vertical), 2r+1 taps each.
#include "blur/two_pass.h"

namespace blurlab {
namespace variant {
extern const VariantInfo frag_separable{
    .name = "frag-separable",
    .stage = Stage::Fragment,
    .family = Family::Separable,
    .summary = "fragment shader, horizontal then vertical pass, 2r+1 taps each",
    .uses_intermediate = true,
    .create = [] { return make_two_pass({Stage::Fragment, "frag_separable.frag", Binding::Kind::Sampled}); },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 2); },
};
}  // namespace variant
}  // namespace blurlab
