// Border modes (src/blur/border.h) and the CPU reference's borders, against OpenCV: its
// borderInterpolate() transcribed as the oracle for indices, and 1D blurs computed by hand from
// OpenCV's pictures of the modes for the reference.
#include <gtest/gtest.h>

#include <random>

#include "blur/border.h"
#include "blur/kernel.h"
#include "blur/pipeline.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "image/image.h"

namespace blurlab {
namespace {

// OpenCV 4.x modules/core/src/copy.cpp, cv::borderInterpolate, as written there (with its own
// loop of reflections), for BORDER_REPLICATE, REFLECT, REFLECT_101 and WRAP.
int opencv_border_interpolate(int p, int len, BorderMode mode) {
  if (static_cast<unsigned>(p) < static_cast<unsigned>(len)) return p;
  if (mode == BorderMode::Clamp) return p < 0 ? 0 : len - 1;
  if (mode == BorderMode::Reflect || mode == BorderMode::Reflect101) {
    const int delta = mode == BorderMode::Reflect101;
    if (len == 1) return 0;
    do {
      if (p < 0)
        p = -p - 1 + delta;
      else
        p = len - 1 - (p - len) - delta;
    } while (static_cast<unsigned>(p) >= static_cast<unsigned>(len));
    return p;
  }
  if (p < 0) p -= ((p - len + 1) / len) * len;
  if (p >= len) p %= len;
  return p;  // BORDER_WRAP
}

TEST(Border, IndicesMatchOpenCvBorderInterpolate) {
  for (BorderMode mode : {BorderMode::Clamp, BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap})
    for (int n = 1; n <= 9; ++n)
      for (int p = -300; p <= 300; ++p)
        ASSERT_EQ(border_index(mode, p, n), opencv_border_interpolate(p, n, mode))
            << name(mode) << " p=" << p << " n=" << n;
}

TEST(Border, IndicesByHand) {
  // "abc": index p = -5..7 reads (OpenCV's pictures, continued by repeated reflection).
  struct Row {
    BorderMode mode;
    std::vector<int> reads;
  };
  const std::vector<Row> rows{
      {BorderMode::Clamp, {0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 2}},       // aaaaa|abc|ccccc
      {BorderMode::Reflect, {1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1}},     // bccba|abc|cbaab
      {BorderMode::Reflect101, {1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}},  // babcb|abc|babcb
      {BorderMode::Wrap, {1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}},        // bcabc|abc|abcab
  };
  for (const Row& row : rows)
    for (int p = -5; p <= 7; ++p)
      EXPECT_EQ(border_index(row.mode, p, 3), row.reads[static_cast<size_t>(p + 5)]) << name(row.mode) << " p=" << p;
  for (BorderMode mode : kBorderModes) EXPECT_EQ(border_index(mode, -1000000007LL, 1), 0) << name(mode);
}

TEST(Border, NamesAndValues) {
  for (BorderMode mode : kBorderModes) EXPECT_EQ(parse_border_mode(name(mode)), mode);
  EXPECT_FALSE(parse_border_mode("mirror"));
  EXPECT_FALSE(parse_border_mode("Clamp"));
  EXPECT_EQ(parse_border_value("0.5, 0,0 ,1"), (Rgba{0.5f, 0.0f, 0.0f, 1.0f}));
  EXPECT_EQ(parse_border_value("65504,0,0,0"), (Rgba{65504.0f, 0.0f, 0.0f, 0.0f}));
  for (const char* bad :
       {"", "1,2,3", "1,2,3,4,5", "a,0,0,0", "-1,0,0,0", "70000,0,0,0", "nan,0,0,0", "inf,0,0,0", "1,,0,0"}) {
    std::string why;
    EXPECT_FALSE(parse_border_value(bad, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
  EXPECT_EQ(describe(Border{BorderMode::Wrap}), "wrap");
  EXPECT_EQ(describe(Border{BorderMode::Constant, {0.5f, 0.0f, 0.25f, 1.0f}}), "constant(0.5,0,0.25,1)");
}

TEST(Border, ConstantIsATexelOfTheInputFormat) {
  const Rgba given{0.3f, 1.0f / 3.0f, 0.0f, 1.0f};
  const Rgba rgba8 = texel_value(given, gl::Format::rgba8);
  EXPECT_EQ(rgba8[0], static_cast<float>(77 / 255.0));  // 0.3 * 255 = 76.5 rounds up
  EXPECT_EQ(rgba8[1], static_cast<float>(85 / 255.0));
  EXPECT_EQ(rgba8[3], 1.0f);
  EXPECT_EQ(texel_value({2.0f, 0, 0, 0}, gl::Format::rgba8)[0], 2.0f);     // left for the refusal to name
  EXPECT_EQ(texel_value(given, gl::Format::rgba16f)[0], 0.300048828125f);  // 0x34CD, the nearest half
  EXPECT_EQ(texel_value(given, gl::Format::rgba32f), given);
}

gl::GlLimits some_device() {
  gl::GlLimits limits;
  limits.max_texture_size = 16384;
  limits.max_compute_invocations = 1024;
  limits.max_compute_workgroup_size[0] = limits.max_compute_workgroup_size[1] = 1024;
  limits.max_compute_workgroup_size[2] = 64;
  limits.max_compute_shared_memory = 32768;
  return limits;
}

TEST(Border, ResolveRoundsTheConstantAndRefusesWhatRgba8CannotHold) {
  const VariantInfo& separable = *find_variant("compute-separable");
  BlurSettings s;
  s.border = {BorderMode::Constant, {0.3f, 0.0f, 0.0f, 1.0f}};
  EXPECT_EQ(resolve(separable, s).border.value[0], static_cast<float>(77 / 255.0));
  s.border.mode = BorderMode::Wrap;
  EXPECT_EQ(resolve(separable, s).border.value, Rgba{}) << "the value belongs to constant mode only";
  s.border = {BorderMode::Reflect, {}};
  EXPECT_EQ(resolve(*find_variant("copy"), s).border, Border{}) << "the copy pass reads no border";

  const gl::GlLimits limits = some_device();
  s.border = {BorderMode::Constant, {0.0f, 1.5f, 0.0f, 1.0f}};
  const auto refusal = unsupported_reason(separable, resolve(separable, s), {16, 16}, limits);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->limit, Limit::Setting);
  EXPECT_NE(refusal->reason.find("rgba8 texel holds 0..1, not 1.5"), std::string::npos) << refusal->reason;
  s.input_format = gl::Format::rgba16f;
  s.intermediate = gl::Format::rgba16f;
  EXPECT_FALSE(unsupported_reason(separable, resolve(separable, s), {16, 16}, limits)) << "rgba16f holds 1.5";
}

TEST(Border, VariantsRefuseTheModesTheyDeclare) {
  // A variant whose sampler coordinates cannot express a mode declares it (VariantInfo::
  // refused_borders); the pipeline refuses it with the reason, and only it.
  VariantInfo v = *find_variant("compute-separable");
  v.refused_borders = {{BorderMode::Reflect101, "the sampler cannot mirror about a texel centre"}};
  const gl::GlLimits limits = some_device();
  for (BorderMode mode : kBorderModes) {
    BlurSettings s;
    s.border.mode = mode;
    const auto refusal = unsupported_reason(v, resolve(v, s), {16, 16}, limits);
    if (mode == BorderMode::Reflect101) {
      ASSERT_TRUE(refusal);
      EXPECT_EQ(refusal->limit, Limit::Border);
      EXPECT_EQ(refusal->reason, "border reflect101: the sampler cannot mirror about a texel centre");
    } else {
      EXPECT_FALSE(refusal) << name(mode) << ": " << refusal->reason;
    }
  }
}

// A 3x1 image, R: a b c = 0.2 0.4 1.0 (and G: c b a, mirrored), blurred by a box of r = 2 and
// r = 4, by hand from OpenCV's pictures. Along y the image is 1 texel: every index mode reads
// the row itself, constant reads the value v in the 4 (r = 2) or 8 (r = 4) other rows.
TEST(Reference, BordersByHandOnATinyImage) {
  const double a = 0.2, b = 0.4, c = 1.0, v = 0.6;
  Image in(3, 1);
  for (int x = 0; x < 3; ++x) {
    const double abc[3] = {a, b, c};
    in.at(x, 0, 0) = static_cast<float>(abc[x]);
    in.at(x, 0, 1) = static_cast<float>(abc[2 - x]);
    in.at(x, 0, 2) = 0.0f;
    in.at(x, 0, 3) = 1.0f;
  }
  struct Case {
    BorderMode mode;
    int radius;
    double red[3];  // the expected R of x = 0, 1, 2
  };
  const Case cases[] = {
      // r = 2: taps x-2 .. x+2.
      {BorderMode::Clamp, 2, {(3 * a + b + c) / 5, (2 * a + b + 2 * c) / 5, (a + b + 3 * c) / 5}},  // aa|abc|cc
      {BorderMode::Reflect,
       2,
       {(2 * a + 2 * b + c) / 5, (2 * a + b + 2 * c) / 5, (a + 2 * b + 2 * c) / 5}},  // ba|abc|cb
      {BorderMode::Reflect101,
       2,
       {(a + 2 * b + 2 * c) / 5, (a + 3 * b + c) / 5, (2 * a + 2 * b + c) / 5}},                           // cb|abc|ba
      {BorderMode::Wrap, 2, {(a + 2 * b + 2 * c) / 5, (2 * a + b + 2 * c) / 5, (2 * a + 2 * b + c) / 5}},  // bc|abc|ab
      // Constant: each row's sum of 5 taps, then 1 row of the image and 4 of v, over 25.
      {BorderMode::Constant,
       2,
       {(2 * v + a + b + c + 20 * v) / 25, (a + b + c + 2 * v + 20 * v) / 25, (a + b + c + 2 * v + 20 * v) / 25}},
      // r = 4: taps x-4 .. x+4, past one reflection.
      {BorderMode::Clamp,
       4,
       {(5 * a + b + 3 * c) / 9, (4 * a + b + 4 * c) / 9, (3 * a + b + 5 * c) / 9}},  // aaaa|abc|cccc
      {BorderMode::Reflect,
       4,
       {(2 * a + 3 * b + 4 * c) / 9, (3 * a + 3 * b + 3 * c) / 9, (4 * a + 3 * b + 2 * c) / 9}},  // ccba|abc|cbaa
      {BorderMode::Reflect101,
       4,
       {(3 * a + 4 * b + 2 * c) / 9, (2 * a + 5 * b + 2 * c) / 9, (2 * a + 4 * b + 3 * c) / 9}},  // abcb|abc|babc
      {BorderMode::Wrap,
       4,
       {(3 * a + 3 * b + 3 * c) / 9, (3 * a + 3 * b + 3 * c) / 9, (3 * a + 3 * b + 3 * c) / 9}},  // bcabc|abc|abca
      {BorderMode::Constant,
       4,
       {(a + b + c + 6 * v + 72 * v) / 81, (a + b + c + 6 * v + 72 * v) / 81, (a + b + c + 6 * v + 72 * v) / 81}},
  };
  for (const Case& k : cases) {
    Border border{k.mode};
    if (k.mode == BorderMode::Constant)
      border.value = {static_cast<float>(v), static_cast<float>(v), static_cast<float>(v), static_cast<float>(v)};
    const auto weights = kernel_weights(make_kernel(KernelType::Box, k.radius, std::nullopt));
    const ReferenceImage separable = reference_blur(in, weights, border),
                         direct = reference_blur_direct(in, weights, border);
    for (int x = 0; x < 3; ++x) {
      EXPECT_NEAR(separable.at(x, 0, 0), k.red[x], 1e-6) << name(k.mode) << " r=" << k.radius << " x=" << x;
      EXPECT_NEAR(direct.at(x, 0, 0), k.red[x], 1e-6) << name(k.mode) << " r=" << k.radius << " x=" << x;
      EXPECT_NEAR(separable.at(2 - x, 0, 1), separable.at(x, 0, 0), 1e-6) << "G is R mirrored: " << name(k.mode);
    }
  }
}

TEST(Reference, SeparableEqualsDirectSumForEveryBorder) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (BorderMode mode : kBorderModes)
    for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 2}, std::pair{13, 7}})
      for (int r : {1, 5, 64}) {
        Image in(w, h);
        for (float& t : in.texels) t = u(rng);
        const Border border{mode, {0.25f, 0.5f, 0.75f, 1.0f}};
        const auto weights = kernel_weights(make_kernel(KernelType::Gauss, r, std::nullopt));
        const ReferenceImage a = reference_blur(in, weights, border), b = reference_blur_direct(in, weights, border);
        for (size_t i = 0; i < a.texels.size(); ++i)
          ASSERT_NEAR(a.texels[i], b.texels[i], 1e-13) << name(mode) << " r=" << r << " " << w << "x" << h;
      }
}

}  // namespace
}  // namespace blurlab
