// box-iterated: "three boxes make a Gaussian", measured. Three box blurs along the rows, then three
// along the columns, each axis's three fused in one pass of running sums (glsl/box_walk.glsl, as
// compute-sliding-tiles runs one box), so the cost does not grow with sigma and each axis moves
// its texels once. The radii come from the requested sigma as in Wells (1986) and Kovesi ("Fast
// almost-Gaussian filtering", 2010): boxes of two neighbouring odd widths whose variances add up
// closest to sigma^2.
//
// What each pass computes (the CPU model below computes the same): the kernel K of the three boxes
// (their convolution, integers summing to W = prod (2 r_k + 1)) applied once to the line extended
// by the border rule, like any kernel, and rounded once, where the pass stores. For rgba8 input the
// sums are integers and exact: rgba8 texels as k = 255 v, a float intermediate as fixed point
// round(v F) (F a power of two, F W < 2^32); into rgba8 the shader rounds y / W to the nearest
// step itself, in integers (W is odd: no ties), so the GPU and the model store the same steps. For
// float input the sums are fp32.
#include <array>
#include <cmath>
#include <cstdio>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"
#include "variants/box_walk.h"
#include "variants/sliding.h"

namespace blurlab {
namespace {

constexpr int kBoxes = 3;  // per axis

struct Boxes {
  std::array<int, kBoxes> radii{};  // ascending
  double sigma = 0.0;               // of the six passes' kernel
};

// A box of width w = 2r + 1 has variance (w^2 - 1) / 12 = r (r + 1) / 3; the variances of boxes run
// one after another add up. The ideal width of n equal boxes for sigma is sqrt(12 sigma^2 / n + 1);
// widths must be odd (a centred box), so Kovesi takes m boxes of the odd width wl at or below the
// ideal and n - m of wl + 2, with m the nearest to the solution of
//   m (wl^2 - 1) / 12 + (n - m) ((wl + 2)^2 - 1) / 12 = sigma^2.
// Each axis runs the same boxes, so the 2D kernel has that variance along each axis.
Boxes boxes_for(double sigma) {
  const double n = kBoxes, variance = sigma * sigma;
  int wl = static_cast<int>(std::floor(std::sqrt(12.0 * variance / n + 1.0)));
  if (wl % 2 == 0) --wl;
  wl = std::max(wl, 1);
  const double m_exact = (12.0 * variance - n * wl * wl - 4.0 * n * wl - 3.0 * n) / (-4.0 * wl - 4.0);
  const int m = std::clamp(static_cast<int>(std::lround(m_exact)), 0, kBoxes);
  Boxes b;
  double sum = 0.0;
  for (int i = 0; i < kBoxes; ++i) {
    b.radii[static_cast<size_t>(i)] = i < m ? (wl - 1) / 2 : (wl + 1) / 2;
    sum += b.radii[static_cast<size_t>(i)] * (b.radii[static_cast<size_t>(i)] + 1.0) / 3.0;
  }
  b.sigma = std::sqrt(sum);
  return b;
}

ApproxChoice choose(const BlurSettings& s) {
  const Boxes b = boxes_for(s.kernel.sigma);
  char text[64];
  std::snprintf(text, sizeof text, "boxes r=%d,%d,%d", b.radii[0], b.radii[1], b.radii[2]);
  return {b.sigma, text};
}

box_walk::Cascade cascade(const BlurSettings& s) {
  const Boxes b = boxes_for(s.kernel.sigma);
  return {{b.radii.begin(), b.radii.end()}};
}
bool exact(const BlurSettings& s) { return s.input_format == gl::Format::rgba8; }

const Knob kChunk = box_walk::chunk_knob({0, 31, 63, 95});
const Knob kChains = box_walk::chains_knob({0, 1, 2, 4});

// One pass of the model along `axis`: the sums of K over each line of `in` extended by the border
// rule. `scale` > 0 (EXACT): the texels as the shader's integers, round(v scale) (ties to even, as
// roundEven), summed exactly (below 2^32, exact in double); otherwise the values.
ReferenceImage cascade_sums(const ReferenceImage& in, int axis, const box_walk::Cascade& c, double scale, const Border& border) {
  ReferenceImage out = model::blank(in.width, in.height);
  const std::vector<long long> k = c.kernel();
  const int r = c.reach(), lines = axis == 0 ? in.height : in.width, length = axis == 0 ? in.width : in.height;
  model::parallel_rows(lines, [&](int l0, int l1) {
    std::vector<double> line(static_cast<size_t>(length) + 2 * static_cast<size_t>(r));  // the extended line
    for (int l = l0; l < l1; ++l)
      for (int ch = 0; ch < 4; ++ch) {
        for (int i = -r; i < length + r; ++i) {
          const double v = axis == 0 ? model::texel(in, i, l, ch, border) : model::texel(in, l, i, ch, border);
          line[static_cast<size_t>(i + r)] = scale > 0.0 ? std::nearbyint(v * scale) : v;
        }
        for (int i = 0; i < length; ++i) {
          double sum = 0.0;
          for (int j = 0; j <= 2 * r; ++j) sum += static_cast<double>(k[static_cast<size_t>(j)]) * line[static_cast<size_t>(i + j)];
          (axis == 0 ? out.texels[(static_cast<size_t>(l) * in.width + i) * 4 + ch]
                     : out.texels[(static_cast<size_t>(i) * in.width + l) * 4 + ch]) = sum;
        }
      }
  });
  return out;
}

// EXACT: the units the shader reads a texture of `format` in.
double integer_scale(gl::Format f, const box_walk::Cascade& c) { return f == gl::Format::rgba8 ? 255.0 : box_walk::fixed_scale(c); }

ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const box_walk::Cascade c = cascade(s);
  const double w = static_cast<double>(c.sum());
  const gl::Format mid = s.intermediate_format();
  ReferenceImage rows = cascade_sums(model::from_image(input), 0, c, exact(s) ? 255.0 : 0.0, s.border);
  for (double& y : rows.texels) {
    if (!exact(s)) y = model::stored(y / w, mid);
    else if (mid == gl::Format::rgba8) y = std::floor((y + w / 2) / w) / 255.0;  // the nearest step, as the shader rounds
    else y = model::stored(y / (255.0 * w), mid);
  }
  const double scale = exact(s) ? integer_scale(mid, c) : 0.0;
  ReferenceImage out = cascade_sums(rows, 1, c, scale, s.border);
  for (double& y : out.texels) y /= (scale > 0.0 ? scale : 1.0) * w;  // the output: the check rounds it as the shader does
  return out;
}

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const box_walk::Cascade c = cascade(s);
  const box_walk::Passes p = box_walk::passes(s, size, c);
  const gl::Format mid = s.intermediate_format();
  ModelErrorBound bound(s.input_format, input_peak);
  if (!exact(s)) {
    bound.fp32(box_walk::float_terms(c, p.rows.chunk));
    bound.store(mid);
    bound.fp32(box_walk::float_terms(c, p.columns.chunk));
    return bound.tolerance("three boxes per axis in fp32, 2 passes");
  }
  if (mid == gl::Format::rgba8) {
    // Integer sums, and the rows' averages rounded in integers: the model's exact steps.
    bound.store(gl::Format::rgba8, 0.5 / static_cast<double>(c.sum()));
    return bound.tolerance("three boxes per axis in integers, 2 passes");
  }
  // The rows' average: the integer sum converted to fp32 and scaled (3 roundings), stored in the
  // float intermediate; the columns read it as fixed point, round(v F), which moves a value that
  // differs from the model's by up to one unit 1/F more (2^24 / F roundings of 2^-24 each); their
  // integer sum is scaled to steps in fp32 (3 roundings).
  bound.fp32(3.0);
  bound.store(mid);
  bound.fp32(16777216.0 / box_walk::fixed_scale(c) + 3.0);
  return bound.tolerance("three boxes per axis in integers, fixed point from the float intermediate, 2 passes");
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  return box_walk::check(s, cascade(s));
}
SharedMemory shared_memory(const BlurSettings& s) { return box_walk::shared_memory(s, cascade(s)); }
double loop_iterations(const BlurSettings& s, glm::ivec2 size) { return box_walk::loop_iterations(s, size, cascade(s)); }

// Two passes of three boxes' running sums each.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  WorkBound b = sliding::two_pass_bound(s, size);
  b.fmas *= kBoxes;
  return b;
}

}  // namespace

namespace variant {
extern const VariantInfo box_iterated{
    .name = "box-iterated",
    .stage = Stage::Compute,
    .family = Family::IteratedBox,
    .summary = "approximate Gaussian: three running-sum boxes per axis fused in one pass, radii chosen for sigma (Wells, Kovesi)",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    // Running sums cost the same at every sigma; rgba8's integer sums (255 W below 2^32, W the boxes'
    // product of widths) hold up to r = 384 (boxes of radius 127-128).
    .max_radius = 384,
    .knobs = {knobs::workgroup({{128, 1}, {256, 1}, {32, 1}, {64, 1}}), kChunk, kChains},
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new box_walk::TwoPasses("box_iterated.comp", cascade)); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
};
}  // namespace variant
}  // namespace blurlab
