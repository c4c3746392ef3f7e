#version 430 core
// fft: exact blur by FFT convolution, one axis at a time (src/variants/fft.cpp).
//   FFT_PASS 0: the kernel's spectrum on FFT_N points, H[k] = w0 + 2 sum_{t=1..r} w_t cos(2 pi k t / N)
//               (the kernel placed circularly: it is symmetric, so H is real), divided by N (the
//               inverse transform's scale), into texel (k, 0) of an rgba32f row (red).
//   FFT_PASS 1: LINES line segments per workgroup (the same segment of neighbouring lines), along
//               AXIS (0 rows, 1 columns), by overlap-save: for each line, the N = FFT_N texels
//               from r before the segment's first output, read through the
//               border rule (source_texel), as two complex lines R + iG and B + iA in shared
//               memory; both transformed forward, multiplied by H, transformed back; the N - 2r
//               points from r on are the segment's outputs: their windows lie inside the N points,
//               so the circular convolution is the linear one there. Points past the line's last
//               window (line length + r) are set to 0: no output reads them.
// The transform: Stockham autosort steps in place in shared memory (each invocation reads its
// butterflies' inputs, a barrier, writes their outputs, a barrier), natural order in and out.
// FFT_RADIX 4: one radix-2 step when log2 N is odd, then radix-4 steps. FFT_RADIX 8: one radix-2
// (log2 N = 1 mod 3) or radix-4 (2 mod 3) step, then radix-8 steps whose 8 points per channel
// pair stay in registers through three radix-2 stages (512 points: 3 round trips, not 5). A
// workgroup transforms LINES neighbouring lines' segments (the same segment of each): its WG_X
// invocations (WG_Y = 1) take the step's LINES N / R radix-R butterflies of each channel pair in
// turn, ceil(LINES N / R / WG_X) each, those past the count idle. Twiddles from sin/cos of exact
// fractions of 2 pi.
// Every loop and barrier runs in uniform control flow: partial segments, and lines past the image's
// last, only skip loads and stores.
#include "blur_common.glsl"

const int N = FFT_N;
const float TWO_PI = 6.28318530717958648;

#if FFT_PASS == 0
#include "target_image.glsl"

layout(local_size_x = 64) in;

void main() {
  int k = int(gl_GlobalInvocationID.x);
  if (k >= N) return;  // no barrier in this pass
  float h = tap_weight(0);
  for (int t = 1; t <= RADIUS; ++t) {
    int m = (k * t) & (N - 1);  // k t modulo N, exactly: the angle is reduced in integers
    m = min(m, N - m);          // cos is even about pi
    h += 2.0 * tap_weight(t) * cos(TWO_PI * float(m) / float(N));
  }
  store_target(ivec2(k, 0), vec4(h / float(N), 0.0, 0.0, 0.0));
}

#else
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;
layout(rgba32f, binding = BINDING_SPECTRUM) uniform restrict readonly image2D u_spectrum;

const int M = N - 2 * RADIUS;             // outputs per segment
const int L = LINES;                      // line segments per workgroup (neighbouring lines, one segment each)
// Butterflies per step of each channel pair, over the workgroup's L lines, and of them per
// invocation (ceil(butterflies / WG_X); the last ones idle past the step's count).
// (At least 1: a step's register arrays are declared even where N is too short for it.)
const int BF2 = L * (N / 2), B2 = max((BF2 + WG_X - 1) / WG_X, 1);
const int BF4 = L * (N / 4), B4 = max((BF4 + WG_X - 1) / WG_X, 1);
const int BF8 = L * (N / 8), B8 = max((BF8 + WG_X - 1) / WG_X, 1);
shared vec2 s_rg[L * N];                  // R + iG of line l at l N + (point ^ swizzle(l))
shared vec2 s_ba[L * N];                  // B + iA

