#pragma once
// The CPU reference blur every GPU variant is checked against: double precision, the same
// weights (blur/kernel.h), all four channels. Borders (blur/border.h) as OpenCV defines them: the
// image is extended by the mode (repeated reflections for radii larger than the image), then
// convolved with the 2D kernel w_i w_j.
#include <cstdint>
#include <vector>

#include "blur/border.h"
#include "blur/kernel.h"
#include "image/image.h"

namespace blurlab {

struct ReferenceImage {
  int width = 0;
  int height = 0;
  std::vector<double> texels;  // RGBA, row 0 at the top, like Image
  double at(int x, int y, int c) const { return texels[(static_cast<size_t>(y) * width + x) * 4 + c]; }
};

// Separable evaluation (rows, then columns): equal in exact arithmetic to the 2D sum because the
// 2D weights are the outer product w_i w_j and the extension is separable too: an index mode
// maps x and y independently, and a row of the constant, blurred along x, is the constant times
// the sum of the weights. `border` as resolve() leaves it (a constant already a texel of the
// input format). Uses all hardware threads.
ReferenceImage reference_blur(const Image& input, const std::vector<double>& weights, const Border& border);
// The direct (2r+1)^2 sum over the extended image, for testing the above on small images.
ReferenceImage reference_blur_direct(const Image& input, const std::vector<double>& weights, const Border& border);

// Blur that varies across the image (blur/radius_map.h): each pixel (x, y) is blurred by the kernel
// of its own level, level_kernel(kernel, levels[y W + x]), with the same weights and border rule as
// reference_blur. Evaluated separably per level (each level's 2D kernel is still an outer product):
// the rows blurred with that level's weights where its pixels' windows need them, then the columns
// at its pixels only; equal in exact arithmetic to each pixel's direct (2r+1)^2 sum.
ReferenceImage reference_variable_blur(const Image& input, const std::vector<uint8_t>& levels, const Kernel& kernel, const Border& border);

// The reference rounded (from double) as an rgba8 texture stores it: what golden PNGs hold.
std::vector<uint8_t> to_rgba8(const ReferenceImage& reference);

}  // namespace blurlab
