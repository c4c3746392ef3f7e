#version 430 core
// roofline_bilinear: the device's rate of bilinear texture fetches. Each invocation issues FETCHES
// fetches through a linear sampler (REPEAT), each on the corner of four texels so it blends all
// four, walking an 8-texel-wide window next to its neighbours' in a texture small enough to stay
// in cache: the texture units' filtering, not memory, limits it. The sum is stored so nothing is
// dropped.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = BINDING_ROOFLINE_TEXTURE) uniform sampler2D u_tex;
layout(std430, binding = BINDING_SINK) writeonly buffer Sink { vec4 sink[]; };

void main() {
  vec2 inv_size = 1.0 / vec2(textureSize(u_tex, 0));
  vec2 corner = vec2(gl_GlobalInvocationID.xy) + 1.0;  // texel centres at k + 1/2: a corner at integers
  vec4 sum = vec4(0.0);
  for (int i = 0; i < FETCHES; ++i) sum += textureLod(u_tex, (corner + vec2(i & 7, i >> 3)) * inv_size, 0.0);
  sink[gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x + gl_GlobalInvocationID.x] = sum;
}
