#version 430 core
// bloom_mip_chain.comp: the engines' bloom chain (Jimenez, "Next Generation Post Processing in
// Call of Duty: Advanced Warfare", SIGGRAPH 2014; src/effects/bloom_mip_chain.cpp has the plan and
// the CPU model). Level 0 is the light that blooms (the frame, or the prefilter's output), level
// l + 1 has ceil(size / 2) of level l's texels, its texel j centred on level l's corner 2 j + 1:
//   CHAIN_PASS 0, down l -> l + 1: the 13-tap filter, thirteen 2x2 box averages at corners -2..2
//     around 2 j + 1 (1/8 each of the inner four and the centre, 1/16 the edges', 1/32 the
//     corners'), each a bilinear fetch at that corner, as Jimenez fetches them.
//   CHAIN_PASS 1, up l + 1 -> l: up_l = a_l down_l + tent(up_l+1), the 3x3 tent of bilinear
//     fetches at -s, 0, +s texels of level l + 1 (weights 1/4, 1/2, 1/4 per axis) around level l's
//     texel, s the chain's tent scale (1 is Jimenez's; Unity's bloom scales it too). Per axis six
//     texels of level l + 1 carry its weights: m - 3 .. m + 2 for texel 2m, m - 2 .. m + 3 for 2m + 1.
//     The coarsest level's up is a_L down_L (UP_FIRST).
//   CHAIN_PASS 2, the composite: out = display(H + k (a_0 P + tent(up_1) - P)), level 0's tent from
//     level 1 and LEVEL0_WEIGHT a_0 of the light itself (PSF terms narrower than level 1's).
// The up passes and the composite load the level they read into shared memory once per workgroup
// (with the apron their stencil needs, indices clamped: the clamp border) and weigh texels there,
// rows then columns: the tent's scale puts its fetches between texels, where a texture unit would
// round the weights to 8 bits, and a full-resolution output reads each texel of the level about
// once instead of 9 bilinear fetches.
// u_pass: CHAIN_PASS 1, (a_l, s, 0, 0); CHAIN_PASS 2, (intensity k, threshold, knee, s).
#include "effects/bloom_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = BINDING_SOURCE) uniform sampler2D u_level;  // the level read (texelFetch)

// A texel of the level read, its index clamped to the level (the clamp border).
vec4 level_texel(ivec2 p) { return texelFetch(u_level, clamp(p, ivec2(0), textureSize(u_level, 0) - 1), 0); }

#if CHAIN_PASS == 0
// The 13 fetches, each a bilinear fetch at a texel corner of the level read: both of its weights
// are 1/2 on each axis, which every texture unit holds exactly (the sampler clamps to the edge: the
// clamp border). Each output reads 6x6 texels through 13 fetches of the texture cache; no shared
// memory, no barrier (the small levels take few workgroups, and the large one is read about once).
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_down;

vec4 corner(vec2 c, vec2 texel) { return textureLod(u_level, c * texel, 0.0); }

void main() {
  ivec2 j = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(j, imageSize(u_down)))) return;
  vec2 texel = 1.0 / vec2(textureSize(u_level, 0));
  vec2 c = vec2(2 * j + 1);  // the corner this output is centred on, in texels of the level read
  vec4 sum = 0.125 * (corner(c + vec2(-1, -1), texel) + corner(c + vec2(1, -1), texel) + corner(c + vec2(-1, 1), texel) +
                      corner(c + vec2(1, 1), texel) + corner(c, texel));
  sum += 0.0625 * (corner(c + vec2(0, -2), texel) + corner(c + vec2(-2, 0), texel) + corner(c + vec2(2, 0), texel) +
                   corner(c + vec2(0, 2), texel));
  sum += 0.03125 * (corner(c + vec2(-2, -2), texel) + corner(c + vec2(2, -2), texel) + corner(c + vec2(-2, 2), texel) +
                    corner(c + vec2(2, 2), texel));
  imageStore(u_down, j, vec4(sum.rgb, 1.0));
}

#else
// The tent from the level read (l + 1) at the outputs of level l: 16 outputs need its texels
// 8 g - 3 .. 8 g + 10: 14 per axis.
const int TILE = 14;
shared vec4 s_tile[TILE * TILE];
shared vec4 s_rows[TILE * 16];  // each tile row filtered along x at the 16 outputs' columns

