// recursive-gaussian: a 3rd-order recursive (IIR) Gaussian, Young and van Vliet's (1995), with the
// poles of Young, van Vliet and van Ginkel ("Recursive Gabor filtering", 2002) scaled so that the
// filter's variance is exactly sigma^2. Along each line a causal filter runs forwards, then the
// same filter anticausally backwards: H(z) = G(z) G(1/z). Rows, then columns. The work per texel
// does not depend on sigma.
//
// G is a cascade of two sections of unit gain at DC, for fp32: a first-order section with the real
// pole p and a second-order one with the complex pair (c1 = 2 Re, c2 = -|pole|^2):
//   u[n] = g1 x[n] + p u[n-1],   v[n] = g2 u[n] + c1 v[n-1] + c2 v[n-2],   g1 = 1 - p, g2 = 1 - c1 - c2.
// (The direct 3rd-order form amplifies its fp32 roundings by 1 / (1 - a1 - a2 - a3), about 26000 at
// sigma 40; the sections by 1 / (1 - p) and 1 / g2, about 30 and 530.) The coefficients are rounded
// to float once, g1 and g2 computed from the rounded poles so the gain at DC stays 1; the CPU model
// uses the same rounded values.
//
// Borders (clamp-to-edge, the line extended by its end texels). Left: the filter has run on the
// first texel forever, so its state is that texel (unit gain at DC). Right: the anticausal pass
// starts from the causal pass's future beyond the end, where the input stays the last texel c: the
// causal state's deviation from c decays by the sections' own recursion, and the anticausal
// filter of that decaying tail gives its initial state, a linear function of the deviation: a 3x3
// matrix M, found on the host by running the tail out (the role of Triggs and Sdika's matrix, 2006,
// here for the cascade). Another border rule needs other initial states.
//
// Rounding points: the causal output along a line is stored in a scratch texture of the
// intermediate format and read back by the anticausal pass of the same invocation; the rows'
// result is stored in the intermediate format, the columns' in the output.
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"
#include "variants/sliding.h"

