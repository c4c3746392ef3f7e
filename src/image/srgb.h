#pragma once
// The sRGB transfer function (IEC 61966-2-1), exact and piecewise, in double precision: a linear
// segment near black, a 2.4 power above it. Values outside [0, 1] follow the same formulas
// (negative values mirror), so HDR values round-trip too.
namespace blurlab {

// Encoded sRGB value (e.g. k / 255 of an 8-bit file) to linear light.
double srgb_to_linear(double encoded);
// Linear light to its sRGB encoding.
double linear_to_srgb(double linear);

}  // namespace blurlab
