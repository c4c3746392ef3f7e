#pragma once
// Bloom: the light a lens and its sensor spread around bright points, the effect where blur
// approximations live. What bloom.cpp (the effect, its ground truth, the variants as its blur
// stage) and bloom_mip_chain.cpp (the engines' mip chain) share.
//
// The picture it ships, for an HDR frame H (linear radiance):
//   P = prefilter(H)                 the light that blooms: all of it, or above a soft-knee threshold
//   L = P (*) PSF                    the bloom layer: P spread by the point-spread function
//   out = display(H + k (L - P))     k = intensity in [0, 1]; display: tonemap, sRGB (effects/tonemap.h)
// Energy-conserving: the fraction k of the light that blooms is taken from where it is and spread
// by the PSF, whose weights sum to 1, so the frame's light is unchanged (up to what the border
// rule lets in or out); with the threshold off, out = display((1 - k) H + k H (*) PSF).
// The PSF is a Gaussian of sigma or a sum of Gaussians (weights and sigmas as data, the way Unreal
// sums its bloom's Gaussians), each sigma in pixels or in percent of the frame's height.
#include <string>
#include <vector>

#include "blur/border.h"
#include "blur/reference.h"
#include "effects/effect.h"
#include "image/image.h"

namespace blurlab::bloom {

// The most Gaussians a PSF sums (Unreal's bloom has six).
inline constexpr int kMaxTerms = 6;

struct PsfTerm {
  double weight = 1.0;  // normalised: the terms' weights sum to 1
  double sigma = 1.0;   // pixels, for the frame's size
};

struct Config {
  double intensity = 0.0;
  double threshold = 0.0;  // 0: no threshold, P = H
  double knee = 0.0;       // the soft knee's half width, 0 <= knee <= threshold
  std::vector<PsfTerm> psf;
  bool prefiltered() const { return threshold > 0.0; }
};

// The parameters' values as numbers for a frame of `size`; throws UsageError (one line, with the
// numbers) on a value out of range.
Config config(const EffectValues& values, glm::ivec2 size);

// The soft-knee prefilter of one pixel's radiance (r, g, b), the same formula as
// glsl/effects/bloom.comp: the brightest channel b decides the fraction kept,
// max(q, b - threshold) / b with q the knee's quadratic, clamp(b - threshold + knee, 0, 2 knee)^2 /
// (4 knee); 0 where b is 0. Without a threshold every pixel is kept whole.
double prefilter_fraction(double r, double g, double b, const Config& c);
ReferenceImage prefilter(const Image& frame, const Config& c);
// out = display(H + k (L - P)) per channel (R, G, B; alpha 1), in [0, 1].
ReferenceImage composite(const Image& frame, const ReferenceImage& prefiltered, const ReferenceImage& layer, const Config& c);
// The ground truth's layer: the exact convolution of `prefiltered` with the PSF, each Gaussian
// term the exact variants' kernel of its sigma (fidelity_kernel), the border rule applied.
ReferenceImage exact_layer(const ReferenceImage& prefiltered, const Config& c, const Border& border);

// Texture slots of the effect's stages (EffectPasses::texture).
inline constexpr int kPrefilteredSlot = 0;
inline constexpr int kTermSlot = 1;          // 1..kMaxTerms: each term's blur
inline constexpr int kDownSlot = 10;         // the mip chain's levels 1..: kDownSlot + level
inline constexpr int kUpSlot = 40;           // and its upsampled sums: kUpSlot + level

// The mip chain (bloom_mip_chain.cpp): its implementation, and its check (its stages against its
// CPU model) with the layer the composite made from it.
inline constexpr std::string_view kMipChain = "mip-chain";
std::unique_ptr<Effect> create_mip_chain();
// What the chain runs for a PSF on a frame: its levels' sizes (level 0, the frame, .. L), the
// weights of the light itself and of each level's sum (a_0 .. a_L: >= 0, summing to 1) and the
// tent's scale, as fitted (bloom_mip_chain.cpp).
struct MipChainPlan {
  std::vector<glm::ivec2> sizes;
  std::vector<double> weights;
  double tent_scale = 1.0;
  int levels() const { return static_cast<int>(sizes.size()) - 1; }
};
MipChainPlan mip_chain_plan(const Config& c, glm::ivec2 size);
struct ChainCheck {
  std::vector<StageCheck> stages;
  ReferenceImage layer;  // the layer the GPU's chain made (its last level as the composite reads it)
};
// `blooming`: the chain's level 0 as the GPU stored it; `light`: the light that blooms, in double.
ChainCheck check_mip_chain(const EffectReadback& run, const Config& c, const Image& blooming, const ReferenceImage& light);
std::string describe_mip_chain(const EffectSettings& settings, glm::ivec2 size);

}  // namespace blurlab::bloom
