#include "blur/model.h"

#include "image/image.h"

namespace blurlab::model {

ReferenceImage from_image(const Image& image) {
  ReferenceImage out{image.width, image.height, std::vector<double>(image.texels.begin(), image.texels.end())};
  return out;
}

ReferenceImage blank(int width, int height) {
  return ReferenceImage{width, height, std::vector<double>(static_cast<size_t>(width) * height * 4, 0.0)};
}

double stored(double v, gl::Format format) {
  switch (format) {
    case gl::Format::rgba8: return to_unorm8(v) / 255.0;
    case gl::Format::rgba32f:
    case gl::Format::depth32f: return static_cast<double>(static_cast<float>(v));
    case gl::Format::rgba16f: {
      const double a = std::abs(v);
      if (a == 0.0 || !std::isfinite(a)) return v;
      if (a >= 65520.0) return std::copysign(INFINITY, v);  // beyond the largest half, 65504, rounded
      // 11 significant bits; below 2^-14 (subnormals) a fixed step of 2^-24.
      const double step = std::ldexp(1.0, std::max(std::ilogb(a), -14) - 10);
      return std::copysign(std::nearbyint(a / step) * step, v);  // nearbyint: ties to even
    }
  }
  return v;
}

void store(ReferenceImage& image, gl::Format format) {
  for (double& v : image.texels) v = stored(v, format);
}

double bilinear(const ReferenceImage& image, double px, double py, int c, const Border& border) {
  const double fx = std::floor(px - 0.5), fy = std::floor(py - 0.5);
  const double tx = px - 0.5 - fx, ty = py - 0.5 - fy;
  const int x = static_cast<int>(fx), y = static_cast<int>(fy);
  const double top = (1.0 - tx) * texel(image, x, y, c, border) + tx * texel(image, x + 1, y, c, border);
  const double bottom = (1.0 - tx) * texel(image, x, y + 1, c, border) + tx * texel(image, x + 1, y + 1, c, border);
  return (1.0 - ty) * top + ty * bottom;
}

}  // namespace blurlab::model
