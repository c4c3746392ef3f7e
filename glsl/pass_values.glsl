// pass_values.glsl: values of one pass that change from dispatch to dispatch of a program
// (BlurPasses::dispatch's and EffectPasses::dispatch's `pass`), e.g. a Kawase pass's offset, a
// bloom's intensity; only the shaders whose passes set them read them. An exported shader
// (BAKED_BORDER_VALUE) has them baked in where its pass has them, and no uniform.
#ifdef BAKED_PASS
const vec4 u_pass = BAKED_PASS;  // an exported pass (blurlab --export): its values baked in
#elif !defined(BAKED_BORDER_VALUE)
layout(location = 0) uniform vec4 u_pass;
#endif
