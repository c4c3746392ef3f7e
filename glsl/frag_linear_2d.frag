#version 430 core
// frag-linear-2d: one fullscreen pass, each bilinear fetch blends 2x2 texels
// (linear_common.glsl): (r+1)^2 fetches for even r, (r+2)^2 for odd r, instead of (2r+1)^2.
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "linear_common.glsl"

layout(location = 0) out vec4 o_color;

void main() { o_color = linear_blur_2d(ivec2(gl_FragCoord.xy)); }
