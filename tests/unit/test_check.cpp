// The comparison that decides --check (compare_to_reference) and the exact variants' tolerances
// (tolerance_for), with synthetic errors at each tolerance and just past it: a check that loosens
// by one step, or a tolerance that grows, fails here.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "blur/check.h"
#include "blur/model.h"
#include "blur/registry.h"

namespace blurlab {
namespace {

// A reference of values spread over [0, 1] (none on a rounding boundary), and an output that
// matches it after rounding to 8 bits.
ReferenceImage ramp_reference(int width, int height) {
  ReferenceImage ref = model::blank(width, height);
  for (size_t i = 0; i < ref.texels.size(); ++i) ref.texels[i] = (static_cast<double>(i % 251) + 0.3) / 255.0;
  return ref;
}
Image rounded(const ReferenceImage& ref) {
  Image out(ref.width, ref.height);
  for (size_t i = 0; i < ref.texels.size(); ++i) out.texels[i] = static_cast<float>(std::round(ref.texels[i] * 255.0) / 255.0);
  return out;
}
Tolerance lsb(int limit) {
  Tolerance t;
  t.lsb = true;
  t.lsb_limit = limit;
  return t;
}
Tolerance relative_absolute(double relative, double absolute) {
  Tolerance t;
  t.lsb = false;
  t.relative = relative;
  t.absolute = absolute;
  return t;
}

TEST(Check, Rgba8ErrorsUpToTheLimitPassAndOneStepMoreFails) {
  const ReferenceImage ref = ramp_reference(7, 5);
  for (int limit : {0, 1, 2, 5}) {
    for (int steps : {0, 1, 2, 3, 5, 6}) {
      Image out = rounded(ref);
      const int x = 3, y = 2, c = 1;
      out.at(x, y, c) += static_cast<float>((steps % 2 ? 1 : -1) * steps / 255.0);  // up or down
      const CheckResult result = compare_to_reference(out, ref, lsb(limit));
      EXPECT_EQ(result.ok, steps <= limit) << steps << " steps against a limit of " << limit;
      EXPECT_EQ(result.max_error[1], steps);
      EXPECT_EQ(result.max_error[0], 0);
      if (steps > 0) {
        EXPECT_EQ(result.worst_x, x);
        EXPECT_EQ(result.worst_y, y);
        EXPECT_EQ(result.worst_channel, c);
        EXPECT_DOUBLE_EQ(result.worst_fraction, limit > 0 ? double(steps) / limit : INFINITY);
        // What a failure line reports: the two values the check compared, in steps, and the limit.
        const double expected_steps = std::round(ref.at(x, y, c) * 255.0);
        EXPECT_EQ(result.worst_reference, expected_steps);
        EXPECT_EQ(result.worst_gpu, expected_steps + (steps % 2 ? 1 : -1) * steps);
        EXPECT_EQ(result.worst_allowed, limit);
      }
    }
  }
}

TEST(Check, Rgba8ComparesRoundedValues) {
  // The reference rounds to the nearest step: 0.49 steps and 0.51 steps round apart, so an output
  // of 0 against 0.51 steps is one step off, and against 0.49 none.
  ReferenceImage ref = model::blank(2, 1);
  ref.texels[0] = 0.49 / 255.0;
  ref.texels[4] = 0.51 / 255.0;
  const Image zeros(2, 1);
  const CheckResult result = compare_to_reference(zeros, ref, lsb(0));
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.worst_x, 1);
  EXPECT_EQ(result.max_error[0], 1);
}

TEST(Check, FloatErrorsAtTheBoundPassAndJustPastFail) {
  const double relative = std::ldexp(1.0, -10), absolute = 1e-5;
  ReferenceImage ref = model::blank(3, 2);
  for (size_t i = 0; i < ref.texels.size(); ++i) ref.texels[i] = 0.25 + 0.5 * static_cast<double>(i);  // up to 11.75
  const size_t at = 13;  // texel (0, 1), channel 1
  const double allowed = relative * std::abs(ref.texels[at]) + absolute;
  for (double factor : {0.0, 0.5, 0.999, 1.001, 2.0}) {
    Image out(3, 2);
    for (size_t i = 0; i < ref.texels.size(); ++i) out.texels[i] = static_cast<float>(ref.texels[i]);
    // The float output holds the error exactly only up to its own rounding: set it in double, then
    // measure what the float holds.
    out.texels[at] = static_cast<float>(ref.texels[at] + factor * allowed);
    const double held = std::abs(static_cast<double>(out.texels[at]) - ref.texels[at]) / allowed;
    const CheckResult result = compare_to_reference(out, ref, relative_absolute(relative, absolute));
    double largest_other = 0.0;  // the float rounding of the other texels (far below their allowance)
    for (size_t i = 0; i < ref.texels.size(); ++i)
      if (i != at)
        largest_other = std::max(largest_other, std::abs(static_cast<double>(static_cast<float>(ref.texels[i])) - ref.texels[i]) /
                                                     (relative * ref.texels[i] + absolute));
    EXPECT_EQ(result.ok, held <= 1.0) << "error " << held << "x the allowance";
    if (held > largest_other) {  // the worst texel is the one moved: its values and allowance
      EXPECT_EQ(result.worst_gpu, static_cast<double>(out.texels[at]));
      EXPECT_EQ(result.worst_reference, ref.texels[at]);
      EXPECT_DOUBLE_EQ(result.worst_allowed, allowed);
      EXPECT_NE(result.worst_text().find("worst at 0,1 G: GPU "), std::string::npos) << result.worst_text();
    }
    EXPECT_NEAR(result.worst_fraction, std::max(held, largest_other), 1e-9);
  }
}

TEST(Check, NotANumberAndInfinityFail) {
  ReferenceImage ref = model::blank(2, 2);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    Image out(2, 2);
    out.at(1, 1, 3) = bad;
    const CheckResult result = compare_to_reference(out, ref, relative_absolute(1.0, 1.0));
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.worst_x, 1);
    EXPECT_EQ(result.worst_channel, 3);
  }
}

