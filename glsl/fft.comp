#version 430 core
// fft: exact blur by FFT convolution, one axis at a time (src/variants/fft.cpp).
//   FFT_PASS 0: the kernel's spectrum on FFT_N points, H[k] = w0 + 2 sum_{t=1..r} w_t cos(2 pi k t / N)
//               (the kernel placed circularly: it is symmetric, so H is real), divided by N (the
//               inverse transform's scale), into texel (k, 0) of an rgba32f row (red).
//   FFT_PASS 1: LINES line segments per workgroup (the same segment of neighbouring lines), along
//               AXIS (0 rows, 1 columns), by overlap-save: for each line, the N = FFT_N texels
//               from r before the segment's first output, read through the border rule
//               (source_texel), as two complex lines R + iG and B + iA; both transformed forward,
//               multiplied by H, transformed back; the N - 2r points from r on are the segment's
//               outputs: their windows lie inside the N points, so the circular convolution is the
//               linear one there. Points past the line's last window (line length + r) are 0: no
//               output reads them.
// The transform: Stockham autosort steps, natural order in and out. Forward, one step of radix F
// (2, 4 or 8: what log2 N leaves over the radix) then steps of radix FFT_RADIX (4 or 8); inverse,
// the same radices in reverse order. Each step holds a butterfly's F or FFT_RADIX points of both
// channel pairs in registers; between steps they go through shared memory in place (an invocation
// reads its butterflies' inputs, a barrier, writes their outputs, a barrier), except where a step
// can take them straight from where they are:
//  - the first forward step (ns = 1) reads its points from the source, not from shared memory;
//  - the last forward step's outputs (ns = N / R: butterfly j's are the spectrum at j + q N / R)
//    are exactly the inputs of the inverse's first step (radix R, ns = 1: butterfly j reads
//    j + q N / R): one step multiplies them by H and transforms them back in registers;
//  - the last inverse step's outputs (butterfly j's are the points j + q N / F) go to the target.
// 512 points with radix 8: 8 shared-memory passes and 7 barriers a segment, not 16 and 14.
// A workgroup takes LINES neighbouring lines' segments (the same segment of each): its WG_X
// invocations (WG_Y = 1) take a step's LINES N / R butterflies in turn, ceil(LINES N / R / WG_X)
// each, those past the count idle. Twiddles from sin/cos of exact fractions of 2 pi.
// Every loop and barrier runs in uniform control flow: partial segments, and lines past the image's
// last, only skip loads and stores.
#include "blur_common.glsl"
#include "fft_butterflies.glsl"

const int N = FFT_N;

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

const int M = N - 2 * RADIUS;  // outputs per segment
const int L = LINES;           // line segments per workgroup (neighbouring lines, one segment each)
const int R = FFT_RADIX;
// The first forward step's radix F (what log2 N leaves over the radix R), and the steps S of one
// transform: log2 N = log2 F + (S - 1) log2 R (S = 1 where N = F: the transform is one step).
#if FFT_RADIX == 8
#if FFT_LOG2 % 3 == 1
#define FFT_F 2
#elif FFT_LOG2 % 3 == 2
#define FFT_F 4
#else
#define FFT_F 8
#endif
#else
#if FFT_LOG2 % 2 == 1
#define FFT_F 2
#else
#define FFT_F 4
#endif
#endif
const int F = FFT_F;
const int S = 1 + (FFT_LOG2 - (F == 2 ? 1 : F == 4 ? 2 : 3)) / (R == 8 ? 3 : 2);
// Butterflies per invocation in the step of the smallest radix (its register arrays' size); at
// least 1, where N is shorter than a step.
const int B = max((L * (N / min(F, R)) + WG_X - 1) / WG_X, 1);
shared vec2 s_rg[L * N];  // R + iG of line l at l N + (point ^ swizzle(l))
shared vec2 s_ba[L * N];  // B + iA

