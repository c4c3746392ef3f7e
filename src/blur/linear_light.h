#pragma once
// Linear light (--linear, the window's L): pictures are sRGB-encoded, so a blur that averages
// their code values darkens every edge. In linear light the input is decoded to linear values
// (rgba16f on the GPU), blurred, and the result encoded back. Alpha is not a colour and stays.
#include "blur/reference.h"
#include "image/image.h"
#include "image/srgb.h"

namespace blurlab {

// RGB through srgb_to_linear (image/srgb.h), alpha unchanged.
Image decode_srgb(const Image& encoded);
// RGB through linear_to_srgb, alpha unchanged.
Image encode_srgb(const Image& linear);
ReferenceImage encode_srgb(const ReferenceImage& linear);

}  // namespace blurlab
