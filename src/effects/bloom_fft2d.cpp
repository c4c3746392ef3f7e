// bloom's 2D FFT convolution (fft-2d): the light that blooms convolved with a kernel of any shape
// (a kernel image: a lens's star, its skirt; or a Gaussian PSF's 2D kernel) exactly, through the 2D
// spectrum, in fp32 complex (glsl/effects/bloom_fft2d.comp says the passes):
//   rows      the frame's H rows, prefiltered, transformed forward (NX points each)
//   columns   the NX columns (NY points each) forward, times the kernel's spectrum, back: in place
//   inverse rows   the H rows back, the frame's W columns stored as the layer (rgba16f)
//   composite bloom.comp's, of the layer
// The kernel's spectrum is made the same way (its rows, then its columns forward, the channels
// taken apart and divided by NX NY) once per size and PSF, on the first frame, and kept.
// Padding: black. A lens sees nothing beyond the frame's edge, so no light enters from there and
// the light spread past the edge is gone; the grid is NX = the next power of two of W + the reach
// and NY of H + the reach, the reach being half the frame's longer side: the zeros past the frame
// then hold a kernel up to the frame's longer side (its radius) without any of it wrapping onto
// the frame, whatever the kernel's scale, so the cost depends on the frame's size alone. The
// border rule of the other implementations is then black: fft-2d runs with --border constant
// (value 0), and refuses another border.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "blur/model.h"
#include "effects/bloom.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::bloom {