// Where point p of line l lies in the shared arrays: each line holds N points in a row, in an
// order that spreads the steps' accesses over the 32 banks (a half wavefront of vec2 is 16 of them,
// 128 bytes):
//  - FFT_SWIZZLE 1: point p at p ^ ((p >> 3) & 15). A step's reads (j + q N/R for neighbouring j)
//    and the loads, spectrum products and stores (neighbouring p) stay conflict-free (each aligned
//    8 points keep their place among themselves), and the stores of the first steps, R points
//    apart (y[j R + q] at ns = 1: 16 of a half wavefront in 2 banks with radix 8), spread out.
//    Bits 0-3 change only, by bits 3-6 (bit 3 by bit 6): a permutation of each aligned 16 points.
//  - The column pass (AXIS 1) with several lines loads and stores a row's L neighbouring texels
//    with neighbouring invocations (point i / L of line i % L), which would put them N apart, in
//    one bank: each line's points are XORed with l 16 / L (below N) too, so the L lines of 16 / L
//    points of a half wavefront fall in 16 different vec2 banks. Every step's warp lies in one
//    line (N / R >= 32 butterflies a line), where a fixed XOR keeps how many values share a bank.
int at(int l, int p) {
  int x = p;
#if FFT_SWIZZLE == 1
  x ^= (p >> 3) & 15;  // below N: p >> 3 is 0 where N <= 8
#endif
#if AXIS == 1 && LINES > 1
  x ^= (l * (16 / L)) & (N - 1);
#endif
  return l * N + x;
}

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// e^(i angle)
vec2 twiddle(float angle) { return vec2(cos(angle), sin(angle)); }

// The first step when log2 N leaves 1 over the radix (radix 4: log2 N odd; radix 8: log2 N = 1 mod
// 3): radix 2 at Ns = 1 (no twiddles), N / 2 butterflies a line: y[2j] = x[j] + x[j + N/2],
// y[2j + 1] = x[j] - x[j + N/2].
void radix2_step() {
  int t = int(gl_LocalInvocationIndex);
  vec2 a[2 * B2], b[2 * B2];
  for (int q = 0; q < B2; ++q) {
    int u = t + q * WG_X, l = u / (N / 2), j = u % (N / 2);
    if (u < BF2) {
      a[2 * q] = s_rg[at(l, j)];
      a[2 * q + 1] = s_rg[at(l, j + N / 2)];
      b[2 * q] = s_ba[at(l, j)];
      b[2 * q + 1] = s_ba[at(l, j + N / 2)];
    }
  }
  barrier();
  for (int q = 0; q < B2; ++q) {
    int u = t + q * WG_X, l = u / (N / 2), j = u % (N / 2);
    if (u < BF2) {
      s_rg[at(l, 2 * j)] = a[2 * q] + a[2 * q + 1];
      s_rg[at(l, 2 * j + 1)] = a[2 * q] - a[2 * q + 1];
      s_ba[at(l, 2 * j)] = b[2 * q] + b[2 * q + 1];
      s_ba[at(l, 2 * j + 1)] = b[2 * q] - b[2 * q + 1];
    }
  }
  barrier();
}

// A length-4 DFT of v (dir -1 forward, +1 inverse).
void dft4(inout vec2 v0, inout vec2 v1, inout vec2 v2, inout vec2 v3, float dir) {
  vec2 t0 = v0 + v2, t1 = v0 - v2, t2 = v1 + v3, d = v1 - v3;
  vec2 t3 = vec2(-dir * d.y, dir * d.x);  // (dir i) (v1 - v3)
  v0 = t0 + t2;
  v2 = t0 - t2;
  v1 = t1 + t3;
  v3 = t1 - t3;
}

