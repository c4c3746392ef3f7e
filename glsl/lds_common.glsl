// lds_common.glsl: the shared-memory (LDS) cache of compute-naive-lds, compute-separable-lds,
// compute-inline-lds, compute-inline-persistent and compute-inline-regblock. Include after
// blur_common.glsl, a source hook (source_image.glsl) and the local_size layout (WG_X * WG_Y
// invocations), with LDS_TEXELS defined by the host (src/variants/lds.h): the texels of the one
// shared array s_lds that each shader lays out.
//
// CACHE_BITS = 32: a texel is a vec4 (16 bytes). CACHE_BITS = 16: a uvec2 holding the four channels
// as two packHalf2x16 (8 bytes): half the shared memory, fp16 rounding of what is cached.

const int LDS_INVOCATIONS = WG_X * WG_Y;

#if CACHE_BITS == 16
shared uvec2 s_lds[LDS_TEXELS];
void lds_store(int i, vec4 v) { s_lds[i] = uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
vec4 lds_load(int i) { return vec4(unpackHalf2x16(s_lds[i].x), unpackHalf2x16(s_lds[i].y)); }
#else
shared vec4 s_lds[LDS_TEXELS];
void lds_store(int i, vec4 v) { s_lds[i] = v; }
vec4 lds_load(int i) { return s_lds[i]; }
#endif

// Cooperative load of the source rectangle at `origin`, extent.x by extent.y texels (the border
// rule applied where it reaches outside), into s_lds[base + y * extent.x + x]. Balanced: invocation k loads texels k, k + N,
// k + 2N, ... (N invocations), so each loads ceil or floor of area / N, and consecutive
// invocations read consecutive texels of a row. No barrier inside: call it in uniform control
// flow and put memoryBarrierShared(); barrier(); between it and the reads.
void lds_fill_rect(int base, ivec2 origin, ivec2 extent) {
  int area = extent.x * extent.y;
  for (int i = int(gl_LocalInvocationIndex); i < area; i += LDS_INVOCATIONS)
    lds_store(base + i, source_texel(origin + ivec2(i % extent.x, i / extent.x)));
}

// The 2r+1 taps of a cached line: sum over i = -r..r of w(i) * s_lds[centre + i * stride].
vec4 lds_tap_sum(int centre, int stride) {
  vec4 sum = vec4(0.0);
  for (int i = -RADIUS; i <= RADIUS; ++i) sum += tap_weight(i) * lds_load(centre + i * stride);
  return sum;
}