namespace blurlab {
namespace {

// Young, van Vliet and van Ginkel's poles for order 3 (at sigma about 2); d^(1/q) scales them.
const std::array<std::complex<double>, 3> kPoles0 = {{{1.41650, 1.00829}, {1.41650, -1.00829}, {1.86543, 0.0}}};

// The variance of the causal-anticausal pair with poles z_k (|z_k| > 1, in z^-1): a first-order
// causal section with pole 1/z has the geometric impulse response (1 - 1/z) z^-n, of variance
// z / (z - 1)^2; sections in a row and the mirrored anticausal filter add their variances:
//   sigma^2 = 2 sum_k z_k / (z_k - 1)^2.
double variance_of(const std::array<std::complex<double>, 3>& z) {
  std::complex<double> sum = 0.0;
  for (const auto& zk : z) sum += zk / ((zk - 1.0) * (zk - 1.0));
  return 2.0 * sum.real();
}

std::array<std::complex<double>, 3> scaled_poles(double q) {
  std::array<std::complex<double>, 3> z;
  for (size_t k = 0; k < 3; ++k) z[k] = std::pow(kPoles0[k], 1.0 / q);
  return z;
}

struct Filter {
  float p, g1, c1, c2, g2;   // the sections, as the GPU holds them
  std::array<double, 9> m{};  // right border, row-major (from the rounded coefficients)
  double sigma = 0.0;         // of the filter with the rounded coefficients
  // For the error bound: L1 norms of the sections' impulse responses (their product is the causal
  // filter's), and of their all-pole parts 1 / (1 - p z^-1) and 1 / (1 - c1 z^-1 - c2 z^-2), which
  // carry a rounding onwards; the largest row sum of |M|.
  double first_l1 = 1.0, second_l1 = 1.0, pole1_l1 = 1.0, pole2_l1 = 1.0, m_norm = 0.0;
  double l1() const { return first_l1 * second_l1; }
};

// The impulse response of v[n] = x[n] + c1 v[n-1] + c2 v[n-2], summed in absolute value.
double all_pole_l1(double c1, double c2, double gain) {
  double v1 = 0.0, v2 = 0.0, sum = 0.0;
  for (int n = 0; n < 1000000; ++n) {
    const double v = (n == 0 ? 1.0 : 0.0) + c1 * v1 + c2 * v2;
    v2 = v1;
    v1 = v;
    sum += std::abs(gain * v);
    if (n > 8 && std::abs(v) + std::abs(v2) < 1e-17 * sum) break;
  }
  return sum;
}

Filter filter_for(double sigma) {
  // q: the variance grows with q; bisect on a log scale.
  double lo = 1e-4, hi = 1e5;
  for (int i = 0; i < 200; ++i) {
    const double mid = std::sqrt(lo * hi);
    (variance_of(scaled_poles(mid)) < sigma * sigma ? lo : hi) = mid;
  }
  const auto z = scaled_poles(std::sqrt(lo * hi));
  const std::complex<double> pair = 1.0 / z[0];
  Filter f;
  f.p = static_cast<float>(1.0 / z[2].real());
  f.c1 = static_cast<float>(2.0 * pair.real());
  f.c2 = static_cast<float>(-std::norm(pair));
  f.g1 = static_cast<float>(1.0 - f.p);
  f.g2 = static_cast<float>(1.0 - static_cast<double>(f.c1) - f.c2);

  // The sigma of the rounded filter: its poles 1/z are p and the roots of x^2 - c1 x - c2.
  const std::complex<double> root = std::sqrt(std::complex<double>(double(f.c1) * f.c1 + 4.0 * f.c2, 0.0));
  const std::array<std::complex<double>, 3> rounded = {{2.0 / (double(f.c1) + root), 2.0 / (double(f.c1) - root), 1.0 / double(f.p)}};
  f.sigma = std::sqrt(std::max(variance_of(rounded), 0.0));

  // M: the causal state's deviation from the last texel, d = (u, v[N-1], v[N-2]) - c, runs on past
  // the end with input c (zero deviation): u *= p, v = g2 u + c1 v1 + c2 v2. The anticausal sections
  // a[n] = g1 v[n] + p a[n+1], b[n] = g2 a[n] + c1 b[n+1] + c2 b[n+2] over that tail, started at
  // rest far out, reach (a[N], b[N], b[N+1]) = M d.
  const double p = f.p, g1 = f.g1, c1 = f.c1, c2 = f.c2, g2 = f.g2;
  const double slowest = std::max(p, std::sqrt(-c2));
  const int tail = static_cast<int>(std::ceil(std::log(1e-20) / std::log(slowest))) + 16;
  for (int j = 0; j < 3; ++j) {
    double u = j == 0, v1 = j == 1, v2 = j == 2;
    std::vector<double> v(static_cast<size_t>(tail));
    for (int n = 0; n < tail; ++n) {
      u *= p;
      const double next = g2 * u + c1 * v1 + c2 * v2;
      v2 = v1;
      v1 = next;
      v[static_cast<size_t>(n)] = next;
    }
    double a = 0.0, b1 = 0.0, b2 = 0.0;
    for (int n = tail - 1; n >= 0; --n) {
      a = g1 * v[static_cast<size_t>(n)] + p * a;
      const double b = g2 * a + c1 * b1 + c2 * b2;
      b2 = b1;
      b1 = b;
    }
    f.m[0 + static_cast<size_t>(j)] = a;   // a[N]
    f.m[3 + static_cast<size_t>(j)] = b1;  // b[N]
    f.m[6 + static_cast<size_t>(j)] = b2;  // b[N+1]
  }
  for (int r = 0; r < 3; ++r)
    f.m_norm = std::max(f.m_norm, std::abs(f.m[3 * r]) + std::abs(f.m[3 * r + 1]) + std::abs(f.m[3 * r + 2]));
  f.pole1_l1 = 1.0 / (1.0 - p);  // a positive geometric response
  f.pole2_l1 = all_pole_l1(c1, c2, 1.0);
  f.first_l1 = g1 * f.pole1_l1;
  f.second_l1 = all_pole_l1(c1, c2, g2);
  return f;
}

ApproxChoice choose(const BlurSettings& s) {
  const Filter f = filter_for(s.kernel.sigma);
  char text[96];
  std::snprintf(text, sizeof text, "poles %.4f, %.4f+-%.4fi", double(f.p), 0.5 * f.c1, 0.5 * std::sqrt(std::max(-double(f.c1) * f.c1 - 4.0 * f.c2, 0.0)));
  return {f.sigma, text};
}

std::string literal(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(static_cast<float>(v)));  // the float exactly
  return text;
}

// Texels loaded ahead of the recursion per step, their loads grouped.
const Knob kLookahead{.name = "lookahead",
                      .help = "Recursive filter: texels loaded per step ahead of the recursion, grouped (more loads in flight, "
                              "more registers)",
                      .define = "LOOKAHEAD",
                      .min = 1,
                      .max = 32,
                      .candidates = {{8}, {1}, {4}, {16}}};

// Why the other border modes are refused: each line starts and ends from a steady state of the
// filter, derived for clamp-to-edge only (above).
constexpr std::string_view kOnlyClamp =
    "the recursive filter starts each line from the steady state of clamp-to-edge (the edge texel repeated forever, the "
    "right border's matrix M); another mode needs its own initial states (wrap: the periodic line run to convergence; "
    "constant: the state of the constant; the reflections: the mirrored line)";

class RecursiveGaussian final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const Filter f = filter_for(s.kernel.sigma);
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    std::string m;
    for (double v : f.m) m += (m.empty() ? "" : ", ") + literal(v);
    gl::Defines defines{{"RG_P", literal(f.p)},   {"RG_G1", literal(f.g1)}, {"RG_C1", literal(f.c1)},
                        {"RG_C2", literal(f.c2)}, {"RG_G2", literal(f.g2)}, {"RG_M", m},
                        {"CAUSAL_FORMAT", std::string(gl::name(mid))}, {"AXIS", "0"}};
    rows_ = &setup.compute("recursive_gaussian.comp", io, mid, defines);
    defines.back().second = "1";
    columns_ = &setup.compute("recursive_gaussian.comp", mid, io, defines);
  }

  // Rows from the source into intermediate 0, columns from there into the destination; both use
  // intermediate 1 for the causal pass's output.
  void run(BlurPasses& passes) override {
    const glm::ivec2 size = passes.size(), wg = passes.settings().workgroup();
    const gl::Texture &rows = passes.intermediate(0), &causal = passes.intermediate(1);
    passes.dispatch("h", *rows_, {Binding::read(passes.source()), Binding::write(rows), Binding::read_write(causal, 2)},
                    sliding::flat_groups(size.y, wg, "H"));
    passes.dispatch("v", *columns_, {Binding::read(rows), Binding::write(passes.destination()), Binding::read_write(causal, 2)},
                    sliding::flat_groups(size.x, wg, "W"));
  }

 private:
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

