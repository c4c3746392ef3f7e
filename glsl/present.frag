#version 430 core
// Shows a texture in the window: texel row 0 (the top of the picture) at the top. Mode 1 shows
// the amplified difference |image - other| instead. With linear-light rendering the values are
// encoded to sRGB here (the exact piecewise curve, not a 2.2 power).
layout(binding = 0) uniform sampler2D u_image;
layout(binding = 1) uniform sampler2D u_other;
uniform int u_mode;         // 0: image, 1: difference
uniform float u_amplify;    // difference scale
uniform bool u_encode_srgb;
layout(location = 0) out vec4 o_color;

vec3 linear_to_srgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

void main() {
  ivec2 size = textureSize(u_image, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  p.y = size.y - 1 - p.y;
  vec4 c = texelFetch(u_image, p, 0);
  if (u_mode == 1) {
    vec4 d = abs(c - texelFetch(u_other, p, 0));
    c = vec4(vec3(max(max(d.r, d.g), max(d.b, d.a))) * u_amplify * vec3(1.0, 0.6, 0.2), 1.0);
  }
  o_color = vec4(u_encode_srgb && u_mode == 0 ? linear_to_srgb(c.rgb) : c.rgb, 1.0);
}