// Where point p of line l lies in the shared arrays: each line holds N points in a row, in an
// order that spreads the steps' accesses over the 32 banks (a half wavefront of vec2 is 16 of them,
// 128 bytes):
//  - FFT_SWIZZLE 1: point p at p ^ ((p >> 3) & 15). A step's reads (j + q N/R for neighbouring j)
//    and writes of the first step (R j + q) stay conflict-free (each aligned 8 points keep their
//    place among themselves), and the writes of the next steps, R points apart (y[j R + q] at
//    ns = 1: 16 of a half wavefront in 2 banks with radix 8), spread out.
//    Bits 0-3 change only, by bits 3-6 (bit 3 by bit 6): a permutation of each aligned 16 points.
//  - The column pass (AXIS 1) with several lines reads and writes the image in its first and last
//    steps with neighbouring invocations on neighbouring lines (point j of line u % L), which would
//    put them N apart, in one bank: each line's points are XORed with l 16 / L (below N) too, so the
//    L lines of 16 / L butterflies of a half wavefront fall in 16 different vec2 banks. The other
//    steps' warps lie in one line (N / R >= 32 butterflies a line), where a fixed XOR keeps how many
//    values share a bank.
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

// The workgroup's lines and segment (set once in main()).
int g_length, g_lines, g_first, g_line0;

// Point p of line l's segment: the texel r before the segment's first output and p on, by the
// border rule; 0 past the line's last window.
vec4 segment_texel(int l, int p) {
  int pos = g_first - RADIUS + p, line = g_line0 + l;
  if (pos >= g_length + RADIUS || line >= g_lines) return vec4(0.0);
  return source_texel(AXIS == 0 ? ivec2(pos, line) : ivec2(line, pos));
}

// Point p of line l's segment to the target, where it is one of the segment's outputs.
void store_point(int l, int p, vec4 v) {
  int pos = g_first + p - RADIUS, line = g_line0 + l;
  if (p >= RADIUS && p < RADIUS + M && pos < g_length && line < g_lines)
    store_target(AXIS == 0 ? ivec2(pos, line) : ivec2(line, pos), v);
}

// Butterfly u of a step with N / radix butterflies a line: its line and its index j in the line.
// Steps that read or write the image take, in the column pass, neighbouring lines with neighbouring
// invocations (a row's LINES texels together); the others a line's butterflies in turn.
void butterfly(int u, int radix, bool image_step, out int l, out int j) {
#if AXIS == 1
  if (image_step) {
    l = u % L;
    j = u / L;
    return;
  }
#endif
  l = u / (N / radix);
  j = u % (N / radix);
}

const int FROM_SHARED = 0, FROM_SOURCE = 1;
const int TO_SHARED = 0, TO_TARGET = 1;

