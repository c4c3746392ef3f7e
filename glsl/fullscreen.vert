#version 430 core
// One triangle that covers the viewport, from gl_VertexID alone (no vertex buffer):
// (-1,-1), (3,-1), (-1,3).
void main() {
  vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
