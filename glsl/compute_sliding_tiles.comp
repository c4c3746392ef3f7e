#version 430 core
// compute-sliding-tiles: one running box sum of radius RADIUS along AXIS (0 = rows, 1 = columns)
// in tiles staged in shared memory, each invocation walking a chunk of one line from its own
// window sum (box_walk.glsl; src/variants/compute_sliding_tiles.cpp).
#include "blur_common.glsl"
#include "source_image.glsl"
#define TARGET_RAW
#include "target_image.glsl"
#include "box_walk.glsl"

void main() { box_walk(); }
