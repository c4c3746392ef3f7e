#version 430 core
// frag-naive: every output pixel reads all (2r+1)^2 texels of its window through texelFetch
// (naive_2d.glsl).
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "naive_2d.glsl"

layout(location = 0) out vec4 o_color;

void main() { o_color = naive_2d(ivec2(gl_FragCoord.xy)); }