// One axis of the model, as the shader runs it: the causal sections forwards (their output stored
// in `scratch`), the border state, the anticausal sections backwards.
ReferenceImage model_axis(const ReferenceImage& in, int axis, const Filter& f, gl::Format scratch) {
  ReferenceImage out = model::blank(in.width, in.height);
  const int lines = axis == 0 ? in.height : in.width, length = axis == 0 ? in.width : in.height;
  const double p = f.p, g1 = f.g1, c1 = f.c1, c2 = f.c2, g2 = f.g2;
  model::parallel_rows(lines, [&](int l0, int l1) {
    std::vector<double> causal(static_cast<size_t>(length));
    for (int l = l0; l < l1; ++l)
      for (int c = 0; c < 4; ++c) {
        auto index = [&](int i) { return (axis == 0 ? static_cast<size_t>(l) * in.width + i : static_cast<size_t>(i) * in.width + l) * 4 + c; };
        const double first = in.texels[index(0)], last = in.texels[index(length - 1)];
        double u = first, v1 = first, v2 = first;
        for (int i = 0; i < length; ++i) {
          u = g1 * in.texels[index(i)] + p * u;
          const double v = g2 * u + c1 * v1 + c2 * v2;
          v2 = v1;
          v1 = v;
          causal[static_cast<size_t>(i)] = model::stored(v, scratch);
        }
        const double d[3] = {u - last, v1 - last, v2 - last};
        auto row = [&](int r) { return last + f.m[3 * r] * d[0] + f.m[3 * r + 1] * d[1] + f.m[3 * r + 2] * d[2]; };
        double a = row(0), b1 = row(1), b2 = row(2);
        for (int i = length - 1; i >= 0; --i) {
          a = g1 * causal[static_cast<size_t>(i)] + p * a;
          const double b = g2 * a + c1 * b1 + c2 * b2;
          b2 = b1;
          b1 = b;
          out.texels[index(i)] = b;
        }
      }
  });
  return out;
}

ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const Filter f = filter_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  ReferenceImage rows = model_axis(model::from_image(input), 0, f, mid);
  model::store(rows, mid);
  return model_axis(rows, 1, f, mid);
}

