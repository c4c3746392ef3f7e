#pragma once
// What the CPU models of approximate variants share (ApproximationInfo::model): a model runs the
// variant's own passes in double precision on ReferenceImages and rounds wherever the GPU stores
// a value, to the format it stores it in, so that what is left between the GPU and its model is
// the rounding the model cannot know (ModelErrorBound in blur/check.h).
#include <algorithm>
#include <cmath>
#include <vector>

#include "blur/border.h"
#include "blur/reference.h"
#include "gl/format.h"
#include "util/parallel.h"

namespace blurlab::model {

using blurlab::parallel_rows;  // util/parallel.h, where the references find it too

// The input as the model's working image.
ReferenceImage from_image(const Image& image);
ReferenceImage blank(int width, int height);

// v as a texel of `format` holds it: rgba8 the nearest step k/255 (in [0, 1]), rgba16f the nearest
// half (ties to even), rgba32f the nearest float. (GL may truncate to half instead: the error
// bounds count it.)
double stored(double v, gl::Format format);
void store(ReferenceImage& image, gl::Format format);

// Texel (x, y) of channel c with the border rule (blur/border.h): the index modes map x and y
// each, the constant gives its value where either lies outside.
inline double texel(const ReferenceImage& image, int x, int y, int c, const Border& border) {
  if (border.mode == BorderMode::Constant)
    return x < 0 || y < 0 || x >= image.width || y >= image.height ? border.value[static_cast<size_t>(c)] : image.at(x, y, c);
  return image.at(border_index(border.mode, x, image.width), border_index(border.mode, y, image.height), c);
}

// What a bilinear fetch at (px, py) returns, in texel units (texel centres at k + 1/2): the two
// texels of each axis, floor(p - 1/2) and the next, each through the border rule (what the GL wrap
// modes do, and glsl/bilinear_common.glsl's fold for reflect101), weighted by the fraction of
// p - 1/2. The models use positions whose fractions are multiples of 1/8, which texture units'
// 8-bit weights hold exactly.
double bilinear(const ReferenceImage& image, double px, double py, int c, const Border& border);

}  // namespace blurlab::model
