#version 430 core
// Scene backdrop: a vertical gradient with a slowly drifting grid of thin lines, so the blur is
// visible everywhere. Row 0 of the target is the top of the picture. u_linear_light: decoded to
// linear light, like scene.frag; HDR defined (the HDR scene): always linear.
#include "srgb.glsl"

uniform float u_time;
uniform vec2 u_size;
uniform bool u_linear_light;
// The backdrop lies at the far plane, facing the camera: a view from a point of a lens sees it
// moved as a whole, by u_shift pixels (SceneCamera::backdrop_shift); the pinhole's is 0.
uniform vec2 u_shift;
layout(location = 0) out vec4 o_color;

void main() {
  vec2 at = gl_FragCoord.xy - u_shift;
  vec2 uv = at / u_size;
  vec3 top = vec3(0.10, 0.12, 0.22), bottom = vec3(0.02, 0.02, 0.05);
  vec3 color = mix(top, bottom, uv.y);
  vec2 cell = fract((at + vec2(u_time * 12.0, 0.0)) / 48.0);
  float line = step(cell.x, 0.04) + step(cell.y, 0.04);
  color += 0.06 * min(line, 1.0);
#ifdef HDR
  o_color = vec4(srgb_to_linear(color), 1.0);
#else
  o_color = vec4(u_linear_light ? srgb_to_linear(color) : color, 1.0);
#endif
}
