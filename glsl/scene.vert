#version 430 core
// The animated scene: rotating, lit icosahedra, a pure function of u_time. With HDR defined (the
// HDR scene, Scene::render_hdr) some of them glow: v_emission is a face's radiance, in linear
// light, up to MAX_EMISSION (Scene::kMaxEmission), else 0.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;

uniform float u_time;
uniform mat4 u_view_projection;

out vec3 v_world;
out vec3 v_normal;
flat out vec3 v_albedo;
flat out vec3 v_emission;

const int COLUMNS = 8;
const int ROWS = 5;

// Integer hash (lowbias32): the same bits on every GPU.
uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352dU;
  x ^= x >> 15; x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
float random01(uint seed) { return float(hash(seed) & 0xffffffU) / 16777215.0; }

mat3 rotation(vec3 axis, float angle) {
  float s = sin(angle), c = cos(angle), t = 1.0 - c;
  vec3 a = normalize(axis);
  return mat3(t * a.x * a.x + c,       t * a.x * a.y + s * a.z, t * a.x * a.z - s * a.y,
              t * a.x * a.y - s * a.z, t * a.y * a.y + c,       t * a.y * a.z + s * a.x,
              t * a.x * a.z + s * a.y, t * a.y * a.z - s * a.x, t * a.z * a.z + c);
}

vec3 hue(float h) {
  return clamp(abs(fract(h + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
}

void main() {
  uint id = uint(gl_InstanceID);
  int column = gl_InstanceID % COLUMNS;
  int row = gl_InstanceID / COLUMNS;
  vec3 axis = vec3(random01(id * 3U), random01(id * 3U + 1U), random01(id * 3U + 2U)) * 2.0 - 1.0 + vec3(0.0, 0.1, 0.0);
  float speed = 0.4 + 1.2 * random01(id + 101U);
  float bob = 0.15 * sin(u_time * (0.7 + random01(id + 202U)) + float(id));
  vec3 centre = vec3((float(column) - (COLUMNS - 1) * 0.5) * 1.25,
                     (float(row) - (ROWS - 1) * 0.5) * 1.25 + bob,
                     -1.5 * random01(id + 303U));
  mat3 spin = rotation(axis, u_time * speed + float(id));
  float scale = 0.45 + 0.2 * random01(id + 404U);
  v_world = centre + spin * (a_position * scale);
  v_normal = spin * a_normal;
  v_albedo = mix(hue(random01(id + 505U)), vec3(1.0), 0.15);
  v_emission = vec3(0.0);
#ifdef HDR
  // One icosahedron in four glows on five of its faces (every fourth face from a per-instance
  // start), at a radiance from 6 to 100 that pulses with time: small lights for bloom to spread.
  const float MAX_EMISSION = 100.0;
  int face = gl_VertexID / 3;
  if (random01(id + 606U) < 0.25 && (face + int(id)) % 4 == 0) {
    float level = mix(6.0, MAX_EMISSION, random01(id + 707U)) * (0.8 + 0.2 * sin(u_time * 1.7 + float(id)));
    v_emission = level * mix(hue(random01(id + 808U)), vec3(1.0), 0.35);
  }
#endif
  gl_Position = u_view_projection * vec4(v_world, 1.0);
}
