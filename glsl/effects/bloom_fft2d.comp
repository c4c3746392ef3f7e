#version 430 core
// bloom_fft2d.comp: bloom's 2D FFT convolution (src/effects/bloom_fft2d.cpp has the plan): the light
// that blooms, black beyond the frame, convolved with a kernel of any shape through its 2D spectrum,
// on an NX x NY grid (powers of two) that holds the frame and the kernel's reach, so nothing wraps.
// Values are fp32 complex: each point holds two complex values, a = R + iG and b = B + i0 (vec4
// (a, b) in rgba32f lines), the two channels of a sharing one transform (a coloured kernel's R and
// G are taken apart in the spectrum, below).
//   FFT2D_PASS 0, rows forward: LINES rows of the source (the HDR frame, prefiltered, or the kernel)
//     per workgroup, each N = NX points: the source's texel x at point x - ORIGIN mod N (u_pass.w:
//     0 for the frame, the kernel's rx for the kernel, so its centre lands on point 0), 0 elsewhere;
//     transformed, stored whole in the lines image.
//   FFT2D_PASS 1, columns: a workgroup takes columns g and NX - g (g = 0: columns 0 and NX / 2), the
//     pairs whose spectra are each other's mirror (a real signal's: X(-k) = conj X(k)), N = NY
//     points each: row y of the lines image at point y - u_pass.x mod N (0 for the frame, ry for
//     the kernel), 0 where no row is; transformed forward; then each point k learns its mirror's a,
//     a(-k) (through shared memory), and
//       SPECTRUM 0 (the frame): a and b multiplied by the kernel's spectrum, then transformed back
//         and stored in place (rows of the frame only): with A1 = (K_R + K_G) / 2 and B1 =
//         (K_R - K_G) / 2, a' = a A1 + conj(a(-k)) B1 is R K_R + i G K_G (R = (a + conj a(-k)) / 2,
//         G = (a - conj a(-k)) / 2i); b' = b K_B;
//       SPECTRUM 1 (the kernel, once per size): K_R = (a + conj a(-k)) / 2 and K_G = (a -
//         conj a(-k)) / 2i give A1 = ((1 - i) a + (1 + i) conj a(-k)) / 4 and B1 = ((1 + i) a +
//         (1 - i) conj a(-k)) / 4; A2 = b = K_B; each divided by NX NY (the inverse transforms'
//         scale), stored for the columns 0 .. NX / 2 (the others are their mirrors' conjugates):
//         spectrum a = (A1, A2), spectrum b = (B1, 0).
//   FFT2D_PASS 2, rows back: LINES rows of the lines image transformed back, the frame's columns
//     stored as the layer (rgba16f: R, G, B, 1).
// The transform: Stockham autosort steps (glsl/fft_butterflies.glsl: the butterflies), one of radix
// F (what log2 N leaves over radix R = 8) then radix R forward, the reverse back. The invocations
// hold every point of the transform in registers (P points each, whole butterflies); between steps
// the points go through shared memory, COMPONENTS of a point's four floats at a time (so that a
// line of 8192 points fits 32 KiB): each invocation stores its butterflies' outputs, a barrier,
// loads the next step's inputs, a barrier. The forward transform's last outputs (point j + q N / R
// of butterfly j) are the inverse's first inputs: the product sits between them in registers.
// Every barrier is in uniform control flow: lines past the image's last only skip loads and stores.
#include "effects/bloom_common.glsl"
#include "fft_butterflies.glsl"

const int N = FFT_N;
const int L = LINES;
const int R = FFT_RADIX;
#if FFT_LOG2 % 3 == 1
#define FFT_F 2
#elif FFT_LOG2 % 3 == 2
#define FFT_F 4
#else
#define FFT_F 8
#endif
const int F = FFT_F;
const int S = 1 + (FFT_LOG2 - (F == 2 ? 1 : F == 4 ? 2 : 3)) / 3;  // steps of one transform
const int WG = WG_X;
const int P = L * N / WG;  // points per invocation: whole butterflies of every radix
const int C = COMPONENTS;  // floats of a point per round through shared memory: 1, 2 or 4

