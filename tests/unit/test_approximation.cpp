// The approximate variants' CPU models and what they declare, without GL: the sigma each declares
// is its kernel's (the variance of the model's own impulse response), their parameters follow the
// request, their tolerances and fidelity measure what they say.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "blur/check.h"
#include "blur/model.h"
#include "blur/registry.h"

namespace blurlab {
namespace {

const VariantInfo& variant(std::string_view name) {
  const VariantInfo* v = find_variant(name);
  EXPECT_NE(v, nullptr) << name;
  return *v;
}

// The approximations of the Gaussian (variable-pyramid approximates the per-pixel kernel instead).
std::vector<const VariantInfo*> approximations() {
  std::vector<const VariantInfo*> list;
  for (const VariantInfo* v : variants())
    if (is_approximation(*v) && !v->variable_radius) list.push_back(v);
  return list;
}

BlurSettings gauss(const VariantInfo& v, double sigma, gl::Format input = gl::Format::rgba16f,
                   gl::Format mid = gl::Format::rgba32f) {
  BlurSettings s;
  s.kernel = Kernel{KernelType::Gauss, radius_for_sigma(sigma), sigma};
  s.input_format = input;
  s.intermediate = mid;
  return resolve(v, s);
}

// The variance along x of the kernel the model applies, from impulse responses in the middle of an
// image wide enough that borders do not matter: the second moment of each output's weights about
// the output, averaged over outputs. (Swapping the sums, it is the second moment of the impulse
// response about the impulse, averaged over the impulse's phase: `period` phases along x for a
// pyramid, one for a shift-invariant filter; the taps' x offsets and fractions do not depend on
// the y phase.) Float input and rgba32f intermediates keep rounding out of it.
double model_variance_x(const VariantInfo& v, double sigma, int period) {
  const int half = static_cast<int>(std::ceil(8.0 * sigma)) + 2 * period;
  const int size = 2 * ((half + period - 1) / period) * period + period;
  double sum = 0.0;
  for (int px = 0; px < period; ++px) {
    Image impulse(size, size);
    const int cx = size / 2 / period * period + px, cy = size / 2;
    for (int c = 0; c < 4; ++c) impulse.at(cx, cy, c) = 1.0f;
    const ReferenceImage out = v.approximation.model(impulse, gauss(v, sigma));
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) sum += out.at(x, y, 0) * (x - cx) * (x - cx);
  }
  return sum / period;
}

TEST(Approximation, EveryOneIsDeclaredWhole) {
  ASSERT_EQ(approximations().size(), 5u);
  for (const VariantInfo* v : approximations()) {
    EXPECT_EQ(v->kernels, KernelSupport::GaussOnly) << v->name;
    EXPECT_TRUE(v->approximation.choose && v->approximation.model && v->approximation.tolerance) << v->name;
  }
  for (const VariantInfo* v : variants())
    if (!is_approximation(*v)) {
      EXPECT_FALSE(v->approximation.model) << v->name << " is exact: its reference is the kernel's";
    }
}

TEST(Approximation, TheDeclaredSigmaIsTheModelsOwn) {
  for (double sigma : {1.0, 2.0, 5.0, 10.0}) {
    for (const char* name : {"box-iterated", "kawase", "recursive-gaussian", "recursive-gaussian-blocks"}) {
      const VariantInfo& v = variant(name);
      const double declared = v.approximation.choose(gauss(v, sigma)).sigma;
      EXPECT_NEAR(std::sqrt(model_variance_x(v, sigma, 1)), declared, 2e-3 * declared) << name << " sigma " << sigma;
    }
    // A pyramid: 2^levels phases.
    const VariantInfo& dual = variant("dual-kawase");
    const ApproxChoice choice = dual.approximation.choose(gauss(dual, sigma));
    const int levels = std::stoi(choice.parameters);
    if (levels > 3) continue;  // wide images of every phase: long enough
    EXPECT_NEAR(std::sqrt(model_variance_x(dual, sigma, 1 << levels)), choice.sigma, 2e-3 * choice.sigma)
        << "dual-kawase sigma " << sigma << " (" << choice.parameters << ")";
  }
}

// variable-pyramid blends two levels so that its kernel has the variance of the pixel's own (box
// r (r + 1) / 3, Gaussian sigma_r^2): the model's impulse responses with one radius everywhere,
// their second moment along x averaged over the 2^K phases of the deepest level.
TEST(Approximation, ThePyramidsKernelHasThePixelsVariance) {
  const VariantInfo& v = variant("variable-pyramid");
  for (KernelType type : {KernelType::Box, KernelType::Gauss})
    for (int r : {1, 2, 3, 6, 13}) {
      BlurSettings s;
      s.kernel = type == KernelType::Box ? Kernel{KernelType::Box, r, 0.0} : Kernel{KernelType::Gauss, r, r / 3.0};
      s.input_format = gl::Format::rgba16f;
      s = resolve(v, s);
      const int levels = std::stoi(v.approximation.choose(s).parameters), period = 1 << levels;
      const int size = 2 * period * (2 + (4 * r + period - 1) / period);  // room for the widest level's reach
      double second_moment = 0.0, mass = 0.0;
      for (int px = 0; px < period; ++px) {
        Image impulse(size, size);
        const int cx = size / 2 + px, cy = size / 2;
        for (int c = 0; c < 4; ++c) impulse.at(cx, cy, c) = 1.0f;
        const ReferenceImage out = v.approximation.model(impulse, s);
        for (int y = 0; y < size; ++y)
          for (int x = 0; x < size; ++x) {
            second_moment += out.at(x, y, 0) * (x - cx) * (x - cx);
            mass += out.at(x, y, 0);
          }
      }
      const double expected = type == KernelType::Box ? r * (r + 1) / 3.0 : (r / 3.0) * (r / 3.0);
      EXPECT_NEAR(mass / period, 1.0, 1e-9) << s.kernel.radius;
      EXPECT_NEAR(second_moment / period, expected, 1e-6 * expected) << (type == KernelType::Box ? "box" : "gauss") << " r " << r << ", "
                                                                      << levels << " levels";
    }
}

TEST(Approximation, ParametersFollowTheRequest) {
  const VariantInfo &box = variant("box-iterated"), &kawase = variant("kawase"), &dual = variant("dual-kawase"),
                    &iir = variant("recursive-gaussian"), &blocks = variant("recursive-gaussian-blocks");
  // Kovesi's example widths: sigma 5 with 3 boxes: ideal width 10.0 -> 9 and 11, m = 2 of 9.
  EXPECT_EQ(box.approximation.choose(gauss(box, 5.0)).parameters, "boxes r=4,4,5");
  EXPECT_EQ(kawase.approximation.choose(gauss(kawase, 5.0)).parameters, "5 passes, offsets 0,1,2,3,1");
  EXPECT_EQ(kawase.approximation.choose(gauss(kawase, 0.1)).parameters, "1 pass, offset 0");
  for (double sigma : {2.0, 5.0, 10.0, 20.0, 40.0}) {
    // The declared sigma is near the request: within the steps each one can take.
    for (const VariantInfo* v : {&box, &kawase, &dual, &iir}) {
      const double declared = v->approximation.choose(gauss(*v, sigma)).sigma;
      EXPECT_NEAR(declared / sigma, 1.0, v == &dual ? 0.2 : 0.1) << v->name << " sigma " << sigma;
    }
    EXPECT_NEAR(iir.approximation.choose(gauss(iir, sigma)).sigma, sigma, 1e-4 * sigma) << "variance matched exactly";
    EXPECT_EQ(blocks.approximation.choose(gauss(blocks, sigma)).parameters, iir.approximation.choose(gauss(iir, sigma)).parameters)
        << "the same filter";
  }
  // Cost independent of sigma: the recursive filter's passes, the boxes' passes; the pyramid's
  // levels grow with log sigma.
  EXPECT_EQ(std::stoi(dual.approximation.choose(gauss(dual, 40.0)).parameters), 5);
}

// The blocked recursive filter is the serial one reassociated: its model (zero-state blocks, the
// scan of their end states, the refilter, the causal output rounded to the intermediate's format as
// the serial one's scratch rounds it: rgba32f here) equals recursive-gaussian's up to that rounding,
// for lines that are a multiple of the blocks, not one, shorter than a block, and single texels,
// and for every workgroup (blocks x lines).
TEST(Approximation, BlockedRecursionIsTheSerialOne) {
  const VariantInfo &serial = variant("recursive-gaussian"), &blocked = variant("recursive-gaussian-blocks");
  const Knob& workgroup = *find_knob(blocked, "workgroup");
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 4.0f);
  for (glm::ivec2 size :
       {glm::ivec2(256, 3), glm::ivec2(517, 2), glm::ivec2(1, 300), glm::ivec2(300, 1), glm::ivec2(1, 1), glm::ivec2(19, 5)}) {
    Image image(size.x, size.y);
    for (float& v : image.texels) v = u(rng);
    for (double sigma : {2.0, 40.0}) {
      const ReferenceImage expected = serial.approximation.model(image, gauss(serial, sigma));
      for (const KnobValue& wg : workgroup.candidates) {
        BlurSettings s = gauss(blocked, sigma);
        s.knobs["workgroup"] = wg;
        const ReferenceImage out = blocked.approximation.model(image, s);
        double worst = 0.0;
        for (size_t i = 0; i < out.texels.size(); ++i) worst = std::max(worst, std::abs(out.texels[i] - expected.texels[i]));
        // The serial model's rgba32f scratch: 2^-24 of values up to 4 x l1, carried by the filter.
        EXPECT_LT(worst, 1e-4) << size.x << "x" << size.y << " sigma " << sigma << " workgroup " << workgroup.text(wg);
      }
    }
  }
}

