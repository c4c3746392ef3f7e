#version 430 core
// frag-separable-linear: one 1D pass along AXIS (0 = horizontal, 1 = vertical), two taps per
// bilinear fetch (linear_common.glsl): r+1 fetches for even r, r+2 for odd r.
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "linear_common.glsl"

layout(location = 0) out vec4 o_color;

const vec2 AXIS_DIR = AXIS == 0 ? vec2(1.0, 0.0) : vec2(0.0, 1.0);

void main() { o_color = linear_blur_1d(ivec2(gl_FragCoord.xy), AXIS_DIR); }
