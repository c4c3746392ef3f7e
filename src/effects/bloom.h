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
// sums its bloom's Gaussians), each sigma in pixels or in percent of the frame's height; or a kernel
// image (a lens's star, streaks, skirt: anything), served by the 2D FFT convolution (fft-2d).
#include <memory>
#include <optional>
#include <span>
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

// A kernel image as read (psf image:FILE): an 8- or 16-bit grey or RGB PNG, its values k / max
// taken as linear weights (a PSF is data, not a picture: no sRGB decoding). bloom_kernel_image.cpp.
struct KernelImage {
  std::string path;
  int width = 0, height = 0;
  int channels = 1;  // 1 grey, 3 RGB
  int bits = 8;
  std::vector<double> rgb;  // width x height x 3, row 0 at the top (grey: three equal values)
};

// The kernel image as the PSF: its centre is the origin, its pixels are the frame's (no `percent`)
// or it is resampled so that its longer side spans `percent` of the frame's longer side (aspect
// kept), each frame pixel taking the light of the part of the image it covers (the image's
// pixels as squares of constant light, integrated: area resampling, up or down); then each channel
// is normalised to a sum of 1 (coloured PSFs spread each channel by its own kernel).
struct PsfImage {
  std::shared_ptr<const KernelImage> file;
  std::optional<double> percent;
};

// A kernel on the frame's pixels: (2 rx + 1) x (2 ry + 1) weights per channel, the origin at
// (rx, ry), each channel summing to 1.
struct FrameKernel {
  int rx = 0, ry = 0;
  std::vector<double> rgb;  // (2 rx + 1) (2 ry + 1) x 3, row 0 at the top (offset -ry)
  int width() const { return 2 * rx + 1; }
  int height() const { return 2 * ry + 1; }
  double at(int x, int y, int c) const { return rgb[(static_cast<size_t>(y) * width() + x) * 3 + c]; }
};

struct Config {
  double intensity = 0.0;
  double threshold = 0.0;  // 0: no threshold, P = H
  double knee = 0.0;       // the soft knee's half width, 0 <= knee <= threshold
  std::vector<PsfTerm> psf;        // a Gaussian or a sum of them; empty for a kernel image
  std::optional<PsfImage> image;   // the kernel image, if the PSF is one
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

// The kernel image of `path`, read and checked once per run (later calls return the first read):
// throws Error (one line, with the numbers) for a file that is not an 8- or 16-bit grey or RGB PNG
// or whose values are all 0.
std::shared_ptr<const KernelImage> load_kernel_image(const std::string& path);
// The kernel images blurlab ships (assets/, made by docs/tools/psf_kernels.py), as --psf values at
// the scale each is meant for, for whoever switches among them (the window's kernel key): those of
// `assets` that exist, in a fixed order. They are served by fft-2d, with --border constant.
std::vector<std::string> shipped_kernel_psfs(const std::string& assets);
// The kernel on the pixels of a frame of `size`: resampled (PsfImage) and normalised; throws
// UsageError for a channel with no light after resampling.
FrameKernel frame_kernel(const PsfImage& image, glm::ivec2 size);
// A Gaussian PSF (its terms) as a kernel on the frame's pixels: the sum of the terms' 2D kernels,
// each the outer product of the exact variants' weights (fidelity_kernel), as the variants blur.
FrameKernel gaussian_frame_kernel(const std::vector<PsfTerm>& terms);
// The kernel of the PSF, whichever it is.
FrameKernel psf_kernel(const Config& c, glm::ivec2 size);
// The linear convolution of `light` with `kernel`, black outside the frame (light beyond its edge
// neither enters nor is kept), in double precision by FFTs of double complex values (pow2 sizes
// holding the frame and the kernel's reach: no wrap). Alpha is 1.
ReferenceImage convolve_black(const ReferenceImage& light, const FrameKernel& kernel);
// The same by its definition, a sum over every tap (small frames and kernels only: the FFT's check).
ReferenceImage convolve_black_direct(const ReferenceImage& light, const FrameKernel& kernel);

// The 2D FFT convolution (bloom_fft2d.cpp): its implementation, the padded size it transforms a
// frame in (each side the next power of two of the side plus half the frame's longer side, so that
// any kernel up to the frame's longer side, at any scale up to 100%, fits without wrapping: the
// cost depends on the frame alone), its bound and its memory.
inline constexpr std::string_view kFft2d = "fft-2d";
std::unique_ptr<Effect> create_fft2d();
// The binding units of its own that its shader declares beside gl/bindings.h's generic ones.
std::span<const gl::NamedUnit> fft2d_slots();
glm::ivec2 fft2d_padded_size(glm::ivec2 frame);
// Why a kernel of (rx, ry) does not fit a frame of `size` (its reach past the padding), or nullopt.
std::optional<std::string> fft2d_kernel_problem(int rx, int ry, glm::ivec2 size);
WorkBound fft2d_bound(glm::ivec2 size);
// The bytes fft-2d holds for a frame of `size` (GPU textures at their peak) and its ground truth
// (CPU buffers of double complex values).
double fft2d_memory_bytes(glm::ivec2 size, const FrameKernel& kernel);
struct Fft2dCheck {
  std::vector<StageCheck> stages;
  ReferenceImage layer;  // the layer the GPU made (as the composite reads it)
};
Fft2dCheck check_fft2d(const EffectReadback& run, const Config& c, const ReferenceImage& light, const ReferenceImage& truth_layer);
std::string describe_fft2d(const EffectSettings& settings, glm::ivec2 size);

// Texture slots of the effect's stages (EffectPasses::texture).
inline constexpr int kPrefilteredSlot = 0;
inline constexpr int kTermSlot = 1;          // 1..kMaxTerms: each term's blur
inline constexpr int kDownSlot = 10;         // the mip chain's levels 1..: kDownSlot + level
inline constexpr int kUpSlot = 40;           // and its upsampled sums: kUpSlot + level
inline constexpr int kFftLinesSlot = 60;     // fft-2d: the frame's rows transformed, then its columns (in place)
inline constexpr int kFftLayerSlot = 61;     // fft-2d: the layer, inverse-transformed

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
