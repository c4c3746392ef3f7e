// The exact piecewise sRGB transfer functions (IEC 61966-2-1), those of the CPU in double
// precision (src/image/srgb.h), for values clamped to [0, 1] first: the scene's colours as an rgba8
// target would hold them, and what a display shows.
vec3 srgb_to_linear(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}

vec3 linear_to_srgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}