// One radix-4 Stockham step combining 4 transforms of length ns into one of 4 ns: butterfly j
// reads x[j + q N/4], twiddled by e^(dir i 2 pi k q / (4 ns)) with k = j mod ns, and writes its
// DFT's q-th value to y[(j - k) 4 + k + q ns]. Used for every step with radix 4, and as the first
// (ns = 1) with radix 8 when log2 N = 2 mod 3.
void radix4_step(int ns, float dir) {
  int t = int(gl_LocalInvocationIndex);
  vec2 a[4 * B4], b[4 * B4];
  for (int q = 0; q < B4; ++q) {
    int u = t + q * WG_X, l = u / (N / 4), j = u % (N / 4);
    if (u < BF4) {
      int k = j & (ns - 1);
      float angle = dir * TWO_PI * float(k) / float(4 * ns);
      // Three sin/cos pairs: w2 and w3 as complex products of w1 (fewer special-function calls)
      // measured 0.5-0.8% slower on an H200, not faster.
      vec2 w1 = twiddle(angle), w2 = twiddle(2.0 * angle), w3 = twiddle(3.0 * angle);
      a[4 * q] = s_rg[at(l, j)];
      a[4 * q + 1] = cmul(s_rg[at(l, j + N / 4)], w1);
      a[4 * q + 2] = cmul(s_rg[at(l, j + 2 * (N / 4))], w2);
      a[4 * q + 3] = cmul(s_rg[at(l, j + 3 * (N / 4))], w3);
      b[4 * q] = s_ba[at(l, j)];
      b[4 * q + 1] = cmul(s_ba[at(l, j + N / 4)], w1);
      b[4 * q + 2] = cmul(s_ba[at(l, j + 2 * (N / 4))], w2);
      b[4 * q + 3] = cmul(s_ba[at(l, j + 3 * (N / 4))], w3);
    }
  }
  barrier();
  for (int q = 0; q < B4; ++q) {
    int u = t + q * WG_X, l = u / (N / 4), j = u % (N / 4);
    if (u < BF4) {
      dft4(a[4 * q], a[4 * q + 1], a[4 * q + 2], a[4 * q + 3], dir);
      dft4(b[4 * q], b[4 * q + 1], b[4 * q + 2], b[4 * q + 3], dir);
      int k = j & (ns - 1);
      int d = (j - k) * 4 + k;
      s_rg[at(l, d)] = a[4 * q];
      s_rg[at(l, d + ns)] = a[4 * q + 1];
      s_rg[at(l, d + 2 * ns)] = a[4 * q + 2];
      s_rg[at(l, d + 3 * ns)] = a[4 * q + 3];
      s_ba[at(l, d)] = b[4 * q];
      s_ba[at(l, d + ns)] = b[4 * q + 1];
      s_ba[at(l, d + 2 * ns)] = b[4 * q + 2];
      s_ba[at(l, d + 3 * ns)] = b[4 * q + 3];
    }
  }
  barrier();
}

#if FFT_RADIX == 8
// A length-8 DFT of v0..v7 (dir -1 forward, +1 inverse): three radix-2 stages in registers, as two
// length-4 DFTs of the even and the odd points, then X[m] = E[m] + W^m O[m] and
// X[m + 4] = E[m] - W^m O[m] with W = e^(dir i 2 pi / 8): W^1 = (1 + dir i) / sqrt2,
// W^2 = dir i, W^3 = (-1 + dir i) / sqrt2, constants (no twiddle computed). The callers pass array
// elements whose indices are constants once their loops unroll.
const float SQRT_HALF = 0.70710678118654752;
void dft8(inout vec2 v0, inout vec2 v1, inout vec2 v2, inout vec2 v3, inout vec2 v4, inout vec2 v5, inout vec2 v6,
          inout vec2 v7, float dir) {
  dft4(v0, v2, v4, v6, dir);  // E[0..3]
  dft4(v1, v3, v5, v7, dir);  // O[0..3]
  vec2 o1 = SQRT_HALF * vec2(v3.x - dir * v3.y, v3.y + dir * v3.x);   // W^1 O[1]
  vec2 o2 = vec2(-dir * v5.y, dir * v5.x);                            // W^2 O[2]
  vec2 o3 = SQRT_HALF * vec2(-v7.x - dir * v7.y, dir * v7.x - v7.y);  // W^3 O[3]
  vec2 e0 = v0, e1 = v2, e2 = v4, e3 = v6, o0 = v1;
  v0 = e0 + o0;
  v4 = e0 - o0;
  v1 = e1 + o1;
  v5 = e1 - o1;
  v2 = e2 + o2;
  v6 = e2 - o2;
  v3 = e3 + o3;
  v7 = e3 - o3;
}

