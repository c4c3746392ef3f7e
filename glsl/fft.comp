#version 430 core
// fft: exact blur by FFT convolution, one axis at a time (src/variants/fft.cpp).
//   FFT_PASS 0: the kernel's spectrum on FFT_N points, H[k] = w0 + 2 sum_{t=1..r} w_t cos(2 pi k t / N)
//               (the kernel placed circularly: it is symmetric, so H is real), divided by N (the
//               inverse transform's scale), into texel (k, 0) of an rgba32f row (red).
//   FFT_PASS 1: one line segment per workgroup, along AXIS (0 rows, 1 columns), by overlap-save:
//               the N = FFT_N texels from r before the segment's first output, read through the
//               border rule (source_texel), as two complex lines R + iG and B + iA in shared
//               memory; both transformed forward, multiplied by H, transformed back; the N - 2r
//               points from r on are the segment's outputs: their windows lie inside the N points,
//               so the circular convolution is the linear one there. Points past the line's last
//               window (line length + r) are set to 0: no output reads them.
// The transform: Stockham autosort steps in place in shared memory (each invocation reads its
// butterfly's inputs, a barrier, writes its outputs, a barrier), natural order in and out: one
// radix-2 step when log2 N is odd, then radix-4 steps. The workgroup's WG_X invocations (WG_Y = 1)
// take the N / 4 radix-4 butterflies of each channel pair per step in turn, ceil(N / 4 / WG_X)
// each, those past N / 4 idle. Twiddles from sin/cos of exact fractions of 2 pi.
// Every loop and barrier runs in uniform control flow: partial segments only skip loads and stores.
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
const int Q = N / 4;                      // radix-4 butterflies per step
const int B = (Q + WG_X - 1) / WG_X;      // of them per invocation (the last ones idle past Q)
shared vec2 s_rg[N];                      // R + iG
shared vec2 s_ba[N];                      // B + iA

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// e^(i angle)
vec2 twiddle(float angle) { return vec2(cos(angle), sin(angle)); }

#if (FFT_LOG2 & 1) == 1
// The first step when log2 N is odd: radix 2 at Ns = 1 (no twiddles), N / 2 = 2Q butterflies:
// y[2j] = x[j] + x[j + N/2], y[2j + 1] = x[j] - x[j + N/2].
void radix2_step() {
  int t = int(gl_LocalInvocationIndex);
  vec2 a[4 * B], b[4 * B];
  for (int q = 0; q < 2 * B; ++q) {
    int j = t + q * WG_X;
    if (j < 2 * Q) {
      a[2 * q] = s_rg[j];
      a[2 * q + 1] = s_rg[j + N / 2];
      b[2 * q] = s_ba[j];
      b[2 * q + 1] = s_ba[j + N / 2];
    }
  }
  barrier();
  for (int q = 0; q < 2 * B; ++q) {
    int j = t + q * WG_X;
    if (j < 2 * Q) {
      s_rg[2 * j] = a[2 * q] + a[2 * q + 1];
      s_rg[2 * j + 1] = a[2 * q] - a[2 * q + 1];
      s_ba[2 * j] = b[2 * q] + b[2 * q + 1];
      s_ba[2 * j + 1] = b[2 * q] - b[2 * q + 1];
    }
  }
  barrier();
}
#endif

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
// DFT's q-th value to y[(j - k) 4 + k + q ns].
void radix4_step(int ns, float dir) {
  int t = int(gl_LocalInvocationIndex);
  vec2 a[4 * B], b[4 * B];
  for (int q = 0; q < B; ++q) {
    int j = t + q * WG_X;
    if (j < Q) {
      int k = j & (ns - 1);
      float angle = dir * TWO_PI * float(k) / float(4 * ns);
      // Three sin/cos pairs: w2 and w3 as complex products of w1 (fewer special-function calls)
      // measured 0.5-0.8% slower on an H200, not faster.
      vec2 w1 = twiddle(angle), w2 = twiddle(2.0 * angle), w3 = twiddle(3.0 * angle);
      a[4 * q] = s_rg[j];
      a[4 * q + 1] = cmul(s_rg[j + Q], w1);
      a[4 * q + 2] = cmul(s_rg[j + 2 * Q], w2);
      a[4 * q + 3] = cmul(s_rg[j + 3 * Q], w3);
      b[4 * q] = s_ba[j];
      b[4 * q + 1] = cmul(s_ba[j + Q], w1);
      b[4 * q + 2] = cmul(s_ba[j + 2 * Q], w2);
      b[4 * q + 3] = cmul(s_ba[j + 3 * Q], w3);
    }
  }
  barrier();
  for (int q = 0; q < B; ++q) {
    int j = t + q * WG_X;
    if (j < Q) {
      dft4(a[4 * q], a[4 * q + 1], a[4 * q + 2], a[4 * q + 3], dir);
      dft4(b[4 * q], b[4 * q + 1], b[4 * q + 2], b[4 * q + 3], dir);
      int k = j & (ns - 1);
      int d = (j - k) * 4 + k;
      s_rg[d] = a[4 * q];
      s_rg[d + ns] = a[4 * q + 1];
      s_rg[d + 2 * ns] = a[4 * q + 2];
      s_rg[d + 3 * ns] = a[4 * q + 3];
      s_ba[d] = b[4 * q];
      s_ba[d + ns] = b[4 * q + 1];
      s_ba[d + 2 * ns] = b[4 * q + 2];
      s_ba[d + 3 * ns] = b[4 * q + 3];
    }
  }
  barrier();
}

// The DFT of both lines in place, natural order (dir -1 forward, +1 inverse, unscaled).
void transform(float dir) {
#if (FFT_LOG2 & 1) == 1
  radix2_step();
  const int first = 2;
#else
  const int first = 1;
#endif
  for (int ns = first; ns < N; ns *= 4) radix4_step(ns, dir);
}

void main() {
  ivec2 size = source_size();
  int length = AXIS == 0 ? size.x : size.y;
  int segment = int(AXIS == 0 ? gl_WorkGroupID.x : gl_WorkGroupID.y);
  int line = int(AXIS == 0 ? gl_WorkGroupID.y : gl_WorkGroupID.x);
  int first = segment * M;  // the segment's first output along the line
  int t = int(gl_LocalInvocationIndex);

  for (int i = t; i < N; i += WG_X) {
    int pos = first - RADIUS + i;
    vec4 v = vec4(0.0);
    if (pos < length + RADIUS) v = source_texel(AXIS == 0 ? ivec2(pos, line) : ivec2(line, pos));
    s_rg[i] = v.xy;
    s_ba[i] = v.zw;
  }
  barrier();

  transform(-1.0);
  for (int i = t; i < N; i += WG_X) {
    float h = imageLoad(u_spectrum, ivec2(i, 0)).x;
    s_rg[i] *= h;
    s_ba[i] *= h;
  }
  barrier();
  transform(1.0);

  for (int i = t; i < M; i += WG_X) {
    int pos = first + i;
    if (pos < length) store_target(AXIS == 0 ? ivec2(pos, line) : ivec2(line, pos), vec4(s_rg[i + RADIUS], s_ba[i + RADIUS]));
  }
}
#endif
