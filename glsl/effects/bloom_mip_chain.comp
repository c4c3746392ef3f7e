#version 430 core
// bloom_mip_chain.comp: the engines' bloom chain (Jimenez, "Next Generation Post Processing in
// Call of Duty: Advanced Warfare", SIGGRAPH 2014; src/effects/bloom_mip_chain.cpp has the plan and
// the CPU model). Level 0 is the light that blooms (the frame, or the prefilter's output), level
// l + 1 has ceil(size / 2) of level l's texels, its texel j centred on level l's corner 2 j + 1:
//   CHAIN_PASS 0, down l -> l + 1: the 13-tap filter, thirteen 2x2 box averages at corners -2..2
//     around 2 j + 1 (1/8 each of the inner four and the centre, 1/16 the edges', 1/32 the
//     corners'). It is 0.5 b (x) b + 0.5 c (x) c with b the 4-texel box 2j - 1 .. 2j + 2 and c the
//     6 texels 2j - 2 .. 2j + 3 weighted 1 1 2 2 1 1 / 8, so each workgroup filters its tile's rows
//     first, then its columns.
//   CHAIN_PASS 1, up l + 1 -> l: up_l = a_l down_l + tent(up_l+1), the 3x3 tent of bilinear
//     fetches at -s, 0, +s texels of level l + 1 (weights 1/4, 1/2, 1/4 per axis) around level l's
//     texel, s the chain's tent scale (1 is Jimenez's; Unity's bloom scales it too). Per axis six
//     texels of level l + 1 carry its weights: m - 3 .. m + 2 for texel 2m, m - 2 .. m + 3 for 2m + 1.
//     The coarsest level's up is a_L down_L (UP_FIRST).
//   CHAIN_PASS 2, the composite: out = display(H + k (a_0 P + tent(up_1) - P)), level 0's tent from
//     level 1 and LEVEL0_WEIGHT a_0 of the light itself (PSF terms narrower than level 1's).
// Every pass loads the level it reads into shared memory once per workgroup (with the apron its
// stencil needs, indices clamped: the clamp border) and weighs texels there with exact weights, rows
// then columns, so no texture unit rounds a filter weight and a full-resolution output reads each
// texel of the level about once instead of 9 or 13 bilinear fetches.
// u_pass: CHAIN_PASS 1, (a_l, s, 0, 0); CHAIN_PASS 2, (intensity k, threshold, knee, s).
#include "effects/bloom_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = BINDING_SOURCE) uniform sampler2D u_level;  // the level read (texelFetch)

// A texel of the level read, its index clamped to the level (the clamp border).
vec4 level_texel(ivec2 p) { return texelFetch(u_level, clamp(p, ivec2(0), textureSize(u_level, 0) - 1), 0); }

#if CHAIN_PASS == 0
// 16 outputs need texels 2 j - 2 .. 2 j + 3 of 16 j's: 36 per axis.
const int TILE = 36;
// The tile as halves (a level is rgba16f: exact), so that it and the filtered rows fit 32 KiB.
shared uvec2 s_tile[TILE * TILE];
shared vec4 s_box[TILE * 16], s_wide[TILE * 16];  // each tile row filtered by b and by c, at the 16 outputs' columns
vec4 tile_texel(int i) { return vec4(unpackHalf2x16(s_tile[i].x), unpackHalf2x16(s_tile[i].y)); }
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_down;

