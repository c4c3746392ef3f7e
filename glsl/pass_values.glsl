// pass_values.glsl: values of one pass that change from dispatch to dispatch of a program
// (BlurPasses::dispatch's and EffectPasses::dispatch's `pass`), e.g. a Kawase pass's offset, a
// bloom's intensity; only the shaders whose passes set them read them.
#ifdef BAKED_PASS
const vec4 u_pass = BAKED_PASS;  // an exported pass (blurlab --export): its values baked in
#else
layout(location = 0) uniform vec4 u_pass;
#endif