// One radix-8 Stockham step combining 8 transforms of length ns into one of 8 ns: butterfly j
// reads x[j + q N/8], twiddled by e^(dir i 2 pi k q / (8 ns)) with k = j mod ns (seven sin/cos
// pairs, each angle from the exact fraction k q / (8 ns)), and writes its DFT's q-th value to
// y[(j - k) 8 + k + q ns]. 8 points x 2 channel pairs in registers per butterfly.
void radix8_step(int ns, float dir) {
  int t = int(gl_LocalInvocationIndex);
  vec2 a[8 * B8], b[8 * B8];
  for (int q = 0; q < B8; ++q) {
    int u = t + q * WG_X, l = u / (N / 8), j = u % (N / 8);
    if (u < BF8) {
      int k = j & (ns - 1);
      float step = dir * TWO_PI / float(8 * ns);
      a[8 * q] = s_rg[at(l, j)];
      b[8 * q] = s_ba[at(l, j)];
      for (int m = 1; m < 8; ++m) {
        vec2 w = twiddle(step * float(k * m));
        a[8 * q + m] = cmul(s_rg[at(l, j + m * (N / 8))], w);
        b[8 * q + m] = cmul(s_ba[at(l, j + m * (N / 8))], w);
      }
    }
  }
  barrier();
  for (int q = 0; q < B8; ++q) {
    int u = t + q * WG_X, l = u / (N / 8), j = u % (N / 8);
    if (u < BF8) {
      dft8(a[8 * q], a[8 * q + 1], a[8 * q + 2], a[8 * q + 3], a[8 * q + 4], a[8 * q + 5], a[8 * q + 6], a[8 * q + 7], dir);
      dft8(b[8 * q], b[8 * q + 1], b[8 * q + 2], b[8 * q + 3], b[8 * q + 4], b[8 * q + 5], b[8 * q + 6], b[8 * q + 7], dir);
      int k = j & (ns - 1);
      int d = (j - k) * 8 + k;
      for (int m = 0; m < 8; ++m) {
        s_rg[at(l, d + m * ns)] = a[8 * q + m];
        s_ba[at(l, d + m * ns)] = b[8 * q + m];
      }
    }
  }
  barrier();
}
#endif

// The DFT of every line in place, natural order (dir -1 forward, +1 inverse, unscaled).
void transform(float dir) {
#if FFT_RADIX == 8
  // log2 N = 3 s + e: one radix-2^e step first (e = 1: radix 2; e = 2: radix 4), then s radix-8
  // steps, the fewest shared-memory round trips (1024 points: 2, 8, 8, 8; 512: 8, 8, 8).
#if FFT_LOG2 % 3 == 1
  radix2_step();
  const int first = 2;
#elif FFT_LOG2 % 3 == 2
  radix4_step(1, dir);
  const int first = 4;
#else
  const int first = 1;
#endif
  for (int ns = first; ns < N; ns *= 8) radix8_step(ns, dir);
#else
#if (FFT_LOG2 & 1) == 1
  radix2_step();
  const int first = 2;
#else
  const int first = 1;
#endif
  for (int ns = first; ns < N; ns *= 4) radix4_step(ns, dir);
#endif
}

void main() {
  ivec2 size = source_size();
  int length = AXIS == 0 ? size.x : size.y;
  int lines = AXIS == 0 ? size.y : size.x;  // lines along the axis
  int segment = int(AXIS == 0 ? gl_WorkGroupID.x : gl_WorkGroupID.y);
  int line0 = L * int(AXIS == 0 ? gl_WorkGroupID.y : gl_WorkGroupID.x);  // the workgroup's first line
  int first = segment * M;  // the segments' first output along their lines
  int t = int(gl_LocalInvocationIndex);

  // Rows: each line's N texels in turn (a row's texels are neighbours in memory). Columns: the L
  // neighbouring texels of each row in turn, so a row's reads and writes are contiguous.
  for (int i = t; i < L * N; i += WG_X) {
    int l = AXIS == 0 ? i / N : i % L, p = AXIS == 0 ? i % N : i / L;
    int pos = first - RADIUS + p, line = line0 + l;
    vec4 v = vec4(0.0);
    if (pos < length + RADIUS && line < lines) v = source_texel(AXIS == 0 ? ivec2(pos, line) : ivec2(line, pos));
    s_rg[at(l, p)] = v.xy;
    s_ba[at(l, p)] = v.zw;
  }
  barrier();

  transform(-1.0);
  // The spectrum read once per point for the workgroup's L lines.
  for (int p = t; p < N; p += WG_X) {
    float h = imageLoad(u_spectrum, ivec2(p, 0)).x;
    for (int l = 0; l < L; ++l) {
      s_rg[at(l, p)] *= h;
      s_ba[at(l, p)] *= h;
    }
  }
  barrier();
  transform(1.0);

  for (int i = t; i < L * M; i += WG_X) {
    int l = AXIS == 0 ? i / M : i % L, p = AXIS == 0 ? i % M : i / L;
    int pos = first + p, line = line0 + l;
    if (pos < length && line < lines)
      store_target(AXIS == 0 ? ivec2(pos, line) : ivec2(line, pos), vec4(s_rg[at(l, p + RADIUS)], s_ba[at(l, p + RADIUS)]));
  }
}
#endif
