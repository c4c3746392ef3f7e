#version 430 core
// box-iterated: the three boxes of one axis (AXIS 0 = rows, 1 = columns) in one pass of running
// sums over tiles staged in shared memory (box_walk.glsl); their radii are chosen for the
// requested sigma (src/variants/box_iterated.cpp).
#include "blur_common.glsl"
#include "source_image.glsl"
#define TARGET_RAW
#include "target_image.glsl"
#include "box_walk.glsl"

void main() { box_walk(); }
