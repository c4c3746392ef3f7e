#version 430 core
// dof_near_far.comp: depth of field the way engines do it (src/effects/dof_near_far.cpp says whose
// and why): the frame at half resolution with each texel's circle of confusion, the largest circles
// of each tile dilated over the tiles they may reach, near and far fields gathered from the samples
// whose own circles cover the pixel (scatter as gather), and a composite at full resolution. Circles
// are signed radii in full-resolution pixels (near negative), coc = a + b d for a window depth d
// (u_pass.xy = a, b, dof::coc_from_window_depth).
//   DOF_PASS 0, the prefilter: half-resolution texel q = the mean radiance of full-resolution pixels
//     2q .. 2q + 1 (clamped to the frame) and, in alpha, the nearest of their four circles (the
//     smallest signed one).
//   DOF_PASS 1, the tiles: for each tile of TILE x TILE half-resolution texels, the largest near
//     circle (max -coc, at least 0) in red and the largest far one (max coc) in green.
//   DOF_PASS 2, the dilation: each tile the largest of the tiles within DILATE of it (clamped to the
//     grid): every sample whose circle may reach a pixel of the tile.
//   DOF_PASS 3, the gather: one workgroup a tile; samples from a table of disks (u_table: row r for
//     a radius of r half-resolution texels; its texel 0 holds the row's count n and the area a sample
//     stands for over pi (its share); texels 1..n the samples' half-resolution offsets and
//     distances in full-resolution pixels, rings spaced evenly out to r). A sample s at distance d
//     covers the pixel by cover(c, d) = clamp(c - d + 1/2, 0, 1) (its disk's edge blurred over a
//     pixel). The far field: samples behind the focus seen through the centre's
//     own circle (c = min(coc_s, coc_p): a sample farther than the centre is hidden beyond the
//     centre's disk), so the disk of the centre's circle holds every sample that may reach it; each
//     weighted ramp(c - 1) cover(c, d) / c^2 (a disk's light per area). The near field: samples in
//     front of the focus (c = -coc_s) reach from as far as the largest near circle of the tiles
//     around (the dilated tile's red), weighted ramp(c - 1) cover(c, d) min(1, share / c^2), so that
//     its alpha is the fraction of the pixel the near disks cover; tiles with no near circle skip it.
//     Both stored as premultiplied sums (rgb: sum w radiance, a: sum w) in rgba16f.
//   DOF_PASS 4, the composite: the fields upsampled bilinearly (weights 3/4 and 1/4 a side), the
//     far field's mean replacing the sharp frame by the pixel's own ramp(coc - 1), the near field over
//     it by its alpha (at most 1), tonemapped and encoded like every effect's frame.
// ramp(x) = clamp(x, 0, 1): circles of a pixel or less are in focus; each field fades in over the
// next pixel.
#include "pass_values.glsl"
#include "effects/tonemap.glsl"

float ramp(float x) { return clamp(x, 0.0, 1.0); }
float cover(float c, float d) { return clamp(c - d + 0.5, 0.0, 1.0); }

#if DOF_PASS == 0
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_frame;
layout(binding = BINDING_STAGE1) uniform sampler2D u_depth;
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_half;

void main() {
  ivec2 q = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(q, imageSize(u_half)))) return;
  ivec2 last = imageSize(u_frame) - 1;
  vec3 sum = vec3(0.0);
  float nearest = 0.0;
  for (int k = 0; k < 4; ++k) {
    ivec2 p = min(2 * q + ivec2(k & 1, k >> 1), last);
    sum += imageLoad(u_frame, p).rgb;
    float coc = u_pass.x + u_pass.y * texelFetch(u_depth, p, 0).r;
    nearest = k == 0 ? coc : min(nearest, coc);
  }
  imageStore(u_half, q, vec4(sum * 0.25, nearest));
}

#elif DOF_PASS == 1
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_half;
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_tiles;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(t, imageSize(u_tiles)))) return;
  ivec2 size = imageSize(u_half);
  float near = 0.0, far = 0.0;
  for (int y = t.y * TILE; y < min(t.y * TILE + TILE, size.y); ++y)
    for (int x = t.x * TILE; x < min(t.x * TILE + TILE, size.x); ++x) {
      float coc = imageLoad(u_half, ivec2(x, y)).a;
      near = max(near, -coc);
      far = max(far, coc);
    }
  imageStore(u_tiles, t, vec4(near, far, 0.0, 1.0));
}

