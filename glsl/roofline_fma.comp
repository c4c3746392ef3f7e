#version 430 core
// roofline_fma: the device's fp32 FMA rate. Each invocation runs ITERATIONS steps of CHAINS
// independent vec4 chains a = a * m + c (4 fused multiply-adds each; independent chains hide the
// latency), with m and c uniforms so nothing folds, and stores the sum so nothing is dropped.
layout(local_size_x = 256) in;
layout(std430, binding = BINDING_SINK) writeonly buffer Sink { vec4 sink[]; };
uniform vec4 u_m;
uniform vec4 u_c;

const int CHAINS = 8;

void main() {
  vec4 a[CHAINS];
  for (int i = 0; i < CHAINS; ++i) a[i] = vec4(gl_GlobalInvocationID.x + uint(i));
  for (int n = 0; n < ITERATIONS; ++n)
    for (int i = 0; i < CHAINS; ++i) a[i] = fma(a[i], u_m, u_c);
  vec4 sum = vec4(0.0);
  for (int i = 0; i < CHAINS; ++i) sum += a[i];
  sink[gl_GlobalInvocationID.x] = sum;
}
