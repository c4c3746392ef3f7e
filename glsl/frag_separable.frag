#version 430 core
// frag-separable: one 1D pass along AXIS (0 = horizontal, 1 = vertical), 2r+1 taps through
// texelFetch (separable_1d.glsl).
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "separable_1d.glsl"

layout(location = 0) out vec4 o_color;

void main() { o_color = separable_1d(ivec2(gl_FragCoord.xy)); }
