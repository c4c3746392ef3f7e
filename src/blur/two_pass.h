#pragma once
// The separable shape most variants share: a horizontal 1D pass from the source into
// intermediate 0 (AXIS 0, span "h"), then a vertical pass into the destination (AXIS 1, span
// "v"). Fragment variants draw both passes, compute variants dispatch them; what differs between
// variants is the shader, how a pass reads (image loads, texel fetches, bilinear samples) and the
// workgroup of the vertical pass.
#include <string>

#include "blur/blur.h"

namespace blurlab {

struct TwoPassSpec {
  Stage stage = Stage::Compute;
  std::string shader;                                // glsl/<shader>, with AXIS 0 or 1
  Binding::Kind input = Binding::Kind::ImageRead;    // how each pass reads its source
  gl::Defines (*defines)(const BlurSettings&) = nullptr;  // more defines (compute: besides the common ones)
  bool transpose_vertical = false;                   // the vertical pass runs workgroup HxW (line caches)
};

std::unique_ptr<Blur> make_two_pass(TwoPassSpec spec);

}  // namespace blurlab