// The exact variants allow 1 LSB in rgba8 (the intermediate's rounding, then the output's) and 2
// where texture units filter with 8-bit weights; the copy allows none. Float output: one unit in
// the last place of fp16 (relative 2^-10) plus fp32 roundings of the taps and the intermediate's.
TEST(Check, ExactVariantsAllowTheirStatedSteps) {
  for (const VariantInfo* v : variants()) {
    if (is_approximation(*v)) continue;
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Box, 4, std::nullopt);
    const Tolerance t = tolerance_for(*v, resolve(*v, s), {64, 64}, 1.0);
    ASSERT_TRUE(t.lsb) << v->name;
    // variable-sat states its own: exact integer sums rounded in integers.
    const int stated = !is_blur(*v) || v->name == "variable-sat" ? 0 : v->hardware_filtering ? 2 : 1;
    EXPECT_EQ(t.lsb_limit, stated) << v->name << ": " << t.reason;
  }
  {
    // variable-sat's float input: the texels in fixed point of 2^14 units (half a unit), 4 fp32
    // roundings of the peak 2, the subnormal floor; 1 ulp of the fp16 output.
    const VariantInfo& sat = *find_variant("variable-sat");
    BlurSettings f;
    f.kernel = make_kernel(KernelType::Box, 4, std::nullopt);
    f.input_format = gl::Format::rgba16f;
    const Tolerance t = tolerance_for(sat, resolve(sat, f), {64, 64}, 2.0);
    ASSERT_FALSE(t.lsb);
    EXPECT_EQ(t.relative, std::ldexp(1.0, -10));
    EXPECT_NEAR(t.absolute, std::ldexp(1.0, -15) + 4.0 * std::ldexp(2.0, -24) + std::ldexp(1.0, -24), 1e-18) << t.reason;
  }
  const VariantInfo& separable = *find_variant("compute-separable");
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Gauss, 4, std::nullopt);
  s.input_format = gl::Format::rgba16f;
  s.intermediate = gl::Format::rgba32f;
  const Tolerance t = tolerance_for(separable, resolve(separable, s), {64, 64}, 2.0);
  ASSERT_FALSE(t.lsb);
  EXPECT_EQ(t.relative, std::ldexp(1.0, -10));
  // 2 x 9 taps + 2 fp32 roundings of values up to the peak 2, and no rounding of an rgba32f intermediate.
  EXPECT_NEAR(t.absolute, 20.0 * std::ldexp(2.0, -24) + std::ldexp(1.0, -24), 1e-15) << t.reason;  // + the subnormal floor
  // fft, 512 points (its default at r = 4): per axis 2 transforms x 4 roundings x log2 N = 9 steps,
  // times sqrt(N) = 22.6 (an error spreads over the segment), plus the spectrum's r + 1 = 5 terms and
  // its product: 2 x (72 sqrt(512) + 6) = 3270.3 roundings of the peak 2.
  const VariantInfo& fft = *find_variant("fft");
  const Tolerance ft = tolerance_for(fft, resolve(fft, s), {64, 64}, 2.0);
  ASSERT_FALSE(ft.lsb);
  EXPECT_EQ(ft.relative, std::ldexp(1.0, -10));
  EXPECT_NEAR(ft.absolute, 2.0 * (72.0 * std::sqrt(512.0) + 6.0) * std::ldexp(2.0, -24) + std::ldexp(1.0, -24), 1e-15) << ft.reason;
}

}  // namespace
}  // namespace blurlab
