#version 430 core
// recursive-gaussian: the recursive filter along AXIS (0 = rows, 1 = columns), one invocation per
// line (src/variants/recursive_gaussian.cpp): the causal sections forwards, their output stored
// in a scratch image, then the anticausal sections backwards from the border state. Defines:
//   RG_P, RG_G1           first-order section u = RG_G1 x + RG_P u[-1]
//   RG_C1, RG_C2, RG_G2   second-order section v = RG_G2 u + RG_C1 v[-1] + RG_C2 v[-2]
//   RG_M                  the right border's 3x3 matrix, row-major
//   CAUSAL_FORMAT         the scratch image's format qualifier (the intermediate format)
//   LOOKAHEAD             texels loaded per step, ahead of the recursion
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

// The causal output along each line, read back by the same invocation (program order makes its
// own stores visible to its loads).
layout(CAUSAL_FORMAT, binding = BINDING_CAUSAL) uniform restrict image2D u_causal;

const float P = RG_P, G1 = RG_G1, C1 = RG_C1, C2 = RG_C2, G2 = RG_G2;
const float M[9] = float[](RG_M);

void main() {
  ivec2 size = source_size();
  int lines = AXIS == 0 ? size.y : size.x, len = AXIS == 0 ? size.x : size.y;
  // The workgroup grid is flattened (sliding::flat_groups).
  int l = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * (WG_X * WG_Y) + int(gl_LocalInvocationIndex);
  if (l >= lines) return;  // no barrier in this shader
  ivec2 origin = AXIS == 0 ? ivec2(0, l) : ivec2(l, 0), dir = AXIS == 0 ? ivec2(1, 0) : ivec2(0, 1);

  // Causal: to the left the line repeats its first texel, on which the filter (unit gain at DC)
  // has settled.
  vec4 first = source_texel(origin);
  vec4 u = first, v1 = first, v2 = first;
  for (int base = 0; base < len; base += LOOKAHEAD) {
    vec4 x[LOOKAHEAD];
    for (int k = 0; k < LOOKAHEAD; ++k) x[k] = source_texel(origin + (base + k) * dir);  // past the end: clamped, unused
    for (int k = 0; k < LOOKAHEAD; ++k) {
      if (base + k < len) {
        u = G1 * x[k] + P * u;
        vec4 v = G2 * u + C1 * v1 + C2 * v2;
        v2 = v1;
        v1 = v;
        imageStore(u_causal, origin + (base + k) * dir, v);
      }
    }
  }

  // Anticausal: to the right the line repeats its last texel c; the causal state's deviation from
  // c decides the anticausal state there (M).
  vec4 c = source_texel(origin + (len - 1) * dir);
  vec4 d0 = u - c, d1 = v1 - c, d2 = v2 - c;
  vec4 a = c + M[0] * d0 + M[1] * d1 + M[2] * d2;
  vec4 b1 = c + M[3] * d0 + M[4] * d1 + M[5] * d2;
  vec4 b2 = c + M[6] * d0 + M[7] * d1 + M[8] * d2;
  for (int base = len - 1; base >= 0; base -= LOOKAHEAD) {
    vec4 w[LOOKAHEAD];
    for (int k = 0; k < LOOKAHEAD; ++k) w[k] = imageLoad(u_causal, origin + max(base - k, 0) * dir);
    for (int k = 0; k < LOOKAHEAD; ++k) {
      if (base - k >= 0) {
        a = G1 * w[k] + P * a;
        vec4 b = G2 * a + C1 * b1 + C2 * b2;
        b2 = b1;
        b1 = b;
        store_target(origin + (base - k) * dir, b);
      }
    }
  }
}
