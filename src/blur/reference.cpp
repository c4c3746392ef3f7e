#include "blur/reference.h"

#include <algorithm>

#include "blur/model.h"

namespace blurlab {

using model::parallel_rows;

ReferenceImage reference_blur(const Image& input, const std::vector<double>& weights) {
  const int w = input.width, h = input.height, r = static_cast<int>(weights.size() / 2);
  std::vector<double> rows(input.texels.size());
  parallel_rows(h, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (int i = -r; i <= r; ++i) sum += weights[static_cast<size_t>(i + r)] * input.at(std::clamp(x + i, 0, w - 1), y, c);
          rows[(static_cast<size_t>(y) * w + x) * 4 + c] = sum;
        }
  });
  ReferenceImage out{w, h, std::vector<double>(rows.size())};
  parallel_rows(h, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (int j = -r; j <= r; ++j)
            sum += weights[static_cast<size_t>(j + r)] * rows[(static_cast<size_t>(std::clamp(y + j, 0, h - 1)) * w + x) * 4 + c];
          out.texels[(static_cast<size_t>(y) * w + x) * 4 + c] = sum;
        }
  });
  return out;
}

ReferenceImage reference_blur_direct(const Image& input, const std::vector<double>& weights) {
  const int w = input.width, h = input.height, r = static_cast<int>(weights.size() / 2);
  ReferenceImage out{w, h, std::vector<double>(input.texels.size())};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) {
        double sum = 0.0;
        for (int j = -r; j <= r; ++j)
          for (int i = -r; i <= r; ++i)
            sum += weights[static_cast<size_t>(i + r)] * weights[static_cast<size_t>(j + r)] *
                   input.at(std::clamp(x + i, 0, w - 1), std::clamp(y + j, 0, h - 1), c);
        out.texels[(static_cast<size_t>(y) * w + x) * 4 + c] = sum;
      }
  return out;
}

std::vector<uint8_t> to_rgba8(const ReferenceImage& reference) {
  std::vector<uint8_t> bytes(reference.texels.size());
  std::transform(reference.texels.begin(), reference.texels.end(), bytes.begin(), [](double v) { return to_unorm8(v); });
  return bytes;
}

}  // namespace blurlab
