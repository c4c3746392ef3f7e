#include "blur/linear_light.h"

namespace blurlab {

namespace {

template <typename Picture, typename Curve>
Picture map_rgb(Picture picture, Curve curve) {
  for (size_t i = 0; i < picture.texels.size(); ++i)
    if (i % 4 != 3) picture.texels[i] = static_cast<typename decltype(picture.texels)::value_type>(curve(picture.texels[i]));
  return picture;
}

}  // namespace

Image decode_srgb(const Image& encoded) { return map_rgb(encoded, srgb_to_linear); }
Image encode_srgb(const Image& linear) { return map_rgb(linear, linear_to_srgb); }
ReferenceImage encode_srgb(const ReferenceImage& linear) { return map_rgb(linear, linear_to_srgb); }

}  // namespace blurlab