void main() {
  ivec2 first = 2 * ivec2(gl_WorkGroupID.xy) * 16 - 2;  // the tile's first texel of the level read
  for (int i = int(gl_LocalInvocationIndex); i < TILE * TILE; i += 256) {
    vec4 v = level_texel(first + ivec2(i % TILE, i / TILE));
    s_tile[i] = uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw));
  }
  barrier();
  // Output column j (local) reads tile columns 2 j .. 2 j + 5: b the middle four, c all six.
  for (int i = int(gl_LocalInvocationIndex); i < TILE * 16; i += 256) {
    int row = i / 16, j = i % 16;
    int at = row * TILE + 2 * j;
    vec4 inner = tile_texel(at + 2) + tile_texel(at + 3);
    vec4 middle = tile_texel(at + 1) + tile_texel(at + 4);
    vec4 outer = tile_texel(at) + tile_texel(at + 5);
    s_box[i] = 0.25 * (middle + inner);
    s_wide[i] = 0.125 * (outer + middle) + 0.25 * inner;
  }
  barrier();
  ivec2 j = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(j, imageSize(u_down)))) return;
  int at = 2 * int(gl_LocalInvocationID.y) * 16 + int(gl_LocalInvocationID.x);  // tile row 2 j, this output's column
  vec4 box = 0.25 * (s_box[at + 16] + s_box[at + 32] + s_box[at + 48] + s_box[at + 64]);
  vec4 wide = 0.125 * (s_wide[at] + s_wide[at + 16] + s_wide[at + 64] + s_wide[at + 80]) + 0.25 * (s_wide[at + 32] + s_wide[at + 48]);
  imageStore(u_down, j, vec4(0.5 * (box.rgb + wide.rgb), 1.0));
}

#else
// The tent from the level read (l + 1) at the outputs of level l: 16 outputs need its texels
// 8 g - 3 .. 8 g + 10: 14 per axis.
const int TILE = 14;
const int TAPS = 6;
shared vec4 s_tile[TILE * TILE];
shared vec4 s_rows[TILE * 16];  // each tile row filtered along x at the 16 outputs' columns

// A bilinear fetch at q (texel centres at whole numbers, within the window) of weight w, spread on
// the window's texels.
void add_fetch(inout float taps[TAPS], float q, float w) {
  float i = floor(q);
  int k = int(i);
  float f = q - i;
  taps[k] += w * (1.0 - f);
  taps[k + 1] += w * f;
}

// The window's first texel and its six weights for output texel x, tent scale s.
void tent_taps(int x, float s, out int first, out float taps[TAPS]) {
  bool odd = (x & 1) == 1;
  first = (x >> 1) - (odd ? 2 : 3);
  float p = float(x) * 0.5 - 0.25 - float(first);  // the texel's centre on level l + 1, in the window
  for (int k = 0; k < TAPS; ++k) taps[k] = 0.0;
  add_fetch(taps, p - s, 0.25);
  add_fetch(taps, p, 0.5);
  add_fetch(taps, p + s, 0.25);
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
    float taps[TAPS];
    tent_taps(x, s, first, taps);
    vec4 sum = vec4(0.0);
    for (int k = 0; k < TAPS; ++k) sum += taps[k] * s_tile[row * TILE + first - tile_first.x + k];
    s_rows[i] = sum;
  }
  barrier();
  int first;
  float taps[TAPS];
  tent_taps(p.y, s, first, taps);
  vec4 sum = vec4(0.0);
  for (int k = 0; k < TAPS; ++k) sum += taps[k] * s_rows[(first - tile_first.y + k) * 16 + int(gl_LocalInvocationID.x)];
  return sum;
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
  vec3 up = tent(p, u_pass.y).rgb;
  if (any(greaterThanEqual(p, size))) return;
  if (u_pass.x != 0.0) up += u_pass.x * imageLoad(u_down_here, p).rgb;
  imageStore(u_up, p, vec4(up, 1.0));
#endif
}

#else
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_frame;
layout(rgba8, binding = BINDING_TARGET) uniform restrict writeonly image2D u_picture;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec3 layer = tent(p, u_pass.w).rgb;
  if (any(greaterThanEqual(p, imageSize(u_frame)))) return;
  vec3 h = imageLoad(u_frame, p).rgb;
  imageStore(u_picture, p, bloom_picture(h, layer + LEVEL0_WEIGHT * blooming_light(h)));
}
#endif
#endif