layout(local_size_x = WG_X) in;

vec2 g_a[P + 8], g_b[P + 8];  // the invocation's points (8 more: dft() names 8 of them whatever the radix)
shared float s_x[C * L * N];

// Butterfly i of the invocation in a step of radix `radix`: its line and its index in the line.
int butterfly_line(int i, int radix) { return (int(gl_LocalInvocationIndex) + i * WG) / (N / radix); }
int butterfly_index(int i, int radix) { return (int(gl_LocalInvocationIndex) + i * WG) % (N / radix); }
// Where output m of butterfly j of a step of radix `radix` at ns goes (Stockham), and where input m
// of butterfly j of the next step comes from.
int output_point(int radix, int ns, int j, int m) { return (j - (j & (ns - 1))) * radix + (j & (ns - 1)) + m * ns; }
int input_point(int radix, int j, int m) { return j + m * (N / radix); }

// One step: each butterfly's inputs twiddled by e^(dir i 2 pi k m / (radix ns)), k = j mod ns, then
// its DFT. `radix` is a literal at every call: the register indices are constants once unrolled.
void butterflies(int radix, int ns, float dir) {
  for (int i = 0; i < P / radix; ++i) {
    int j = butterfly_index(i, radix), o = i * radix;
    if (ns > 1) {
      float angle = dir * TWO_PI * float(j & (ns - 1)) / float(radix * ns);
      for (int m = 1; m < radix; ++m) {
        vec2 w = twiddle(angle * float(m));
        g_a[o + m] = cmul(g_a[o + m], w);
        g_b[o + m] = cmul(g_b[o + m], w);
      }
    }
    dft(radix, g_a[o], g_a[o + 1], g_a[o + 2], g_a[o + 3], g_a[o + 4], g_a[o + 5], g_a[o + 6], g_a[o + 7], dir);
    dft(radix, g_b[o], g_b[o + 1], g_b[o + 2], g_b[o + 3], g_b[o + 4], g_b[o + 5], g_b[o + 6], g_b[o + 7], dir);
  }
}

// The outputs of a step (radix rp at ns) to the inputs of the next (radix rn), through shared memory.
void exchange(int rp, int ns, int rn) {
  for (int round = 0; round < 4 / C; ++round) {
    for (int i = 0; i < P / rp; ++i) {
      int l = butterfly_line(i, rp), j = butterfly_index(i, rp);
      for (int m = 0; m < rp; ++m) {
        vec4 v = vec4(g_a[i * rp + m], g_b[i * rp + m]);
        for (int c = 0; c < C; ++c) s_x[(c * L + l) * N + output_point(rp, ns, j, m)] = v[round * C + c];
      }
    }
    barrier();
    for (int i = 0; i < P / rn; ++i) {
      int l = butterfly_line(i, rn), j = butterfly_index(i, rn);
      for (int m = 0; m < rn; ++m) {
        vec4 v = vec4(g_a[i * rn + m], g_b[i * rn + m]);
        for (int c = 0; c < C; ++c) v[round * C + c] = s_x[(c * L + l) * N + input_point(rn, j, m)];
        g_a[i * rn + m] = v.xy;
        g_b[i * rn + m] = v.zw;
      }
    }
    barrier();
  }
}

// The forward transform of the points loaded as radix F's inputs; its outputs are held as radix
// LAST's butterflies' points j + q N / LAST.
const int LAST = S > 1 ? R : F;
void forward() {
  butterflies(F, 1, -1.0);
  if (S > 1) {
    exchange(F, 1, R);
    butterflies(R, F, -1.0);
  }
  int ns = F;
  for (int s = 2; s < S; ++s) {
    exchange(R, ns, R);
    ns *= R;
    butterflies(R, ns, -1.0);
  }
}

// The inverse transform of points held as radix LAST's inputs; its outputs are held as radix F's
// butterflies' points j + q N / F.
void inverse() {
  if (S > 1) {
    butterflies(R, 1, 1.0);
    int ns = 1;
    for (int s = 2; s < S; ++s) {
      exchange(R, ns, R);
      ns *= R;
      butterflies(R, ns, 1.0);
    }
    exchange(R, ns, F);
    butterflies(F, N / F, 1.0);
  } else {
    butterflies(F, 1, 1.0);
  }
}

