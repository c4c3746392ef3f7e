#include "blur/reference.h"

#include <algorithm>

#include <glm/vec4.hpp>

#include "blur/radius_map.h"
#include "util/parallel.h"

namespace blurlab {

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

// The pixels [x0, x1] x [y0, y1] of a separable blur that `take(x, y)` accepts, written to `out`:
// each row blurred along x where those pixels' columns read it (into `rows`, scratch of the
// image's size), then the columns along y, in double. A row outside the image, of the constant
// border, blurred along x is the constant times the weights' sum.
template <class Take>
void separable_blur(const Image& input, const std::vector<double>& weights, const Border& border, glm::ivec4 box, Take take,
                    std::vector<double>& rows, ReferenceImage& out) {
  const int w = input.width, h = input.height, r = static_cast<int>(weights.size() / 2);
  const int x0 = box.x, y0 = box.y, x1 = box.z, y1 = box.w;
  const std::vector<int> xs = axis_map(border, w, r), ys = axis_map(border, h, r);
  double weight_sum = 0.0;
  for (double wi : weights) weight_sum += wi;
  std::vector<char> needed(static_cast<size_t>(h), 0);  // the image rows the columns of rows y0 - r .. y1 + r read
  for (int y = y0 - r; y <= y1 + r; ++y)
    if (const int at = ys[static_cast<size_t>(y + r)]; at >= 0) needed[static_cast<size_t>(at)] = 1;
  parallel_rows(h, [&](int from, int to) {
    for (int y = from; y < to; ++y) {
      if (!needed[static_cast<size_t>(y)]) continue;
      for (int x = x0; x <= x1; ++x)
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (int i = -r; i <= r; ++i) {
            const int at = xs[static_cast<size_t>(x + i + r)];
            sum += weights[static_cast<size_t>(i + r)] * (at < 0 ? border.value[static_cast<size_t>(c)] : input.at(at, y, c));
          }
          rows[(static_cast<size_t>(y) * w + x) * 4 + c] = sum;
        }
    }
  });
  parallel_rows(y1 - y0 + 1, [&](int from, int to) {
    for (int y = y0 + from; y < y0 + to; ++y)
      for (int x = x0; x <= x1; ++x) {
        if (!take(x, y)) continue;
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (int j = -r; j <= r; ++j) {
            const int at = ys[static_cast<size_t>(y + j + r)];
            const double row = at < 0 ? border.value[static_cast<size_t>(c)] * weight_sum : rows[(static_cast<size_t>(at) * w + x) * 4 + c];
            sum += weights[static_cast<size_t>(j + r)] * row;
          }
          out.texels[(static_cast<size_t>(y) * w + x) * 4 + c] = sum;
        }
      }
  });
}

}  // namespace

ReferenceImage reference_blur(const Image& input, const std::vector<double>& weights, const Border& border) {
  ReferenceImage out{input.width, input.height, std::vector<double>(input.texels.size())};
  std::vector<double> rows(input.texels.size());
  separable_blur(input, weights, border, {0, 0, input.width - 1, input.height - 1}, [](int, int) { return true; }, rows, out);
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

ReferenceImage reference_variable_blur(const Image& input, const std::vector<uint8_t>& levels, const Kernel& kernel, const Border& border) {
  const int w = input.width, h = input.height;
  ReferenceImage out{w, h, std::vector<double>(input.texels.size())};
  std::vector<double> rows(input.texels.size());  // one level's row sums, where its pixels need them
  for (int level = 0; level <= kernel.radius; ++level) {
    // The level's pixels' bounding box.
    int x0 = w, x1 = -1, y0 = h, y1 = -1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (levels[static_cast<size_t>(y) * w + x] == level) {
          x0 = std::min(x0, x);
          x1 = std::max(x1, x);
          y0 = std::min(y0, y);
          y1 = std::max(y1, y);
        }
    if (x1 < 0) continue;
    const auto of_level = [&](int x, int y) { return levels[static_cast<size_t>(y) * w + x] == level; };
    separable_blur(input, kernel_weights(level_kernel(kernel, level)), border, {x0, y0, x1, y1}, of_level, rows, out);
  }
  return out;
}

std::vector<uint8_t> to_rgba8(const ReferenceImage& reference) {
  std::vector<uint8_t> bytes(reference.texels.size());
  std::transform(reference.texels.begin(), reference.texels.end(), bytes.begin(), [](double v) { return to_unorm8(v); });
  return bytes;
}

}  // namespace blurlab