// One filter (causal or anticausal) in fp32: each step of the first section rounds 3 times at
// most the values' size, carried onwards by its all-pole part (L1 1 / (1 - p)) and the second
// section; each step of the second rounds 5 times at most (g2 + |c1| + |c2|) times the values'
// size, carried by its all-pole part.
double filter_terms(const Filter& f) {
  return 3.0 * f.pole1_l1 * f.second_l1 + 5.0 * (f.g2 + std::abs(f.c1) + std::abs(f.c2)) * f.pole2_l1;
}

Tolerance tolerance(const BlurSettings& s, glm::ivec2 /*size*/, double input_peak) {
  const Filter f = filter_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  ModelErrorBound bound(s.input_format, input_peak);
  for (int axis = 0; axis < 2; ++axis) {
    bound.gain(f.l1());
    bound.fp32(filter_terms(f));
    bound.store(mid);  // the causal output in the scratch texture
    bound.gain(f.l1());
    // The border state: three dot products of M with deviations up to twice the values' size,
    // decaying through the filter.
    bound.fp32(filter_terms(f) + 8.0 * f.m_norm * std::max(f.pole1_l1, f.pole2_l1));
    if (axis == 0) bound.store(mid);
  }
  return bound.tolerance("recursive filter, 4 passes");
}

// The longest invocation walks a line twice, in steps of LOOKAHEAD loads then as many recursion
// steps.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const double length = std::max(size.x, size.y), lookahead = s.integer(kLookahead);
  return 2.0 * (std::ceil(length / lookahead) * (2.0 * lookahead + 1.0));
}

}  // namespace

namespace variant {
extern const VariantInfo recursive_gaussian{
    .name = "recursive-gaussian",
    .stage = Stage::Compute,
    .summary = "approximate Gaussian: 3rd-order recursive filter (Young-van Vliet), causal then anticausal along rows, "
               "then columns; cost independent of sigma",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    // The causal pass's output feeds a recursion: 8 bits would cost the result more than a step.
    .default_intermediate = gl::Format::rgba16f,
    .knobs = {knobs::workgroup({{64, 1}, {32, 1}, {128, 1}, {256, 1}}), kLookahead},
    .refused_borders = {{BorderMode::Reflect, kOnlyClamp}, {BorderMode::Reflect101, kOnlyClamp}, {BorderMode::Wrap, kOnlyClamp},
                        {BorderMode::Constant, kOnlyClamp}},
    .loop_iterations = loop_iterations,
    .create = [] { return std::unique_ptr<Blur>(new RecursiveGaussian); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
};
}  // namespace variant
}  // namespace blurlab
