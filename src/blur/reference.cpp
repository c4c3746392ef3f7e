#include "blur/reference.h"

#include <algorithm>

#include "blur/model.h"

namespace blurlab {

using model::parallel_rows;

namespace {

// The texel index of each position p in [-r, n + r) along an axis of n texels, at [p + r]; -1
// where the constant border is read instead.
std::vector<int> axis_map(const Border& border, int n, int r) {
  std::vector<int> map(static_cast<size_t>(n) + 2 * static_cast<size_t>(r));
  for (int p = -r; p < n + r; ++p) {
    const bool outside = p < 0 || p >= n;
    map[static_cast<size_t>(p + r)] = outside && border.mode == BorderMode::Constant ? -1 : border_index(border.mode, p, n);
  }
  return map;
}

}  // namespace

ReferenceImage reference_blur(const Image& input, const std::vector<double>& weights, const Border& border) {
  const int w = input.width, h = input.height, r = static_cast<int>(weights.size() / 2);
  const std::vector<int> xs = axis_map(border, w, r), ys = axis_map(border, h, r);
  double weight_sum = 0.0;
  for (double wi : weights) weight_sum += wi;
  std::vector<double> rows(input.texels.size());
  parallel_rows(h, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (int i = -r; i <= r; ++i) {
            const int at = xs[static_cast<size_t>(x + i + r)];
            sum += weights[static_cast<size_t>(i + r)] * (at < 0 ? border.value[static_cast<size_t>(c)] : input.at(at, y, c));
          }
          rows[(static_cast<size_t>(y) * w + x) * 4 + c] = sum;
        }
  });
  ReferenceImage out{w, h, std::vector<double>(rows.size())};
  parallel_rows(h, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (int j = -r; j <= r; ++j) {
            // A row outside, of the constant, blurred along x: the constant times the weights' sum.
            const int at = ys[static_cast<size_t>(y + j + r)];
            const double row = at < 0 ? border.value[static_cast<size_t>(c)] * weight_sum : rows[(static_cast<size_t>(at) * w + x) * 4 + c];
            sum += weights[static_cast<size_t>(j + r)] * row;
          }
          out.texels[(static_cast<size_t>(y) * w + x) * 4 + c] = sum;
        }
  });
  return out;
}

ReferenceImage reference_blur_direct(const Image& input, const std::vector<double>& weights, const Border& border) {
  const int w = input.width, h = input.height, r = static_cast<int>(weights.size() / 2);
  const std::vector<int> xs = axis_map(border, w, r), ys = axis_map(border, h, r);
  ReferenceImage out{w, h, std::vector<double>(input.texels.size())};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) {
        double sum = 0.0;
        for (int j = -r; j <= r; ++j)
          for (int i = -r; i <= r; ++i) {
            const int ax = xs[static_cast<size_t>(x + i + r)], ay = ys[static_cast<size_t>(y + j + r)];
            const double texel = ax < 0 || ay < 0 ? border.value[static_cast<size_t>(c)] : input.at(ax, ay, c);
            sum += weights[static_cast<size_t>(i + r)] * weights[static_cast<size_t>(j + r)] * texel;
          }
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
