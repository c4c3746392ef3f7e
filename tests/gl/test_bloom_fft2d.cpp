// bloom's 2D FFT convolution (fft-2d) on the headless device against the CPU's ground truth (the
// effect's own check: the layer within its stated tolerance, the composite within 1 LSB), on small
// HDR frames whose bright points sit at the corners and edges (where a padding that wraps shows);
// a Gaussian kernel image against the Gaussian PSF; the light a kernel spreads against the light
// it was given; and the typed refusals of what cannot serve a kernel image.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "blur/check.h"
#include "effects/bloom.h"
#include "effects/effect_pipeline.h"
#include "effects/registry.h"
#include "fixtures/image_bytes.h"
#include "gl/shader.h"
#include "gl_fixture.h"

namespace blurlab::test {
namespace {

namespace fs = std::filesystem;

constexpr glm::ivec2 kSize{48, 32};  // padded to 128 x 64

fs::path temp_file(const std::string& name, const std::string& bytes) {
  const fs::path dir = fs::temp_directory_path() / ("blurlab_fft2d_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
  return dir / name;
}

// Dim noise, and points of light up to 60 at the corners, the edges' middles and inside.
Image hdr_frame(unsigned seed) {
  Image image(kSize.x, kSize.y);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 0.2f);
  for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = i % 4 == 3 ? 1.0f : u(rng);
  const glm::ivec2 points[] = {{0, 0}, {kSize.x - 1, 0}, {0, kSize.y - 1}, {kSize.x - 1, kSize.y - 1}, {kSize.x / 2, 0},
                               {kSize.x - 1, kSize.y / 2}, {13, 9}, {30, 20}};
  int n = 0;
  for (glm::ivec2 p : points) {
    ++n;
    for (int c = 0; c < 3; ++c) image.at(p.x, p.y, c) = 20.0f + 10.0f * static_cast<float>((n + c) % 5);
  }
  return image;
}

struct BloomRun {
  std::optional<Refusal> refusal;
  EffectCheck check;
  Image output, layer;
};

// One program cache for the suite (its programs compile once), gone before the GL context is.
std::unique_ptr<gl::ProgramCache> g_programs;
gl::ProgramCache& programs() {
  if (!g_programs) g_programs = std::make_unique<gl::ProgramCache>(gl::ShaderSources::embedded());
  return *g_programs;
}

EffectSettings settings(const std::string& implementation, const std::string& psf, const std::string& intensity = "1") {
  EffectSettings s;
  s.implementation = implementation;
  s.values = resolve_effect(*find_effect("bloom"), {{"psf", psf}, {"intensity", intensity}});
  s.border = {BorderMode::Constant, {}};
  return s;
}

// One checked run, as the headless program's (bench/effect_measure.cpp): poisoned targets first.
BloomRun run_bloom(const EffectSettings& s, const Image& frame, int layer_slot = bloom::kFftLayerSlot) {
  const EffectInfo& bloom = *find_effect("bloom");
  EffectPipeline pipeline(programs(), gl_info().limits);
  BloomRun r;
  r.refusal = pipeline.configure(bloom, s, kSize);
  if (r.refusal) return r;
  gl::Texture color(kSize.x, kSize.y, gl::Format::rgba16f), depth(kSize.x, kSize.y, gl::Format::depth32f),
      output(kSize.x, kSize.y, gl::Format::rgba8);
  color.upload(frame);
  const float nan = std::nanf(""), poison[4] = {nan, nan, nan, nan}, magenta[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  pipeline.poison(poison);
  gl::fill(output, magenta);
  pipeline.run(color, depth, output);
  const Image color_pixels = color.download(), depth_pixels = depth.download();
  r.output = output.download();
  r.layer = pipeline.download(layer_slot);
  EffectReadback readback;
  readback.settings = &pipeline.settings();
  readback.size = kSize;
  readback.color = &color_pixels;
  readback.depth = &depth_pixels;
  readback.output = &r.output;
  readback.stage_texture = [&pipeline](int slot) { return pipeline.download(slot); };
  GroundTruths truths;
  r.check = bloom.check(readback, truths);
  return r;
}

// The check passes, the picture is within 1 LSB of the ground truth and the layer's RMS error is
// within 1e-3 of the truth's RMS: rgba16f stores it to 2^-11 (RMS about 2^-12 relative), the fp32
// FFTs add about 1e-6; a wrong spectrum, padding or scale is at least a percent.
void expect_exact(const BloomRun& r, const std::string& what) {
  ASSERT_FALSE(r.refusal) << what << ": " << r.refusal->reason;
  const StageCheck* failed = r.check.first_failure();
  EXPECT_FALSE(failed) << what << ": " << failed->stage << " " << failed->result.worst_text() << " (" << failed->tolerance.reason << ")";
  EXPECT_LE(r.check.fidelity.max_lsb, 1.0) << what;
  EXPECT_LE(r.check.fidelity.layer_rms_relative, 1e-3) << what;
}

class BloomFft2d : public GlTest {
 protected:
  static void TearDownTestSuite() { g_programs.reset(); }
};

// The shipped kernels, as the window offers them, and the star as large as the frame.
TEST_F(BloomFft2d, TheShippedStarMatchesTheGroundTruth) {
  const std::vector<std::string> shipped = bloom::shipped_kernel_psfs(assets_dir());
  ASSERT_EQ(shipped.size(), 2u);
  for (const std::string& psf : shipped) expect_exact(run_bloom(settings("fft-2d", psf), hdr_frame(6)), psf);
  const std::string star = assets_dir() + "/psf_star.png";
  expect_exact(run_bloom(settings("fft-2d", "image:" + star + "@100%"), hdr_frame(1)), "star at 100%");
  // The star's longer side at 50% of the frame's, and a soft-knee threshold (the prefilter in the rows pass).
  EffectSettings s = settings("fft-2d", "image:" + star + "@50%", "0.3");
  s.values["threshold"] = "2";
  s.values["knee"] = "1";
  expect_exact(run_bloom(s, hdr_frame(2)), "star at 50%, threshold 2, knee 1");
}

// Each channel spread by its own kernel, none symmetric: R to the right, G downwards, B along a
// diagonal (a coloured PSF's R and G share one transform and are taken apart in the spectrum).
TEST_F(BloomFft2d, AColouredKernelSpreadsEachChannelByItsOwn) {
  const int w = 9, h = 7;
  std::vector<std::string> rows;
  for (int y = 0; y < h; ++y) {
    std::string row;
    for (int x = 0; x < w; ++x) {
      const int r = y == 3 && x >= 4 ? 255 - 20 * (x - 4) : 0;
      const int g = x == 4 && y >= 3 ? 200 - 30 * (y - 3) : (x == 4 && y == 2 ? 40 : 0);
      const int b = x - 4 == y - 3 ? 120 + 10 * x : (x == 0 && y == 6 ? 255 : 0);
      row += static_cast<char>(r);
      row += static_cast<char>(g);
      row += static_cast<char>(b);
    }
    rows.push_back(row);
  }
  const fs::path file = temp_file("coloured.png", png_file(w, h, 8, 2, rows));
  expect_exact(run_bloom(settings("fft-2d", "image:" + file.string()), hdr_frame(3)), "coloured kernel 1:1");
}

// A Gaussian as a kernel image (the outer product of the exact variants' weights, 16 bits, 1:1)
// blooms as the Gaussian PSF does: by fft-2d, and by the fft variant, within 1 LSB of each other.
TEST_F(BloomFft2d, AGaussianKernelImageIsTheGaussianPsf) {
  const std::vector<double> w = kernel_weights(fidelity_kernel(2.5));
  const int n = static_cast<int>(w.size());
  std::vector<std::string> rows;
  for (int y = 0; y < n; ++y) {
    std::string row;
    for (int x = 0; x < n; ++x) row += be16(static_cast<uint32_t>(std::lround(w[static_cast<size_t>(x)] * w[static_cast<size_t>(y)] / (w[n / 2] * w[n / 2]) * 65535.0)));
    rows.push_back(row);
  }
  const fs::path file = temp_file("gauss.png", png_file(n, n, 16, 0, rows));
  const Image frame = hdr_frame(4);
  const BloomRun image = run_bloom(settings("fft-2d", "image:" + file.string()), frame);
  const BloomRun gaussian = run_bloom(settings("fft-2d", "gauss:2.5"), frame);
  const BloomRun variant = run_bloom(settings("fft", "gauss:2.5"), frame, bloom::kTermSlot);
  expect_exact(image, "Gaussian kernel image");
  expect_exact(gaussian, "Gaussian PSF by fft-2d");
  ASSERT_FALSE(variant.refusal) << variant.refusal->reason;
  EXPECT_TRUE(variant.check.ok());
  for (const BloomRun* other : {&gaussian, &variant}) {
    ReferenceImage picture{kSize.x, kSize.y, {}};
    for (float v : other->output.texels) picture.texels.push_back(v);
    const EffectFidelity f = picture_fidelity(image.output, picture);
    EXPECT_LE(f.max_lsb, 1.0) << (other == &variant ? "against the fft variant" : "against fft-2d's Gaussian PSF");
  }
}

// The light a kernel spreads is the light it was given: a point far from the edges, a disk kernel
// inside the frame; each channel's layer sums to the point's light (what no wrong normalisation of
// the kernel or scale of the spectrum keeps), and nothing is spread where the disk is not.
TEST_F(BloomFft2d, TheLayerHoldsTheLightItWasGiven) {
  Image frame(kSize.x, kSize.y);
  for (size_t i = 3; i < frame.texels.size(); i += 4) frame.texels[i] = 1.0f;
  const float light[3] = {40.0f, 10.0f, 25.0f};
  for (int c = 0; c < 3; ++c) frame.at(24, 16, c) = light[c];
  const std::string disk = assets_dir() + "/psf_disk.png";
  const BloomRun r = run_bloom(settings("fft-2d", "image:" + disk + "@40%"), frame);  // 19 px across
  ASSERT_FALSE(r.refusal) << r.refusal->reason;
  for (int c = 0; c < 3; ++c) {
    double total = 0.0, outside = 0.0;
    for (int y = 0; y < kSize.y; ++y)
      for (int x = 0; x < kSize.x; ++x) {
        total += r.layer.at(x, y, c);
        if (std::hypot(x - 24, y - 16) > 10.0) outside += std::abs(r.layer.at(x, y, c));
      }
    EXPECT_NEAR(total, light[c], 1e-3 * light[c]) << "channel " << c;  // rgba16f rounds each of ~300 texels to 2^-11
    EXPECT_LT(outside, 1e-4 * light[c]) << "channel " << c;
  }
}

// What cannot serve a kernel image says so, typed: the variants and the mip chain blur by
// Gaussians; fft-2d pads black and refuses another border.
TEST_F(BloomFft2d, WhatCannotServeAKernelImageRefusesIt) {
  const std::string disk = "image:" + assets_dir() + "/psf_disk.png@50%";
  for (const char* implementation : {"compute-separable", "fft", "dual-kawase", "mip-chain"}) {
    const BloomRun r = run_bloom(settings(implementation, disk), hdr_frame(5));
    ASSERT_TRUE(r.refusal) << implementation;
    EXPECT_EQ(r.refusal->limit, Limit::Kernel) << implementation << ": " << r.refusal->reason;
    EXPECT_NE(r.refusal->reason.find("fft-2d serves it"), std::string::npos) << r.refusal->reason;
  }
  EffectSettings clamp = settings("fft-2d", disk);
  clamp.border = {BorderMode::Clamp, {}};
  const BloomRun r = run_bloom(clamp, hdr_frame(5));
  ASSERT_TRUE(r.refusal);
  EXPECT_EQ(r.refusal->limit, Limit::Border) << r.refusal->reason;
}

}  // namespace
}  // namespace blurlab::test
