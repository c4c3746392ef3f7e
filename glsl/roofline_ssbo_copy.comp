#version 430 core
// roofline_ssbo_copy: the device's buffer copy bandwidth, one uvec4 (16 bytes) per invocation.
layout(local_size_x = 256) in;
layout(std430, binding = BINDING_BUFFER_SOURCE) readonly buffer Source { uvec4 source[]; };
layout(std430, binding = BINDING_BUFFER_TARGET) writeonly buffer Target { uvec4 target[]; };

void main() {
  uint i = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * 256u) + gl_GlobalInvocationID.x;
  if (i < uint(source.length())) target[i] = source[i];
}
