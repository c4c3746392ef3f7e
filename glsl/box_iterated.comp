#version 430 core
// box-iterated: one box pass of radius SLIDE_RADIUS along AXIS (0 = rows, 1 = columns) by running
// sums, one invocation per line segment (sliding_common.glsl); the variant runs three per axis,
// their radii chosen for the requested sigma (src/variants/box_iterated.cpp).
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#include "sliding_common.glsl"

void main() { line_pass(); }
