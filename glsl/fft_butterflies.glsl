// fft_butterflies.glsl: the butterflies of a Stockham FFT step, shared by the 1D FFT blur
// (fft.comp) and the 2D FFT convolution bloom (effects/bloom_fft2d.comp): complex products,
// twiddles, and the DFTs of 2, 4 and 8 points in registers. Complex values are vec2 (re, im).
const float TWO_PI = 6.28318530717958648;

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// e^(i angle)
vec2 twiddle(float angle) { return vec2(cos(angle), sin(angle)); }

// A length-4 DFT of v (dir -1 forward, +1 inverse).
void dft4(inout vec2 v0, inout vec2 v1, inout vec2 v2, inout vec2 v3, float dir) {
  vec2 t0 = v0 + v2, t1 = v0 - v2, t2 = v1 + v3, d = v1 - v3;
  vec2 t3 = vec2(-dir * d.y, dir * d.x);  // (dir i) (v1 - v3)
  v0 = t0 + t2;
  v2 = t0 - t2;
  v1 = t1 + t3;
  v3 = t1 - t3;
}

// A length-8 DFT of v0..v7 (dir -1 forward, +1 inverse): three radix-2 stages in registers, as two
// length-4 DFTs of the even and the odd points, then X[m] = E[m] + W^m O[m] and
// X[m + 4] = E[m] - W^m O[m] with W = e^(dir i 2 pi / 8): W^1 = (1 + dir i) / sqrt2,
// W^2 = dir i, W^3 = (-1 + dir i) / sqrt2, constants (no twiddle computed).
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

// A length-`radix` DFT of a butterfly's points v0 .. v(radix - 1) (the callers pass a literal radix
// and array elements of constant index once inlined and unrolled: they stay in registers).
void dft(int radix, inout vec2 v0, inout vec2 v1, inout vec2 v2, inout vec2 v3, inout vec2 v4, inout vec2 v5, inout vec2 v6,
         inout vec2 v7, float dir) {
  if (radix == 2) {
    vec2 d = v0 - v1;
    v0 += v1;
    v1 = d;
  } else if (radix == 4) {
    dft4(v0, v1, v2, v3, dir);
  } else {
    dft8(v0, v1, v2, v3, v4, v5, v6, v7, dir);
  }
}
