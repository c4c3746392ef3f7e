#version 430 core
// Shows a texture in the window: texel row 0 (the top of the picture) at the top.
// Mode 0: the image, its values encoded for the screen by u_encoding: 0 as stored (sRGB code
// values), 1 linear light encoded to sRGB, 2 HDR radiance through the effects' tonemap and sRGB
// encoding (effects/tonemap.glsl's display_value: what an effect shows without its effect).
// Mode 1: the difference to u_other (a reference rounded to the image's format, or a second
// variant's output): the largest channel's |image - other| times u_amplify in grey, and red where
// a channel differs beyond the tolerance, |d| > u_tolerance.x * |other| + u_tolerance.y (or is NaN).
#include "effects/tonemap.glsl"

layout(binding = BINDING_PRESENT_IMAGE) uniform sampler2D u_image;
layout(binding = BINDING_PRESENT_OTHER) uniform sampler2D u_other;
uniform int u_mode;
uniform float u_amplify;
uniform vec2 u_tolerance;
uniform int u_encoding;
layout(location = 0) out vec4 o_color;

void main() {
  ivec2 size = textureSize(u_image, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  p.y = size.y - 1 - p.y;
  vec4 c = texelFetch(u_image, p, 0);
  if (u_mode == 1) {
    vec4 other = texelFetch(u_other, p, 0);
    vec4 d = abs(c - other);
    bool beyond = any(greaterThan(d, u_tolerance.x * abs(other) + u_tolerance.y)) || any(isnan(d));
    float largest = max(max(d.r, d.g), max(d.b, d.a));
    o_color = beyond ? vec4(1.0, 0.15, 0.1, 1.0) : vec4(vec3(min(largest * u_amplify, 1.0)), 1.0);
    return;
  }
  o_color = u_encoding == 2 ? display_value(c.rgb) : vec4(u_encoding == 1 ? linear_to_srgb(c.rgb) : c.rgb, 1.0);
}
