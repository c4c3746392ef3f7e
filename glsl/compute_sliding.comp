#version 430 core
// compute-sliding: one running-sum pass along AXIS (0 = rows into the intermediate, 1 = columns
// into the output): one invocation per segment of a line; each output costs two reads whatever
// the radius (see sliding_common.glsl).
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#include "sliding_common.glsl"

void main() { line_pass(); }