#elif DOF_PASS == 2
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_tiles;
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_dilated;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(u_tiles);
  if (any(greaterThanEqual(t, size))) return;
  vec2 largest = vec2(0.0);
  for (int y = max(t.y - DILATE, 0); y <= min(t.y + DILATE, size.y - 1); ++y)
    for (int x = max(t.x - DILATE, 0); x <= min(t.x + DILATE, size.x - 1); ++x) largest = max(largest, imageLoad(u_tiles, ivec2(x, y)).rg);
  imageStore(u_dilated, t, vec4(largest, 0.0, 1.0));
}

#elif DOF_PASS == 3
layout(local_size_x = TILE, local_size_y = TILE) in;
layout(binding = BINDING_SOURCE) uniform sampler2D u_half;
layout(rgba16f, binding = BINDING_IMAGE2) uniform restrict readonly image2D u_dilated;
layout(rgba32f, binding = BINDING_IMAGE3) uniform restrict readonly image2D u_table;
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_far;
layout(rgba16f, binding = BINDING_IMAGE4) uniform restrict writeonly image2D u_near;

// The table's row for a disk of radius `coc` full-resolution pixels.
int table_row(float coc) { return min(int(ceil(coc * 0.5)), imageSize(u_table).y - 1); }

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = textureSize(u_half, 0);
  if (any(greaterThanEqual(p, size))) return;  // no barrier follows
  float centre = texelFetch(u_half, p, 0).a;
  vec4 far = vec4(0.0), near = vec4(0.0);
  if (centre > 1.0) {
    int row = table_row(centre);
    int n = int(imageLoad(u_table, ivec2(0, row)).x);
    for (int k = 1; k <= n; ++k) {
      vec3 o = imageLoad(u_table, ivec2(k, row)).xyz;
      vec4 s = texelFetch(u_half, clamp(p + ivec2(o.xy), ivec2(0), size - 1), 0);
      float c = min(s.a, centre);
      if (c > 1.0) far += (ramp(c - 1.0) * cover(c, o.z) / (c * c)) * vec4(s.rgb, 1.0);
    }
  }
  float reach = imageLoad(u_dilated, p / TILE).r;
  if (reach > 1.0) {
    int row = table_row(reach);
    vec4 head = imageLoad(u_table, ivec2(0, row));
    int n = int(head.x);
    for (int k = 1; k <= n; ++k) {
      vec3 o = imageLoad(u_table, ivec2(k, row)).xyz;
      vec4 s = texelFetch(u_half, clamp(p + ivec2(o.xy), ivec2(0), size - 1), 0);
      float c = -s.a;
      if (c > 1.0) near += (ramp(c - 1.0) * cover(c, o.z) * min(1.0, head.y / (c * c))) * vec4(s.rgb, 1.0);
    }
  }
  imageStore(u_far, p, far);
  imageStore(u_near, p, near);
}

#else
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_frame;
layout(binding = BINDING_STAGE1) uniform sampler2D u_depth;
layout(binding = BINDING_STAGE2) uniform sampler2D u_far;
layout(binding = BINDING_STAGE3) uniform sampler2D u_near;
layout(rgba8, binding = BINDING_TARGET) uniform restrict writeonly image2D u_picture;

// A half-resolution field at full-resolution pixel p: half-resolution texel i covers pixels 2i and
// 2i + 1, so p's centre lies a quarter texel from one texel's centre: weights 3/4 and 1/4 a side.
vec4 upsampled(sampler2D field, ivec2 p) {
  ivec2 last = textureSize(field, 0) - 1;
  ivec2 a = clamp((p - 1) >> 1, ivec2(0), last), b = clamp(((p - 1) >> 1) + 1, ivec2(0), last);
  vec2 f = vec2((p.x & 1) == 0 ? 0.75 : 0.25, (p.y & 1) == 0 ? 0.75 : 0.25);
  return mix(mix(texelFetch(field, a, 0), texelFetch(field, ivec2(b.x, a.y), 0), f.x),
             mix(texelFetch(field, ivec2(a.x, b.y), 0), texelFetch(field, b, 0), f.x), f.y);
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_picture)))) return;
  vec3 shown = imageLoad(u_frame, p).rgb;
  float coc = u_pass.x + u_pass.y * texelFetch(u_depth, p, 0).r;
  vec4 far = upsampled(u_far, p), near = upsampled(u_near, p);
  if (far.a > 0.0) shown = mix(shown, far.rgb / far.a, ramp(coc - 1.0));
  if (near.a > 0.0) shown = mix(shown, near.rgb / near.a, min(near.a, 1.0));
  imageStore(u_picture, p, display_value(shown));
}
#endif
