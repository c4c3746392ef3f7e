#pragma once
// The CPU reference blur every GPU variant is checked against: double precision, the same
// weights (blur/kernel.h), clamp-to-edge borders, all four channels.
#include <cstdint>
#include <vector>

#include "image/image.h"

namespace blurlab {

struct ReferenceImage {
  int width = 0;
  int height = 0;
  std::vector<double> texels;  // RGBA, row 0 at the top, like Image
  double at(int x, int y, int c) const { return texels[(static_cast<size_t>(y) * width + x) * 4 + c]; }
};

// Separable evaluation (rows, then columns): equal in exact arithmetic to the 2D sum because the
// 2D weights are the outer product w_i w_j. Uses all hardware threads.
ReferenceImage reference_blur(const Image& input, const std::vector<double>& weights);
// The direct (2r+1)^2 sum, for testing the above on small images.
ReferenceImage reference_blur_direct(const Image& input, const std::vector<double>& weights);

// The reference rounded (from double) as an rgba8 texture stores it: what golden PNGs hold.
std::vector<uint8_t> to_rgba8(const ReferenceImage& reference);

}  // namespace blurlab