// One Stockham step of radix `radix` combining transforms of length ns into one of radix ns: butterfly
// j of a line reads x[j + q N/radix] (q < radix), twiddled by e^(dir i 2 pi k q / (radix ns)) with
// k = j mod ns, and writes its DFT's q-th value to y[(j - k) radix + k + q ns]. `from`: shared
// memory or, for the first forward step (ns = 1), the source. `to`: shared memory or, for the last
// inverse step (ns = N / radix, where y's index is j + q N / radix), the target. `product`: the
// last forward step (ns = N / radix), whose values are the spectrum at j + q N / radix, fused with
// the inverse's first (radix `radix`, ns = 1, reading just those): multiplied by H, transformed back
// and written to y[j radix + q]. Every argument is a literal or a loop's constant once inlined.
void fft_step(int radix, int ns, float dir, int from, int to, bool product) {
  int t = int(gl_LocalInvocationIndex);
  int count = L * (N / radix), per = (count + WG_X - 1) / WG_X;
  bool image_step = from == FROM_SOURCE || to == TO_TARGET;  // the same butterflies in both halves
  vec2 a[8 * B], b[8 * B];
  for (int q = 0; q < per; ++q) {
    int u = t + q * WG_X, l, j, o = radix * q;
    butterfly(u, radix, image_step, l, j);
    if (u < count) {
      int k = j & (ns - 1);
      float angle = dir * TWO_PI * float(k) / float(radix * ns);
      for (int m = 0; m < radix; ++m) {
        int p = j + m * (N / radix);
        if (from == FROM_SOURCE) {  // ns = 1: no twiddles
          vec4 v = segment_texel(l, p);
          a[o + m] = v.xy;
          b[o + m] = v.zw;
        } else if (ns == 1 || m == 0) {
          a[o + m] = s_rg[at(l, p)];
          b[o + m] = s_ba[at(l, p)];
        } else {
          vec2 w = twiddle(angle * float(m));
          a[o + m] = cmul(s_rg[at(l, p)], w);
          b[o + m] = cmul(s_ba[at(l, p)], w);
        }
      }
      dft(radix, a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5], a[o + 6], a[o + 7], dir);
      dft(radix, b[o], b[o + 1], b[o + 2], b[o + 3], b[o + 4], b[o + 5], b[o + 6], b[o + 7], dir);
      if (product) {
        for (int m = 0; m < radix; ++m) {
          float h = imageLoad(u_spectrum, ivec2(j + m * (N / radix), 0)).x;
          a[o + m] *= h;
          b[o + m] *= h;
        }
        dft(radix, a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5], a[o + 6], a[o + 7], -dir);
        dft(radix, b[o], b[o + 1], b[o + 2], b[o + 3], b[o + 4], b[o + 5], b[o + 6], b[o + 7], -dir);
      }
    }
  }
  // In place: every butterfly's reads before any write.
  if (from == FROM_SHARED && to == TO_SHARED) barrier();
  for (int q = 0; q < per; ++q) {
    int u = t + q * WG_X, l, j, o = radix * q;
    butterfly(u, radix, image_step, l, j);
    if (u < count) {
      // The product step writes as the inverse's first step (ns = 1) does.
      int k = j & (ns - 1), d = product ? j * radix : (j - k) * radix + k, stride = product ? 1 : ns;
      for (int m = 0; m < radix; ++m) {
        int p = d + m * stride;
        if (to == TO_TARGET) {
          store_point(l, p, vec4(a[o + m], b[o + m]));
        } else {
          s_rg[at(l, p)] = a[o + m];
          s_ba[at(l, p)] = b[o + m];
        }
      }
    }
  }
  if (to == TO_SHARED) barrier();
}

void main() {
  ivec2 size = source_size();
  g_length = AXIS == 0 ? size.x : size.y;
  g_lines = AXIS == 0 ? size.y : size.x;  // lines along the axis
  int segment = int(AXIS == 0 ? gl_WorkGroupID.x : gl_WorkGroupID.y);
  g_line0 = L * int(AXIS == 0 ? gl_WorkGroupID.y : gl_WorkGroupID.x);  // the workgroup's first line
  g_first = segment * M;  // the segments' first output along their lines

#if FFT_N == FFT_F
  // One step each way: from the source, through H, to the target, all in registers.
  fft_step(F, 1, -1.0, FROM_SOURCE, TO_TARGET, true);
#else
  // Forward: radix F at ns = 1 from the source, then radix R; the last fused with the inverse's first.
  fft_step(F, 1, -1.0, FROM_SOURCE, TO_SHARED, false);
  int ns = F;
  for (int s = 1; s < S - 1; ++s, ns *= R) fft_step(R, ns, -1.0, FROM_SHARED, TO_SHARED, false);
  fft_step(R, N / R, -1.0, FROM_SHARED, TO_SHARED, true);
  // Inverse: radix R from ns = R (its first step was the product's), then radix F to the target.
  ns = R;
  for (int s = 1; s < S - 1; ++s, ns *= R) fft_step(R, ns, 1.0, FROM_SHARED, TO_SHARED, false);
  fft_step(F, N / F, 1.0, FROM_SHARED, TO_TARGET, false);
#endif
}
#endif