// The window's first texel and its six weights for output texel x, tent scale s: each of the three
// bilinear fetches, at p - s, p and p + s (weights 1/4, 1/2, 1/4), gives window texel k the hat
// max(0, 1 - |q - k|) of its distance; written out per texel, so the weights stay in registers (an
// array indexed by a computed texel would go to local memory on some GPUs).
float hat(float d) { return max(0.0, 1.0 - abs(d)); }
float tent_weight(float p, float s, int k) { return 0.25 * hat(p - s - float(k)) + 0.5 * hat(p - float(k)) + 0.25 * hat(p + s - float(k)); }
void tent_taps(int x, float s, out int first, out float w0, out float w1, out float w2, out float w3, out float w4, out float w5) {
  bool odd = (x & 1) == 1;
  first = (x >> 1) - (odd ? 2 : 3);
  float p = float(x) * 0.5 - 0.25 - float(first);  // the texel's centre on level l + 1, in the window
  w0 = tent_weight(p, s, 0);
  w1 = tent_weight(p, s, 1);
  w2 = tent_weight(p, s, 2);
  w3 = tent_weight(p, s, 3);
  w4 = tent_weight(p, s, 4);
  w5 = tent_weight(p, s, 5);
}

// Loads the tile, filters its rows at the workgroup's 16 output columns, and returns the tent at
// output p (the rows' columns filtered): every invocation calls it, before any returns.
vec4 tent(ivec2 p, float s) {
  ivec2 tile_first = 8 * ivec2(gl_WorkGroupID.xy) - 3;
  for (int i = int(gl_LocalInvocationIndex); i < TILE * TILE; i += 256) s_tile[i] = level_texel(tile_first + ivec2(i % TILE, i / TILE));
  barrier();
  for (int i = int(gl_LocalInvocationIndex); i < TILE * 16; i += 256) {
    int row = i / 16, x = int(gl_WorkGroupID.x) * 16 + i % 16;
    int first;
    float w0, w1, w2, w3, w4, w5;
    tent_taps(x, s, first, w0, w1, w2, w3, w4, w5);
    int at = row * TILE + first - tile_first.x;
    s_rows[i] = w0 * s_tile[at] + w1 * s_tile[at + 1] + w2 * s_tile[at + 2] + w3 * s_tile[at + 3] + w4 * s_tile[at + 4] +
                w5 * s_tile[at + 5];
  }
  barrier();
  int first;
  float w0, w1, w2, w3, w4, w5;
  tent_taps(p.y, s, first, w0, w1, w2, w3, w4, w5);
  int at = (first - tile_first.y) * 16 + int(gl_LocalInvocationID.x);
  return w0 * s_rows[at] + w1 * s_rows[at + 16] + w2 * s_rows[at + 32] + w3 * s_rows[at + 48] + w4 * s_rows[at + 64] + w5 * s_rows[at + 80];
}

#if CHAIN_PASS == 1
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_down_here;  // down_l
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_up;       // up_l

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(u_up);
#if UP_FIRST
  // The coarsest level: a_L down_L, nothing above it to add.
  if (any(greaterThanEqual(p, size))) return;
  imageStore(u_up, p, vec4(u_pass.x * imageLoad(u_down_here, p).rgb, 1.0));
#else
  bool inside = all(lessThan(p, size));
  vec3 here = inside && u_pass.x != 0.0 ? u_pass.x * imageLoad(u_down_here, p).rgb : vec3(0.0);  // before the tile's latency
  vec3 up = tent(p, u_pass.y).rgb;
  if (!inside) return;
  imageStore(u_up, p, vec4(up + here, 1.0));
#endif
}

#else
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_frame;
layout(rgba8, binding = BINDING_TARGET) uniform restrict writeonly image2D u_picture;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // The frame's texel is loaded first, so that its latency passes while the tile is filtered.
  bool inside = all(lessThan(p, imageSize(u_frame)));
  vec3 h = inside ? imageLoad(u_frame, p).rgb : vec3(0.0);
  vec3 layer = tent(p, u_pass.w).rgb;
  if (!inside) return;
  imageStore(u_picture, p, bloom_picture(h, layer + LEVEL0_WEIGHT * blooming_light(h)));
}
#endif
#endif
