#version 430 core
// compute-sliding: one running-sum pass along AXIS (0 = rows into the intermediate, 1 = columns
// into the output, or with TRANSPOSED both passes down columns): one invocation per segment of a
// line; each output costs two reads whatever the radius (see sliding_common.glsl).
// Knobs: order transposed (TRANSPOSED 1) walks the source's columns in both passes and stores each
// result transposed; walk-io (the host's WALK_RAW 1 where it is raw, or auto with rgba8 textures)
// moves rgba8 texels as their bits.
#if WALK_RAW
#define SOURCE_RAW
#define TARGET_RAW
#define SLIDE_PACKED
#endif
#if TRANSPOSED
#define SLIDE_TRANSPOSE
#endif
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#include "sliding_common.glsl"

void main() { line_pass(); }
