// box-iterated: "three boxes make a Gaussian", measured. Three box blurs along the rows, then
// three along the columns, each a running sum (glsl/sliding_common.glsl, as compute-sliding), so
// the cost does not grow with sigma. The radii come from the requested sigma as in Wells (1986)
// and Kovesi ("Fast almost-Gaussian filtering", 2010): boxes of two neighbouring odd widths whose
// variances add up closest to sigma^2.
//
// Rounding points (the CPU model below rounds at the same ones): each pass sums its window and
// stores the average in the intermediate format, the last one in the output. For rgba8 input the
// sums are integers (EXACT, as compute-sliding): rgba8 texels as k = 255 v, float intermediates as
// fixed point round(v 2^23); each average S / w (w = 2r + 1, odd) is then never within 1/(2w) of a
// step boundary, and the shader rounds it to the nearest step itself (STORE_STEPS): GL may convert
// a float to unorm8 as either neighbouring step (the H200 did, from boxes of radius 4 up, whose
// averages come within 1/18 step of a boundary), a whole step it converts exactly. So the GPU and
// the model round every rgba8 store alike. For float input the sums are fp32 running sums.
#include <array>
#include <cmath>
#include <cstdio>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"
#include "variants/sliding.h"

namespace blurlab {
namespace {

constexpr int kBoxes = 3;  // per axis
// 32-bit sums of fixed-point texels (2^23 per unit, below) hold 2^32 / 2^23 = 512 of them.
constexpr int kMaxBoxRadius = 255;

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

// The pass number `k` (0..5): rows first, radii ascending.
int pass_axis(int k) { return k < kBoxes ? 0 : 1; }
int pass_radius(const Boxes& b, int k) { return b.radii[static_cast<size_t>(k % kBoxes)]; }

// EXACT integer sums read texels as integers: rgba8 as k = 255 v, float formats as fixed point
// round(v 2^23) (values in [0, 1]; exact for every half of 2^-13 and more, and for a float within
// 2^-24; at most 257 x 2^23 < 2^32).
double integer_scale(gl::Format f) { return f == gl::Format::rgba8 ? 255.0 : 8388608.0; }

// At most four programs (rows from the source, rows between intermediates, columns between
// intermediates, columns into the destination); the box's radius and weight are values of the
// pass (u_pass), so one program serves every radius.
class BoxIterated final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    const bool exact = io == gl::Format::rgba8;
    for (int k = 0; k < 2 * kBoxes; ++k) {
      const gl::Format src = k == 0 ? io : mid, dst = k == 2 * kBoxes - 1 ? io : mid;
      const double scale = exact ? integer_scale(src) : 1.0;
      char in_scale[32], unit[48];
      std::snprintf(in_scale, sizeof in_scale, "%.1f", scale);
      std::snprintf(unit, sizeof unit, "(1.0 / %.1f)", scale);
      gl::Defines defines{{"AXIS", std::to_string(pass_axis(k))},
                          {"SLIDE_RADIUS", "int(u_pass.x)"},
                          {"SLIDE_BOX_WEIGHT", "u_pass.y"},
                          {"EXACT", exact ? "1" : "0"},
                          {"IN_SCALE", in_scale},
                          {"OUT_WEIGHTS", "1"},
                          {"OUT_UNIT", exact ? unit : "1.0"}};
      // Rounded in the shader, to the step the model predicts (above): stores into rgba8.
      if (exact && dst == gl::Format::rgba8) defines.emplace_back("STORE_STEPS", "255.0");
      programs_[static_cast<size_t>(k)] = &setup.compute("box_iterated.comp", src, dst, defines);
    }
    boxes_ = boxes_for(s.kernel.sigma);
  }

  void run(BlurPasses& passes) override {
    static constexpr const char* kSpans[] = {"h1", "h2", "h3", "v1", "v2", "v3"};
    const gl::Texture* src = &passes.source();
    for (int k = 0; k < 2 * kBoxes; ++k) {
      const gl::Texture& dst = k == 2 * kBoxes - 1 ? passes.destination() : passes.intermediate(k % 2);
      const int r = pass_radius(boxes_, k);
      // The weight as the float nearest 1/(2r + 1), like the weights block's.
      const glm::vec4 pass(static_cast<float>(r), static_cast<float>(1.0 / (2 * r + 1)), 0.0f, 0.0f);
      sliding::dispatch_line_pass(passes, kSpans[k], *programs_[static_cast<size_t>(k)], pass_axis(k), *src, dst, pass);
      src = &dst;
    }
  }

 private:
  std::array<const gl::Program*, 2 * kBoxes> programs_{};
  Boxes boxes_;
};

