#version 430 core
// Two directional lights, Blinn-Phong highlights. With an rgba16f target the highlights exceed
// 1.0 (linear-light HDR); an rgba8 target clamps them. u_linear_light: the colours are sRGB
// code values, decoded here to linear light (clamped, as an rgba8 target would hold them), so the
// picture looks the same once encoded again. HDR defined (the HDR scene): the albedo decoded to
// linear, the lights in linear radiance, nothing clamped, and the emissive faces added.
#include "srgb.glsl"

in vec3 v_world;
in vec3 v_normal;
flat in vec3 v_albedo;
flat in vec3 v_emission;

uniform vec3 u_eye;
uniform bool u_linear_light;
layout(location = 0) out vec4 o_color;

void main() {
  vec3 n = normalize(v_normal);
  vec3 view = normalize(u_eye - v_world);
  const vec3 light_dir[2] = vec3[2](normalize(vec3(0.5, 0.8, 0.6)), normalize(vec3(-0.7, -0.2, 0.4)));
  const vec3 light_rgb[2] = vec3[2](vec3(1.0, 0.95, 0.85), vec3(0.25, 0.35, 0.6));
#ifdef HDR
  vec3 albedo = srgb_to_linear(v_albedo);
  vec3 color = 0.03 * albedo + v_emission;
  for (int i = 0; i < 2; ++i) {
    float diffuse = max(dot(n, light_dir[i]), 0.0);
    float specular = pow(max(dot(n, normalize(light_dir[i] + view)), 0.0), 48.0);
    color += 1.6 * light_rgb[i] * (albedo * diffuse + 4.0 * specular);
  }
  o_color = vec4(color, 1.0);
#else
  vec3 color = 0.08 * v_albedo;
  for (int i = 0; i < 2; ++i) {
    float diffuse = max(dot(n, light_dir[i]), 0.0);
    float specular = pow(max(dot(n, normalize(light_dir[i] + view)), 0.0), 48.0);
    color += light_rgb[i] * (v_albedo * diffuse + 3.0 * specular);
  }
  o_color = vec4(u_linear_light ? srgb_to_linear(color) : color, 1.0);
#endif
}
