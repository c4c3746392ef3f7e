#include "image/srgb.h"

#include <cmath>

namespace blurlab {

double srgb_to_linear(double encoded) {
  if (encoded < 0.0) return -srgb_to_linear(-encoded);
  return encoded <= 0.04045 ? encoded / 12.92 : std::pow((encoded + 0.055) / 1.055, 2.4);
}

double linear_to_srgb(double linear) {
  if (linear < 0.0) return -linear_to_srgb(-linear);
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
}

}  // namespace blurlab