namespace {

// Its binding units beside the generic ones (gl/bindings.h): the kernel's spectrum, in two parts.
constexpr gl::NamedUnit kSpectrumA{"SPECTRUM", 2, gl::kImageUnit};
constexpr gl::NamedUnit kSpectrumB{"SPECTRUM2", 3, gl::kImageUnit};
constexpr std::array kFft2dSlots{kSpectrumA, kSpectrumB};

// What one pass's workgroups take: LINES lines of N points; WG invocations (at most 1024, the
// least GL 4.3 guarantees) of P = LINES N / WG points each (whole radix-8 butterflies); each
// round through shared memory moves COMPONENTS of a point's 4 floats, within 32 KiB (llvmpipe's
// GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, and within every GPU's 48 KiB).
constexpr int kMaxInvocations = 1024;
constexpr int kSharedBytes = 32768;
constexpr int kRadix = 8;
constexpr int kMinPoints = 8;

int pow2_at_least(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}
int log2_of(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

struct LinePlan {
  int points = 0, lines = 1, workgroup = 1, components = 0;
  gl::Defines defines() const {
    return {{"FFT_N", std::to_string(points)}, {"FFT_LOG2", std::to_string(log2_of(points))}, {"FFT_RADIX", std::to_string(kRadix)},
            {"LINES", std::to_string(lines)}, {"WG_X", std::to_string(workgroup)}, {"COMPONENTS", std::to_string(components)}};
  }
};

LinePlan line_plan(int points, int lines) {
  LinePlan p;
  p.points = points;
  p.lines = lines;
  p.workgroup = std::min(lines * points / kRadix, kMaxInvocations);
  const long long per_float = 4LL * lines * points;
  p.components = per_float > kSharedBytes ? 0 : static_cast<int>(std::min<long long>(4, kSharedBytes / per_float));
  if (p.components == 3) p.components = 2;
  return p;
}

// Rows: one a workgroup; columns: a column and its mirror.
LinePlan row_plan(glm::ivec2 padded) { return line_plan(padded.x, 1); }
LinePlan column_plan(glm::ivec2 padded) { return line_plan(padded.y, 2); }

// The kept spectrum: columns 0 .. NX / 2 (the others are their mirrors' conjugates).
glm::ivec2 spectrum_size(glm::ivec2 padded) { return {padded.x / 2 + 1, padded.y}; }

bool black(const Border& b) { return b.mode == BorderMode::Constant && b.value[0] == 0.0f && b.value[1] == 0.0f && b.value[2] == 0.0f; }

// The L2 norm of each channel of the light, the largest: what the FFTs' rounding scales with.
double largest_channel_norm(const ReferenceImage& light) {
  double norm[3] = {0.0, 0.0, 0.0};
  for (size_t i = 0; i < light.texels.size(); i += 4)
    for (int c = 0; c < 3; ++c) norm[c] += light.texels[i + static_cast<size_t>(c)] * light.texels[i + static_cast<size_t>(c)];
  return std::sqrt(std::max({norm[0], norm[1], norm[2]}));
}

glm::vec4 bloom_pass_values(const Config& c) {
  return {static_cast<float>(c.intensity), static_cast<float>(c.threshold), static_cast<float>(c.knee), 0.0f};
}

std::string kernel_text(const Config& c, const FrameKernel& k) {
  std::string what;
  if (c.image) {
    what = "kernel image " + single_line(c.image->file->path) + (c.image->percent ? " at " + format_double(*c.image->percent) + "%" : std::string(" 1:1"));
  } else {
    what = c.psf.size() == 1 ? "Gaussian" : "sum of " + std::to_string(c.psf.size()) + " Gaussians";
  }
  return what + " (" + std::to_string(k.width()) + "x" + std::to_string(k.height()) + " px)";
}

class Fft2dBloom final : public Effect {
 public:
  std::optional<Refusal> prepare(EffectSetup& setup) override {
    const EffectSettings& s = setup.settings();
    const glm::ivec2 size = setup.size();
    if (!black(s.border))
      return Refusal{Limit::Border, "fft-2d pads the frame with black, as a lens sees nothing beyond its edge: it runs with --border constant "
                                    "(value 0) only (given " + describe(s.border) + ")"};
    config_ = config(s.values, size);
    kernel_ = psf_kernel(config_, size);
    if (const auto problem = fft2d_kernel_problem(kernel_.rx, kernel_.ry, size)) return Refusal{Limit::Reach, *problem,
                                                                                               static_cast<double>(std::max(kernel_.rx, kernel_.ry)),
                                                                                               static_cast<double>(std::max(fft2d_padded_size(size).x - size.x, fft2d_padded_size(size).y - size.y))};
    padded_ = fft2d_padded_size(size);
    const LinePlan rows = row_plan(padded_), columns = column_plan(padded_);
    for (const LinePlan* p : {&rows, &columns})
      if (p->components == 0)
        return Refusal{Limit::SharedMemory,
                       "a workgroup's " + std::to_string(p->lines) + " line(s) of " + std::to_string(p->points) + " points take " +
                           std::to_string(4 * p->lines * p->points) + " bytes of shared memory a float, above the " + std::to_string(kSharedBytes) +
                           " fft-2d keeps to (the frame " + size_text(size) + " pads to " + size_text(padded_) + ")",
                       4.0 * p->lines * p->points, static_cast<double>(kSharedBytes)};
    const gl::GlLimits& limits = setup.limits();
    if (std::max(padded_.x, padded_.y) > limits.max_texture_size)
      return Refusal{Limit::TextureSize, "the padded grid " + size_text(padded_) + " is above GL_MAX_TEXTURE_SIZE " + std::to_string(limits.max_texture_size),
                     static_cast<double>(std::max(padded_.x, padded_.y)), static_cast<double>(limits.max_texture_size)};
    if (std::max(rows.workgroup, columns.workgroup) > limits.max_compute_invocations)
      return Refusal{Limit::Invocations, "a workgroup of " + std::to_string(std::max(rows.workgroup, columns.workgroup)) +
                                             " invocations is above GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS " +
                                             std::to_string(limits.max_compute_invocations),
                     static_cast<double>(std::max(rows.workgroup, columns.workgroup)), static_cast<double>(limits.max_compute_invocations)};
    const auto program = [&](const LinePlan& plan, gl::Defines extra) {
      gl::Defines d = plan.defines();
      d.insert(d.end(), extra.begin(), extra.end());
      for (auto& define : gl::slot_defines(kFft2dSlots)) d.push_back(std::move(define));
      return &setup.compute("effects/bloom_fft2d.comp", d);
    };
    const std::string prefilter = config_.prefiltered() ? "1" : "0";
    const std::string nx = std::to_string(padded_.x);
    rows_ = program(rows, {{"FFT2D_PASS", "0"}, {"SOURCE_FORMAT", "rgba16f"}, {"PREFILTER", prefilter}});
    kernel_rows_ = program(rows, {{"FFT2D_PASS", "0"}, {"SOURCE_FORMAT", "rgba32f"}, {"PREFILTER", "0"}});
    columns_ = program(columns, {{"FFT2D_PASS", "1"}, {"FFT_NX", nx}, {"SPECTRUM", "0"}, {"PREFILTER", "0"}});
    kernel_columns_ = program(columns, {{"FFT2D_PASS", "1"}, {"FFT_NX", nx}, {"SPECTRUM", "1"}, {"PREFILTER", "0"}});
    inverse_rows_ = program(rows, {{"FFT2D_PASS", "2"}, {"PREFILTER", "0"}});
    composite_ = &setup.compute("effects/bloom.comp", {{"BLOOM_PASS", "1"}, {"PREFILTER", prefilter}, {"TERMS", "1"}, {"WEIGHT1", "1.0"}});
    rows_plan_ = rows;
    spectrum_ready_ = false;  // a new size, PSF or program: made again on the next frame
    return std::nullopt;
  }

  void run(EffectPasses& p) override {
    const glm::ivec2 size = p.size();
    if (!spectrum_ready_) make_spectrum(p);
    const gl::Texture& lines = p.texture(kFftLinesSlot, gl::Format::rgba32f, {padded_.x, size.y}, "fft-2d lines");
    const gl::Texture& layer = p.texture(kFftLayerSlot, gl::Format::rgba16f, size, "fft-2d layer");
    const int row_groups = (size.y + rows_plan_.lines - 1) / rows_plan_.lines;
    p.dispatch("rows", *rows_, {Binding::read(p.color()), Binding::write(lines)}, {{row_groups, 1, 1}, "H x 1 x 1"}, bloom_pass_values(config_));
    p.dispatch("columns", *columns_,
               {Binding::read_write(lines, gl::Unit::Source), Binding::read(spectrum_a_, kSpectrumA), Binding::read(spectrum_b_, kSpectrumB)},
               {{padded_.x / 2, 1, 1}, "NX / 2 x 1 x 1"}, glm::vec4(0.0f));
    p.dispatch("inverse rows", *inverse_rows_, {Binding::read(lines), Binding::write(layer)}, {{row_groups, 1, 1}, "H x 1 x 1"});
    p.dispatch("composite", *composite_, {Binding::read(p.color()), Binding::write(p.output()), Binding::sampled(layer, gl::Unit::Stage1)},
               groups_covering(size, {16, 16}), bloom_pass_values(config_));
  }

 private:
  // The kernel's spectrum, kept in textures of this implementation's own (not the pipeline's
  // slots, which a check poisons before its run: the spectrum is made once, not every frame).
  void make_spectrum(EffectPasses& p) {
    Image kernel(kernel_.width(), kernel_.height());
    for (int y = 0; y < kernel.height; ++y)
      for (int x = 0; x < kernel.width; ++x)
        for (int c = 0; c < 3; ++c) kernel.at(x, y, c) = static_cast<float>(kernel_.at(x, y, c));
    gl::Texture kernel_texture(kernel.width, kernel.height, gl::Format::rgba32f, "fft-2d kernel");
    kernel_texture.upload(kernel);
    gl::Texture kernel_lines(padded_.x, kernel.height, gl::Format::rgba32f, "fft-2d kernel rows");
    const glm::ivec2 half = spectrum_size(padded_);
    spectrum_a_ = gl::Texture(half.x, half.y, gl::Format::rgba32f, "fft-2d spectrum (A1, K_B)");
    spectrum_b_ = gl::Texture(half.x, half.y, gl::Format::rgba32f, "fft-2d spectrum (B1)");
    p.dispatch("kernel rows", *kernel_rows_, {Binding::read(kernel_texture), Binding::write(kernel_lines)}, {{kernel.height, 1, 1}},
               glm::vec4(0.0f, 0.0f, 0.0f, static_cast<float>(kernel_.rx)));
    p.dispatch("kernel columns", *kernel_columns_,
               {Binding::read(kernel_lines), Binding::write(spectrum_a_, kSpectrumA), Binding::write(spectrum_b_, kSpectrumB)},
               {{padded_.x / 2, 1, 1}}, glm::vec4(static_cast<float>(kernel_.ry), 0.0f, 0.0f, 0.0f));
    spectrum_ready_ = true;
  }

  Config config_;
  FrameKernel kernel_;
  glm::ivec2 padded_{0, 0};
  LinePlan rows_plan_;
  const gl::Program* rows_ = nullptr;
  const gl::Program* kernel_rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
  const gl::Program* kernel_columns_ = nullptr;
  const gl::Program* inverse_rows_ = nullptr;
  const gl::Program* composite_ = nullptr;
  gl::Texture spectrum_a_, spectrum_b_;
  bool spectrum_ready_ = false;
};

}  // namespace

std::span<const gl::NamedUnit> fft2d_slots() { return kFft2dSlots; }

std::unique_ptr<Effect> create_fft2d() { return std::make_unique<Fft2dBloom>(); }

glm::ivec2 fft2d_padded_size(glm::ivec2 frame) {
  const int reach = (std::max(frame.x, frame.y) + 1) / 2;
  return {std::max(kMinPoints, pow2_at_least(frame.x + reach)), std::max(kMinPoints, pow2_at_least(frame.y + reach))};
}

std::optional<std::string> fft2d_kernel_problem(int rx, int ry, glm::ivec2 size) {
  const glm::ivec2 padded = fft2d_padded_size(size);
  const int room_x = padded.x - size.x, room_y = padded.y - size.y;
  if (rx <= room_x && ry <= room_y) return std::nullopt;
  return "the kernel (" + std::to_string(2 * rx + 1) + "x" + std::to_string(2 * ry + 1) + " px on the frame, reach " + std::to_string(rx) + ", " +
         std::to_string(ry) + ") is larger than fft-2d's padding of " + size_text(size) + " to " + size_text(padded) + " holds (reach " +
         std::to_string(room_x) + ", " + std::to_string(room_y) + " at most): it would wrap across the frame; scale it down (image:FILE@P%)";
}

// The least its passes move and compute (per frame; the kernel's spectrum is made once per size):
//   rows           reads the frame (W H rgba16f), writes NX H rgba32f
//   columns        reads and writes NX H rgba32f (in place), reads the spectrum, 2 (NX / 2 + 1) NY rgba32f
//   inverse rows   reads NX H rgba32f, writes the layer (W H rgba16f)
//   composite      reads the frame and the layer, writes the picture (W H rgba8)
// fp32 operations (an FMA or an add one each): a transform of N points of one complex value costs
// 3.5 N log2 N (fft.cpp's count: a radix-8 step is 84 operations per 8 points over 3 levels, a
// radix-4 or 2 step no more per level); each point holds two complex values (R + iG, B); rows are
// transformed forward and back (H lines each way), columns both ways in one pass (NX lines); the
// product costs 14 a point (a: two complex products and an add, 10; b: one product, 4). The
// prefilter and the composite's arithmetic are not counted.
WorkBound fft2d_bound(glm::ivec2 size) {
  const glm::ivec2 n = fft2d_padded_size(size), half = spectrum_size(n);
  const double w = size.x, h = size.y, nx = n.x, ny = n.y;
  const double lines_bytes = nx * h * 16.0;
  WorkBound b;
  b.bytes = (w * h * 8.0 + lines_bytes) + (2.0 * lines_bytes + 2.0 * half.x * half.y * 16.0) + (lines_bytes + w * h * 8.0) + w * h * (8.0 + 8.0 + 4.0);
  const double row_transform = 3.5 * nx * log2_of(n.x), column_transform = 3.5 * ny * log2_of(n.y);
  b.fmas = 2.0 * (2.0 * h * row_transform) + 2.0 * (2.0 * nx * column_transform) + 14.0 * nx * ny;
  return b;
}

double fft2d_memory_bytes(glm::ivec2 size, const FrameKernel& kernel) {
  const glm::ivec2 n = fft2d_padded_size(size), half = spectrum_size(n);
  const double gpu = static_cast<double>(n.x) * size.y * 16.0 + static_cast<double>(size.x) * size.y * 8.0 + 2.0 * half.x * half.y * 16.0 +
                     static_cast<double>(kernel.width()) * kernel.height() * 16.0 + static_cast<double>(n.x) * kernel.height() * 16.0;
  // The ground truth (convolve_black): two grids of double complex values, at most the padded size.
  const double truth = 2.0 * n.x * n.y * 16.0;
  return gpu + truth;
}

// The layer against the ground truth's (double, from the exact prefiltered light): fp32 FFTs
// round each value about 4 times a level (a twiddle product and the adds), log2(NX NY) levels
// each way, and their error spreads over the whole grid: in L2 it is at most about 8 x 2^-24 x
// log2(NX NY) x the light's L2 norm (a channel's), for the frame's transforms and as much for the
// kernel's spectrum (whose error reaches the output through |P^| <= the light's L1 norm, no more);
// one texel can carry all of it. Then the layer is stored in rgba16f (GL's float-to-half may
// truncate: 2^-10 relative).
Fft2dCheck check_fft2d(const EffectReadback& run, const Config& /*c*/, const ReferenceImage& light, const ReferenceImage& truth_layer) {
  const glm::ivec2 n = fft2d_padded_size(run.size);
  const double levels = log2_of(n.x) + log2_of(n.y);
  const Tolerance t{.lsb = false, .relative = std::ldexp(1.0, -10) + 1e-6,
                    .absolute = 16.0 * std::ldexp(1.0, -24) * levels * largest_channel_norm(light) + 1e-7,
                    .reason = "fp32 2D FFTs (8 x 2^-24 x log2(NX NY) x the light's L2 norm, frame and kernel) stored in rgba16f (2^-10 relative)"};
  Fft2dCheck result;
  const Image layer = run.stage_texture(kFftLayerSlot);
  ReferenceImage truth = truth_layer;  // its R, G and B; the layer's alpha is 1 (the composite reads none)
  for (size_t i = 3; i < truth.texels.size(); i += 4) truth.texels[i] = 1.0;
  result.stages.push_back({"layer", compare_to_reference(layer, truth, t), t});
  result.layer = model::from_image(layer);
  return result;
}

std::string describe_fft2d(const EffectSettings& settings, glm::ivec2 size) {
  const Config c = config(settings.values, size);
  const FrameKernel k = psf_kernel(c, size);
  return "2D FFT convolution with the " + kernel_text(c, k) + ", black beyond the frame, on a " + size_text(fft2d_padded_size(size)) +
         " grid of fp32 complex values (rows, columns with the product, rows back)";
}

}  // namespace blurlab::bloom