TEST(Approximation, ModelsRoundWhereTheGpuStores) {
  EXPECT_EQ(model::stored(0.5 / 255.0 + 1e-9, gl::Format::rgba8), 1.0 / 255.0);
  EXPECT_EQ(model::stored(1.7, gl::Format::rgba8), 1.0);
  EXPECT_EQ(model::stored(1.0 + std::ldexp(1.0, -11), gl::Format::rgba16f), 1.0);  // a tie: to even
  EXPECT_EQ(model::stored(1.0 + 3 * std::ldexp(1.0, -11), gl::Format::rgba16f), 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(model::stored(std::ldexp(1.0, -25) * 3, gl::Format::rgba16f), std::ldexp(1.0, -23));  // subnormal step 2^-24
  EXPECT_EQ(model::stored(1.0 / 3.0, gl::Format::rgba32f), static_cast<double>(1.0f / 3.0f));
  // A bilinear fetch between texel centres 0.5 and 1.5 at 1.25: 3/4 of texel 0, 1/4 of texel 1;
  // clamped past the edge.
  ReferenceImage line = model::blank(2, 1);
  line.texels[0] = 1.0;
  line.texels[4] = 0.0;
  const Border clamp{};
  EXPECT_DOUBLE_EQ(model::bilinear(line, 0.75, 0.5, 0, clamp), 0.75);
  EXPECT_DOUBLE_EQ(model::bilinear(line, -3.0, 0.5, 0, clamp), 1.0);
  EXPECT_DOUBLE_EQ(model::bilinear(line, 1.75, 0.5, 0, clamp), 0.0);
}

// Past the edge each texel of a fetch goes through the border rule, as the GL wrap modes (and the
// shader's fold for reflect101) do: texels a, b, c = 1, 0, 0.5; a fetch at 3.25 blends texels 2
// (1/4) and 3 (3/4), one at -0.75 texels -2 (1/4) and -1 (3/4).
TEST(Approximation, ModelFetchesFollowTheBorder) {
  ReferenceImage line = model::blank(3, 1);
  line.texels[0] = 1.0;
  line.texels[4] = 0.0;
  line.texels[8] = 0.5;
  auto fetch = [&](double x, BorderMode mode) { return model::bilinear(line, x, 0.5, 0, Border{mode, {0.25f, 0, 0, 0}}); };
  EXPECT_DOUBLE_EQ(fetch(3.25, BorderMode::Clamp), 0.5);                           // c, c
  EXPECT_DOUBLE_EQ(fetch(3.25, BorderMode::Reflect), 0.5);                         // c, c (abc|cba)
  EXPECT_DOUBLE_EQ(fetch(3.25, BorderMode::Reflect101), 0.25 * 0.5 + 0.75 * 0.0);  // c, b (abc|ba)
  EXPECT_DOUBLE_EQ(fetch(3.25, BorderMode::Wrap), 0.25 * 0.5 + 0.75 * 1.0);        // c, a
  EXPECT_DOUBLE_EQ(fetch(3.25, BorderMode::Constant), 0.25 * 0.5 + 0.75 * 0.25);   // c, the constant
  EXPECT_DOUBLE_EQ(fetch(-0.75, BorderMode::Clamp), 1.0);                          // a, a
  EXPECT_DOUBLE_EQ(fetch(-0.75, BorderMode::Reflect), 0.25 * 0.0 + 0.75 * 1.0);    // b, a (ba|abc)
  EXPECT_DOUBLE_EQ(fetch(-0.75, BorderMode::Reflect101), 0.25 * 0.5 + 0.75 * 0.0);  // c, b (cb|abc)
  EXPECT_DOUBLE_EQ(fetch(-0.75, BorderMode::Wrap), 0.25 * 0.0 + 0.75 * 0.5);       // b, c
  EXPECT_DOUBLE_EQ(fetch(-0.75, BorderMode::Constant), 0.25);
}

TEST(Approximation, ToleranceCountsEveryStore) {
  // box-iterated on rgba8: integer sums, every rgba8 store tie-free: the model is exact (1 LSB for
  // the output's rounding); Kawase's textbook rgba8 passes add their filtering and a step per store,
  // its shared ones sum integers and round half up as the model does: exact, the output too;
  // through an fp16 intermediate each store adds its rounding.
  const VariantInfo &box = variant("box-iterated"), &kawase = variant("kawase");
  const Tolerance exact = tolerance_for(box, gauss(box, 5.0, gl::Format::rgba8, gl::Format::rgba8), {64, 64}, 1.0);
  EXPECT_TRUE(exact.lsb);
  EXPECT_EQ(exact.lsb_limit, 1) << exact.reason;
  EXPECT_NE(exact.reason.find("tie-free"), std::string::npos) << exact.reason;
  const BlurSettings seven = gauss(kawase, 10.0, gl::Format::rgba8, gl::Format::rgba8);
  ASSERT_EQ(kawase.approximation.choose(seven).parameters.substr(0, 8), "7 passes");
  const Tolerance pingpong = tolerance_for(kawase, seven, {64, 64}, 1.0);
  // Textbook passes: 7 filtered fetch passes (1 step each) and 6 rgba8 stores (floor(d) + 1 each):
  // 2 steps a pass.
  EXPECT_EQ(pingpong.lsb_limit, 14) << pingpong.reason;
  BlurSettings shared = seven;
  shared.knobs["pass"] = {1};
  const Tolerance integers = tolerance_for(kawase, shared, {64, 64}, 1.0);
  EXPECT_EQ(integers.lsb_limit, 0) << integers.reason;
  EXPECT_NE(integers.reason.find("integers"), std::string::npos) << integers.reason;
  shared.intermediate = gl::Format::rgba16f;
  const Tolerance half = tolerance_for(kawase, shared, {64, 64}, 1.0);
  EXPECT_EQ(half.lsb_limit, 2) << half.reason;  // 6 fp16 stores of values below 1: 9 x 2^-11 = 1.12 steps
  EXPECT_NE(half.reason.find("6 fp16 stores"), std::string::npos) << half.reason;
  EXPECT_LT(half.lsb_limit, pingpong.lsb_limit);
  // Float input: an absolute bound scaled by the peak.
  const Tolerance hdr = tolerance_for(kawase, gauss(kawase, 10.0, gl::Format::rgba16f, gl::Format::rgba16f), {64, 64}, 4.0);
  EXPECT_FALSE(hdr.lsb);
  EXPECT_GT(hdr.absolute, 6 * 1.5 * std::ldexp(4.0, -11)) << hdr.reason;
}

TEST(Approximation, ErrorBoundSteps) {
  ModelErrorBound b(gl::Format::rgba8, 1.0);
  b.store(gl::Format::rgba8, 0.01);  // nothing yet, tie-free: still exact
  EXPECT_EQ(b.tolerance("x").lsb_limit, 1);
  b.filtered_fetches(gl::Format::rgba8, 1000.0);  // 1 step: two lerps rounded to 8 bits
  EXPECT_EQ(b.tolerance("x").lsb_limit, 2);
  b.store(gl::Format::rgba8);  // floor(1) + 1
  EXPECT_EQ(b.tolerance("x").lsb_limit, 3);
  b.gain(2.0);
  EXPECT_EQ(b.tolerance("x").lsb_limit, 5);
  // Float textures filter with the weights the fp32 position gives: off by 3 x 2^-24 x extent; an
  // fp16 result may be rounded to fp16: half of 2^-9, the ulp of values in [2, 4).
  ModelErrorBound w(gl::Format::rgba16f, 4.0);
  w.filtered_fetches(gl::Format::rgba16f, 1024.0);
  EXPECT_NEAR(w.tolerance("x").absolute, 2.0 * 3.0 * std::ldexp(1024.0, -24) * 4.0 + std::ldexp(1.0, -10) + std::ldexp(1.0, -24),
              1e-12);
  // Past 2^24 / 1536 texels an 8-bit weight may round to the next step.
  ModelErrorBound q(gl::Format::rgba8, 1.0);
  q.filtered_fetches(gl::Format::rgba8, 16384.0);
  EXPECT_EQ(q.tolerance("x").lsb_limit, 3);  // 2 x 255/256 steps for the weights, 1 for the lerps, + 1
  ModelErrorBound f(gl::Format::rgba8, 1.0);
  f.store(gl::Format::rgba16f);  // 1.5 x 2^-11 of values below 1
  EXPECT_NEAR(f.tolerance("x").lsb_limit, 1, 0);
  for (int i = 0; i < 3; ++i) f.store(gl::Format::rgba16f);  // 6 x 2^-11 = 0.75 step
  EXPECT_EQ(f.tolerance("x").lsb_limit, 1);
  f.store(gl::Format::rgba16f);
  f.store(gl::Format::rgba16f);  // 9 x 2^-11 = 1.12 steps
  EXPECT_EQ(f.tolerance("x").lsb_limit, 2);
}

TEST(Approximation, FidelityMeasuresAgainstTheGaussian) {
  Image out(4, 1);
  ReferenceImage gaussian = model::blank(4, 1);
  out.texels[0] = 2.0f / 255.0f;  // 2 LSB off in one of 16 values
  const Fidelity f = measure_fidelity(out, gaussian, gl::Format::rgba8, 1.0, 3.0);
  EXPECT_NEAR(f.max_lsb, 2.0, 1e-5);
  EXPECT_NEAR(f.rms_lsb, 0.5, 1e-5);  // sqrt(4 / 16)
  EXPECT_NEAR(f.psnr_db, 20.0 * std::log10(255.0 / 0.5), 1e-4);
  // Float input: steps of the peak (2/255 as a half holds 11 bits).
  EXPECT_NEAR(measure_fidelity(out, gaussian, gl::Format::rgba16f, 2.0, 3.0).max_lsb, 1.0, 1e-4);
  // The exact value as the output stores it: 0.4 and 0.6 of a step round to 0 and 1, so an rgba8
  // output of 0 and 1 step there is equal to the exact blur's (and 1 step off where it is 0.4).
  gaussian.texels[1] = 0.4 / 255.0;
  gaussian.texels[2] = 0.6 / 255.0;
  out.texels[0] = 0.0f;
  out.texels[2] = 1.0f / 255.0f;
  const Fidelity as_stored = measure_fidelity(out, gaussian, gl::Format::rgba8, 1.0, 3.0);
  EXPECT_EQ(as_stored.max_lsb, 0.0);
  EXPECT_EQ(as_stored.psnr_db, INFINITY);
  out.texels[1] = 1.0f / 255.0f;
  EXPECT_NEAR(measure_fidelity(out, gaussian, gl::Format::rgba8, 1.0, 3.0).max_lsb, 1.0, 1e-6);
  // rgba16f: the nearest half; 1 + 2^-12 is 1 as a half, so an output of 1 is equal.
  Image one(1, 1);
  for (float& v : one.texels) v = 1.0f;
  ReferenceImage near_one = model::blank(1, 1);
  for (double& v : near_one.texels) v = 1.0 + std::ldexp(1.0, -12);
  EXPECT_EQ(measure_fidelity(one, near_one, gl::Format::rgba16f, 1.0, 3.0).max_lsb, 0.0);
  EXPECT_EQ(fidelity_kernel(0.0), (Kernel{KernelType::Box, 0, 0.0}));
  EXPECT_EQ(fidelity_kernel(2.5).radius, 8);
  EXPECT_EQ(fidelity_kernel(60.0).radius, 180);  // past the largest radius a variant takes: the reference has no limit
}

// The models against the plain reference where they must agree: a flat image stays flat (every
// model keeps the weights' sum at 1, at the borders too).
TEST(Approximation, FlatStaysFlat) {
  Image flat(37, 23);
  for (float& v : flat.texels) v = 0.6f;
  for (const VariantInfo* v : approximations())
    for (double sigma : {0.5, 3.0, 20.0}) {
      const ReferenceImage out = v->approximation.model(flat, gauss(*v, sigma));
      for (double t : out.texels) ASSERT_NEAR(t, 0.6, 1e-5) << v->name << " sigma " << sigma;
    }
}

}  // namespace
}  // namespace blurlab
