#pragma once
// The shared-memory budget of the LDS variants (compute-naive-lds, compute-separable-lds,
// compute-inline-lds, compute-inline-persistent). Each variant states how many texels its one
// shared array holds (a function of the settings); the same number is check()'s formula and the
// shader's LDS_TEXELS define, which the shader checks against its own layout with #error.
// A texel is a vec4 (16 bytes) with cache fp32, or a uvec2 of packHalf2x16 (8 bytes) with fp16.
#include <string>

#include "blur/blur.h"

namespace blurlab::lds {

using Texels = int (*)(const BlurSettings& resolved);

// The precision of the shared-memory cache (CACHE_BITS in glsl/lds_common.glsl): fp16 halves
// the shared memory, and so lets larger tiles or radii fit, for fp16 rounding of what is cached.
inline Knob cache_knob(std::vector<int> candidates) {
  return {.name = knobs::kCache,
          .help = "Shared-memory cache precision: fp32, or fp16 (half the shared memory, fp16 rounding)",
          .define = "CACHE_BITS",
          .type = KnobType::Choice,
          .choices = {{"fp32", 32}, {"fp16", 16, 0x1p-10}},
          .candidates = integer_values(candidates)};
}
inline int cache_bits(const BlurSettings& s) { return s.knob(knobs::kCache).x; }

inline int texel_bytes(int cache_bits) { return cache_bits == 16 ? 8 : 16; }
inline int bytes(const BlurSettings& s, Texels texels) { return texels(s) * texel_bytes(cache_bits(s)); }

// The shared memory of `texels` cache texels (VariantInfo::shared_memory); `layout` says of what,
// e.g. "tile 48x48 fp32".
inline SharedMemory shared_memory(const BlurSettings& s, Texels texels, const std::string& layout) {
  return {static_cast<long long>(bytes(s, texels)), layout};
}

inline const char* cache_name(const BlurSettings& s) { return cache_bits(s) == 16 ? "fp16" : "fp32"; }

inline gl::Defines defines(const BlurSettings& s, Texels texels) { return {{"LDS_TEXELS", std::to_string(texels(s))}}; }

// The image texels one workgroup of a one-dispatch variant covers: by default its workgroup.
using Cover = glm::ivec2 (*)(const BlurSettings& resolved);
inline glm::ivec2 workgroup_cover(const BlurSettings& s) { return s.workgroup(); }

// Defines a variant adds to LDS_TEXELS (e.g. a kernel-specific code path); nullptr: none.
using Extra = gl::Defines (*)(const BlurSettings& resolved);

// A one-dispatch LDS variant: glsl/<file> blurs the source into the destination, timed as span
// `span`, one workgroup per cover(settings) texels of the image.
class OneDispatch final : public Blur {
 public:
  OneDispatch(const char* file, const char* span, Texels texels, Cover cover = workgroup_cover, Extra extra = nullptr)
      : file_(file), span_(span), texels_(texels), cover_(cover), extra_(extra) {}
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    gl::Defines all = defines(s, texels_);
    if (extra_)
      for (auto& define : extra_(s)) all.push_back(std::move(define));
    program_ = &setup.compute(file_, s.input_format, s.input_format, all);
  }
  void run(BlurPasses& passes) override {
    passes.dispatch(span_, *program_, {Binding::read(passes.source()), Binding::write(passes.destination())},
                    groups_covering(passes.size(), cover_(passes.settings())));
  }

 private:
  const char* file_;
  const char* span_;
  Texels texels_;
  Cover cover_;
  Extra extra_;
  const gl::Program* program_ = nullptr;
};

}  // namespace blurlab::lds
