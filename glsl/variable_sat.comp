#version 430 core
// variable-sat: a summed-area table (Crow 1984; on GPUs Hensley et al. 2005), then each pixel's own
// box in four reads. Three passes of this file (PASS):
//   0 rows: one invocation per row of the padded image, the source extended by R texels on each
//     side by the border rule (so every box of any level is inside it, whatever the mode), runs
//     along the row and writes the running sums: S(u + 1, v + 1) = start + sum of row v up to u,
//     and S(0, v + 1) = start;
//   1 columns: one invocation per table column sums it downwards in place, S(u, 0) = 0;
//   2 lookup: pixel p of level r reads the box of padded texels [p - r + R, p + r + R] in each axis
//     as S(x1, y1) - S(x0, y1) - S(x1, y0) + S(x0, y0).
// Exact integers: rgba8 texels as k = 255 v, one 32-bit word per channel; float input (WIDE) as
// fixed point q = round(v 2^14) (|q| < 2^31 for any fp16 value), two words per channel (a
// 64-bit two's complement number, low and high word in two textures). The table holds its sums
// modulo 2^32 (2^64 WIDE), and that is enough: a term that depends on the column alone or on the
// row alone cancels in the four-read difference, and so does the wrap-around, as long as the box's
// own sum fits (rgba8: at most 255 x 257^2 < 2^24; WIDE: below 257^2 x 2^31 < 2^47). To prove it
// on every run, not only past 16384^2, each row starts at `start` = 2^32 - 4096 (and -4096 in 64
// bits WIDE): the table wraps within a few texels of every row.
// The host passes R (the largest level) in u_pass.x.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"
#include "variable_common.glsl"

#ifndef PASS
#error PASS (0 rows, 1 columns, 2 lookup) is not defined
#endif

#if PASS == 0
#define SAT_ACCESS writeonly
#elif PASS == 1
#define SAT_ACCESS
#else
#define SAT_ACCESS readonly
#endif
layout(rgba32ui, binding = 4) uniform restrict SAT_ACCESS uimage2D u_sat_lo;
#ifdef WIDE
layout(rgba32ui, binding = 5) uniform restrict SAT_ACCESS uimage2D u_sat_hi;
#endif

#if PASS == 2
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
#else
layout(local_size_x = 64) in;
#endif

const uint START = 0xFFFFF000u;  // 2^32 - 4096

int max_radius() { return int(u_pass.x); }

#ifdef WIDE
// 64-bit two's complement arithmetic on (low, high) word pairs, per channel.
void add64(inout uvec4 lo, inout uvec4 hi, uvec4 add_lo, uvec4 add_hi) {
  uvec4 carry;
  lo = uaddCarry(lo, add_lo, carry);
  hi = hi + add_hi + carry;
}
void sub64(inout uvec4 lo, inout uvec4 hi, uvec4 sub_lo, uvec4 sub_hi) {
  uvec4 borrow;
  lo = usubBorrow(lo, sub_lo, borrow);
  hi = hi - sub_hi - borrow;
}
// The texel as fixed point, 2^14 units: |q| < 2^31 for every fp16 value (65504 2^14 < 2^30).
ivec4 fixed_texel(vec4 v) { return ivec4(round(v * 16384.0)); }
#endif

void main() {
#if PASS == 0
  int v = int(gl_GlobalInvocationID.x);
  ivec2 size = source_size();
  int R = max_radius();
  if (v >= size.y + 2 * R) return;  // no barrier follows
  uvec4 lo = uvec4(START);
#ifdef WIDE
  uvec4 hi = uvec4(0xFFFFFFFFu);
  imageStore(u_sat_hi, ivec2(0, v + 1), hi);
#endif
  imageStore(u_sat_lo, ivec2(0, v + 1), lo);
  for (int u = 0; u < size.x + 2 * R; ++u) {
    vec4 texel = source_texel(ivec2(u - R, v - R));
#ifdef WIDE
    ivec4 q = fixed_texel(texel);
    add64(lo, hi, uvec4(q), uvec4(q >> 31));  // the high word: the sign extended (an arithmetic shift)
    imageStore(u_sat_hi, ivec2(u + 1, v + 1), hi);
#else
    lo += uvec4(round(texel * 255.0));
#endif
    imageStore(u_sat_lo, ivec2(u + 1, v + 1), lo);
  }
#elif PASS == 1
  int u = int(gl_GlobalInvocationID.x);
  ivec2 table = imageSize(u_sat_lo);
  if (u >= table.x) return;
  uvec4 lo = uvec4(0u);
  imageStore(u_sat_lo, ivec2(u, 0), lo);
#ifdef WIDE
  uvec4 hi = uvec4(0u);
  imageStore(u_sat_hi, ivec2(u, 0), hi);
#endif
  for (int t = 1; t < table.y; ++t) {
#ifdef WIDE
    add64(lo, hi, imageLoad(u_sat_lo, ivec2(u, t)), imageLoad(u_sat_hi, ivec2(u, t)));
    imageStore(u_sat_hi, ivec2(u, t), hi);
#else
    lo += imageLoad(u_sat_lo, ivec2(u, t));
#endif
    imageStore(u_sat_lo, ivec2(u, t), lo);
  }
#else
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, target_size()))) return;  // no barrier follows
  int R = max_radius(), r = pixel_level(p);
  ivec2 a = p - r + R, b = p + r + R + 1;  // the box's table corners: [a, b) in padded texels
  uint n = uint((2 * r + 1) * (2 * r + 1));
  uvec4 lo = imageLoad(u_sat_lo, b);
#ifdef WIDE
  uvec4 hi = imageLoad(u_sat_hi, b);
  sub64(lo, hi, imageLoad(u_sat_lo, ivec2(a.x, b.y)), imageLoad(u_sat_hi, ivec2(a.x, b.y)));
  sub64(lo, hi, imageLoad(u_sat_lo, ivec2(b.x, a.y)), imageLoad(u_sat_hi, ivec2(b.x, a.y)));
  add64(lo, hi, imageLoad(u_sat_lo, a), imageLoad(u_sat_hi, a));
  // The signed 64-bit sum to float: high word and the low word's upper half exactly (|sum| < 2^40
  // keeps that partial sum below 2^24), then the lower half: rounded once where the sum is large.
  vec4 upper = vec4(ivec4(hi)) * 65536.0 + vec4(lo >> 16u);
  vec4 sum = upper * 65536.0 + vec4(lo & 0xFFFFu);
  store_target(p, sum / (float(n) * 16384.0));
#else
  lo -= imageLoad(u_sat_lo, ivec2(a.x, b.y));
  lo -= imageLoad(u_sat_lo, ivec2(b.x, a.y));
  lo += imageLoad(u_sat_lo, a);
  // The average to the nearest step in integers (n is odd: no ties): sum <= 255 n < 2^24.
  uvec4 step = (2u * lo + n) / (2u * n);
  store_target(p, vec4(step) / 255.0);
#endif
#endif
}