#if FFT2D_PASS == 0
layout(SOURCE_FORMAT, binding = BINDING_SOURCE) uniform restrict readonly image2D u_source;
layout(rgba32f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_lines;

void main() {
  ivec2 size = imageSize(u_source);
  int origin = int(u_pass.w);
  for (int i = 0; i < P / F; ++i) {
    int l = butterfly_line(i, F), j = butterfly_index(i, F), row = L * int(gl_WorkGroupID.x) + l;
    for (int m = 0; m < F; ++m) {
      int p = input_point(F, j, m);
      int x = p < size.x - origin ? p + origin : p >= N - origin ? p - N + origin : -1;
      vec3 v = vec3(0.0);
      if (x >= 0 && row < size.y) {
        v = imageLoad(u_source, ivec2(x, row)).rgb;
#if PREFILTER
        v = blooming_light(v);
#endif
      }
      g_a[i * F + m] = v.rg;
      g_b[i * F + m] = vec2(v.b, 0.0);
    }
  }
  forward();
  for (int i = 0; i < P / LAST; ++i) {
    int l = butterfly_line(i, LAST), j = butterfly_index(i, LAST), row = L * int(gl_WorkGroupID.x) + l;
    if (row < size.y)
      for (int m = 0; m < LAST; ++m) imageStore(u_lines, ivec2(input_point(LAST, j, m), row), vec4(g_a[i * LAST + m], g_b[i * LAST + m]));
  }
}

#elif FFT2D_PASS == 1
const int NX = FFT_NX;
#if SPECTRUM
layout(rgba32f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_lines;
layout(rgba32f, binding = BINDING_SPECTRUM) uniform restrict writeonly image2D u_spectrum_a;
layout(rgba32f, binding = BINDING_SPECTRUM2) uniform restrict writeonly image2D u_spectrum_b;
#else
layout(rgba32f, binding = BINDING_SOURCE) uniform restrict image2D u_lines;  // read, then written in place
layout(rgba32f, binding = BINDING_SPECTRUM) uniform restrict readonly image2D u_spectrum_a;
layout(rgba32f, binding = BINDING_SPECTRUM2) uniform restrict readonly image2D u_spectrum_b;
#endif

vec2 g_mirror[P + 8];  // a(-k) of each point held

// The workgroup's two columns, and the line holding each line's mirror.
int column(int l) {
  int g = int(gl_WorkGroupID.x);
  return l == 0 ? g : g == 0 ? NX / 2 : NX - g;
}
int mirror_line(int l) { return gl_WorkGroupID.x == 0u ? l : 1 - l; }

// a(-k) for every point held (as radix LAST's outputs), through shared memory, two floats a round at most.
void learn_mirrors() {
  const int CM = min(C, 2);
  for (int round = 0; round < 2 / CM; ++round) {
    for (int i = 0; i < P / LAST; ++i) {
      int l = butterfly_line(i, LAST), j = butterfly_index(i, LAST);
      for (int m = 0; m < LAST; ++m)
        for (int c = 0; c < CM; ++c) s_x[(c * L + l) * N + input_point(LAST, j, m)] = g_a[i * LAST + m][round * CM + c];
    }
    barrier();
    for (int i = 0; i < P / LAST; ++i) {
      int l = mirror_line(butterfly_line(i, LAST)), j = butterfly_index(i, LAST);
      for (int m = 0; m < LAST; ++m)
        for (int c = 0; c < CM; ++c) g_mirror[i * LAST + m][round * CM + c] = s_x[(c * L + l) * N + ((N - input_point(LAST, j, m)) & (N - 1))];
    }
    barrier();
  }
}

vec2 conj(vec2 z) { return vec2(z.x, -z.y); }
vec2 times_one_minus_i(vec2 z) { return vec2(z.x + z.y, z.y - z.x); }
vec2 times_one_plus_i(vec2 z) { return vec2(z.x - z.y, z.y + z.x); }

void main() {
  int rows = imageSize(u_lines).y, origin = int(u_pass.x);
  for (int i = 0; i < P / F; ++i) {
    int l = butterfly_line(i, F), j = butterfly_index(i, F);
    for (int m = 0; m < F; ++m) {
      int p = input_point(F, j, m);
      int y = p < rows - origin ? p + origin : p >= N - origin ? p - N + origin : -1;
      vec4 v = y >= 0 ? imageLoad(u_lines, ivec2(column(l), y)) : vec4(0.0);
      g_a[i * F + m] = v.xy;
      g_b[i * F + m] = v.zw;
    }
  }
  forward();
  learn_mirrors();
#if SPECTRUM
  const float scale = 1.0 / (float(NX) * float(N));
  for (int i = 0; i < P / LAST; ++i) {
    int l = butterfly_line(i, LAST), j = butterfly_index(i, LAST), x = column(l);
    if (x <= NX / 2)
      for (int m = 0; m < LAST; ++m) {
        vec2 a = g_a[i * LAST + m], mirror = conj(g_mirror[i * LAST + m]);
        vec2 a1 = 0.25 * (times_one_minus_i(a) + times_one_plus_i(mirror));
        vec2 b1 = 0.25 * (times_one_plus_i(a) + times_one_minus_i(mirror));
        ivec2 at = ivec2(x, input_point(LAST, j, m));
        imageStore(u_spectrum_a, at, scale * vec4(a1, g_b[i * LAST + m]));
        imageStore(u_spectrum_b, at, vec4(scale * b1, 0.0, 0.0));
      }
  }
#else
  for (int i = 0; i < P / LAST; ++i) {
    int l = butterfly_line(i, LAST), j = butterfly_index(i, LAST), x = column(l);
    for (int m = 0; m < LAST; ++m) {
      int k = input_point(LAST, j, m);
      // The spectrum at (x, k): stored for x <= NX / 2, else the conjugate of its mirror's.
      bool stored = x <= NX / 2;
      ivec2 at = stored ? ivec2(x, k) : ivec2(NX - x, (N - k) & (N - 1));
      vec4 sa = imageLoad(u_spectrum_a, at);
      vec2 b1 = imageLoad(u_spectrum_b, at).xy;
      vec2 a1 = sa.xy, a2 = sa.zw;
      if (!stored) {
        a1 = conj(a1);
        a2 = conj(a2);
        b1 = conj(b1);
      }
      int o = i * LAST + m;
      g_a[o] = cmul(g_a[o], a1) + cmul(conj(g_mirror[o]), b1);
      g_b[o] = cmul(g_b[o], a2);
    }
  }
  inverse();
  for (int i = 0; i < P / F; ++i) {
    int l = butterfly_line(i, F), j = butterfly_index(i, F);
    for (int m = 0; m < F; ++m) {
      int y = input_point(F, j, m);
      if (y < rows) imageStore(u_lines, ivec2(column(l), y), vec4(g_a[i * F + m], g_b[i * F + m]));
    }
  }
#endif
}

#else
layout(rgba32f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_lines;
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_layer;

void main() {
  int rows = imageSize(u_lines).y, width = imageSize(u_layer).x;
  for (int i = 0; i < P / LAST; ++i) {
    int l = butterfly_line(i, LAST), j = butterfly_index(i, LAST), row = L * int(gl_WorkGroupID.x) + l;
    for (int m = 0; m < LAST; ++m) {
      vec4 v = row < rows ? imageLoad(u_lines, ivec2(input_point(LAST, j, m), row)) : vec4(0.0);
      g_a[i * LAST + m] = v.xy;
      g_b[i * LAST + m] = v.zw;
    }
  }
  inverse();
  for (int i = 0; i < P / F; ++i) {
    int l = butterfly_line(i, F), j = butterfly_index(i, F), row = L * int(gl_WorkGroupID.x) + l;
    for (int m = 0; m < F; ++m) {
      int x = input_point(F, j, m);
      if (x < width && row < rows) imageStore(u_layer, ivec2(x, row), vec4(g_a[i * F + m], g_b[i * F + m].x, 1.0));
    }
  }
}
#endif