// One box pass along `axis` of the model, as the GPU runs it: EXACT sums of integers (scale > 0)
// or sums of the values. Each pass applies the border to the image it reads (the source, then an
// intermediate), as the shader's source_texel() does: past the ends the line's texels by the index
// rule, or the constant, converted like a texel.
ReferenceImage box_pass(const ReferenceImage& in, int axis, int r, double scale, const Border& border) {
  ReferenceImage out = model::blank(in.width, in.height);
  const int lines = axis == 0 ? in.height : in.width, length = axis == 0 ? in.width : in.height;
  const double w = 2.0 * r + 1.0;
  model::parallel_rows(lines, [&](int l0, int l1) {
    std::vector<double> line(static_cast<size_t>(length));
    for (int l = l0; l < l1; ++l)
      for (int c = 0; c < 4; ++c) {
        for (int i = 0; i < length; ++i) {
          const double v = axis == 0 ? in.at(i, l, c) : in.at(l, i, c);
          line[static_cast<size_t>(i)] = scale > 0.0 ? std::nearbyint(v * scale) : v;
        }
        const double constant = scale > 0.0 ? std::nearbyint(border.value[static_cast<size_t>(c)] * scale)
                                            : border.value[static_cast<size_t>(c)];
        auto at = [&](int i) {
          if (i >= 0 && i < length) return line[static_cast<size_t>(i)];
          if (border.mode == BorderMode::Constant) return constant;
          return line[static_cast<size_t>(border_index(border.mode, i, length))];
        };
        // A running sum, as the GPU's: exact for EXACT integers (below 2^32, exact in double).
        double sum = 0.0;
        for (int j = -r; j <= r; ++j) sum += at(j);
        for (int i = 0; i < length; ++i) {
          if (i > 0) sum += at(i + r) - at(i - r - 1);
          const double v = scale > 0.0 ? sum / scale / w : sum / w;
          (axis == 0 ? out.texels[(static_cast<size_t>(l) * in.width + i) * 4 + c]
                     : out.texels[(static_cast<size_t>(i) * in.width + l) * 4 + c]) = v;
        }
      }
  });
  return out;
}

ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const Boxes b = boxes_for(s.kernel.sigma);
  const bool exact = s.input_format == gl::Format::rgba8;
  ReferenceImage image = model::from_image(input);
  gl::Format held = s.input_format;  // the format the current image is stored in
  for (int k = 0; k < 2 * kBoxes; ++k) {
    image = box_pass(image, pass_axis(k), pass_radius(b, k), exact ? integer_scale(held) : 0.0, s.border);
    if (k == 2 * kBoxes - 1) break;  // the output: the check rounds it
    held = s.intermediate_format();
    model::store(image, held);
  }
  return image;
}

// EXACT: the sums are exact; fp32 rounds the conversion of a sum above 2^24 to float, the weight
// (1/w), the unit and their products, and GLSL's round() may break a tie of a fixed-point
// conversion either way (2^-24 of a texel): 8 roundings per pass, generously.
constexpr double kExactPassTerms = 8.0;

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const Boxes b = boxes_for(s.kernel.sigma);
  const bool exact = s.input_format == gl::Format::rgba8;
  ModelErrorBound bound(s.input_format, input_peak);
  for (int k = 0; k < 2 * kBoxes; ++k) {
    const int r = pass_radius(b, k), length = pass_axis(k) == 0 ? size.x : size.y;
    bound.fp32(exact ? kExactPassTerms
                     : sliding::slide_terms(r, sliding::segment_steps(sliding::segment(s), length)) + sliding::kScaleTerms);
    // A box average of integers S / w with w odd lies at least 1/(2w) steps from a boundary.
    if (k < 2 * kBoxes - 1) bound.store(s.intermediate_format(), exact ? 0.5 / (2 * r + 1) : 0.0);
  }
  return bound.tolerance(std::to_string(2 * kBoxes) + " box passes");
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const Boxes b = boxes_for(s.kernel.sigma);
  if (b.radii.back() > kMaxBoxRadius)
    return Refusal{Limit::Reach,
                   "sigma " + format_double(s.kernel.sigma, 4) + " needs boxes of radius " + std::to_string(b.radii.back()) + ", above " +
                       std::to_string(kMaxBoxRadius) + " (32-bit integer sums hold 511 texels of 2^23 fixed point)",
                   static_cast<double>(b.radii.back()), static_cast<double>(kMaxBoxRadius)};
  return std::nullopt;
}

}  // namespace

namespace variant {
extern const VariantInfo box_iterated{
    .name = "box-iterated",
    .stage = Stage::Compute,
    .summary = "approximate Gaussian: three running-sum boxes per axis, radii chosen for sigma (Wells, Kovesi)",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    .knobs = {knobs::workgroup({{64, 1}, {32, 1}, {256, 1}}), sliding::unroll_knob({4, 1, 2, 8, 16, 32}),
              knobs::segment({128, 64, 256, 1024, 16384})},
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new BoxIterated); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
};
}  // namespace variant
}  // namespace blurlab
