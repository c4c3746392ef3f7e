// Every variant's tolerance, pinned with its reason in one table. Each check of a variant (the GL
// grid, the image tests, --check) allows what the variant states (tolerance_for: an exact
// variant's 1 or 2 LSB, an approximation's bound against its CPU model built pass by pass), so a
// tolerance that grows would let every one of them pass a worse blur: here it changes a row. A
// row changes only with the variant's algorithm, and the new row's reason says why.
//
// The settings: the variant's kernel (the Gaussian where it blurs one, else the box) at r = 9
// (sigma 3) and r = 30 (sigma 10), 131x97, its default knobs and intermediate; rgba8 input, and
// rgba16f input of peak 4 at r = 9. On a mismatch the test prints the row the variant states now.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "blur/check.h"
#include "blur/registry.h"

namespace blurlab {
namespace {

struct PinnedTolerance {
  std::string_view variant;
  int lsb_r9;                  // rgba8, r = 9
  int lsb_r30;                 // rgba8, r = 30
  std::string_view reason_r9;  // rgba8, r = 9
  double float_relative;       // rgba16f, r = 9: |gpu - ref| <= relative |ref| + absolute
  double float_absolute;
  std::string_view float_reason;
};

// clang-format off
const std::vector<PinnedTolerance> kPinned = {
    {"copy", 0, 0,
     "exact: a copy",
     0.0009765625, 5.9604644775390625e-08,
     "float: 1 ulp of the fp16 output + 0 fp32 roundings, all times the input peak 4"},
    {"frag-naive", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 9.0658664703369141e-05,
     "float: 1 ulp of the fp16 output + 380 fp32 roundings, all times the input peak 4"},
    {"frag-separable", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0039158463478088379,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings + intermediate rounding, all times the input peak 4"},
    {"frag-separable-linear", 2, 2,
     "2 LSB: texture units filter with 8-bit weights",
     0.0009765625, 0.019537985324859619,
     "float: 1 ulp of the fp16 output + 28 fp32 roundings + intermediate rounding + 8-bit filter weights, all times the input peak 4"},
    {"frag-linear-2d", 2, 2,
     "2 LSB: texture units filter with 8-bit weights",
     0.0009765625, 0.015657484531402588,
     "float: 1 ulp of the fp16 output + 136 fp32 roundings + 8-bit filter weights, all times the input peak 4"},
    {"compute-naive", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 9.0658664703369141e-05,
     "float: 1 ulp of the fp16 output + 380 fp32 roundings, all times the input peak 4"},
    {"compute-separable", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0039158463478088379,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings + intermediate rounding, all times the input peak 4"},
    {"compute-separable-linear", 2, 2,
     "2 LSB: texture units filter with 8-bit weights",
     0.0009765625, 0.019537985324859619,
     "float: 1 ulp of the fp16 output + 28 fp32 roundings + intermediate rounding + 8-bit filter weights, all times the input peak 4"},
    {"compute-naive-lds", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 9.0658664703369141e-05,
     "float: 1 ulp of the fp16 output + 380 fp32 roundings, all times the input peak 4"},
    {"compute-separable-lds", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0039158463478088379,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings + intermediate rounding, all times the input peak 4"},
    {"compute-inline-lds", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 9.5963478088378906e-06,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings, all times the input peak 4"},
    {"compute-inline-persistent", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 9.5963478088378906e-06,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings, all times the input peak 4"},
    {"compute-inline-regblock", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0039158463478088379,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings + cache fp16 rounding, all times the input peak 4"},
    {"compute-strip-regblock", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0039158463478088379,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings + cache fp16 rounding, all times the input peak 4"},
    {"compute-separable-regblock", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0078220963478088379,
     "float: 1 ulp of the fp16 output + 40 fp32 roundings + intermediate rounding + cache fp16 rounding, all times the input peak 4"},
    {"compute-sliding", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0039500531397367779,
     "float: 1 ulp of the fp16 output + 183.5 fp32 roundings + intermediate rounding, all times the input peak 4"},
    {"compute-sliding-inline", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 4.3589817850213299e-05,
     "float: 1 ulp of the fp16 output + 182.6 fp32 roundings, all times the input peak 4"},
    {"compute-sliding-tiles", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0039173772460535956,
     "float: 1 ulp of the fp16 output + 46.42 fp32 roundings + intermediate rounding, all times the input peak 4"},
    {"compute-sliding-subgroup", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0040125940975389981,
     "float: 1 ulp of the fp16 output + 445.8 fp32 roundings + intermediate rounding, all times the input peak 4"},
    {"compute-scan", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 8.438449156911748e-05,
     "float: 1 ulp of the fp16 output + 353.7 fp32 roundings, all times the input peak 4"},
    {"compute-box-prefix", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.00044616586283633585,
     "float: 1 ulp of the fp16 output + 1871 fp32 roundings, all times the input peak 4"},
    {"compute-box-blocked", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.00044616586283633585,
     "float: 1 ulp of the fp16 output + 1871 fp32 roundings, all times the input peak 4"},
    {"box-iterated", 1, 1,
     "1 LSB against its CPU model (three boxes per axis in integers, 2 passes): 0 steps before the output's rounding (1 rgba8 stores of tie-free sums (exact)) + 1 for the rounding",
     0.0009765625, 0.0029649267877851211,
     "float, against its CPU model (three boxes per axis in fp32, 2 passes): 1 ulp of the fp16 output + 0.00296 (1 fp16 stores (1.5 ulp: GL may truncate), 147.6 fp32 roundings), input peak 4"},
    {"kawase", 6, 14,
     "6 LSB against its CPU model (3 Kawase passes): 5 steps before the output's rounding (2 rgba8 stores (+1 step each), 3 passes of filtered fetches (3 steps), 84 fp32 roundings) + 1 for the rounding",
     0.0009765625, 0.0093799233436584473,
     "float, against its CPU model (3 Kawase passes): 1 ulp of the fp16 output + 0.00938 (2 fp16 stores (1.5 ulp: GL may truncate), 3 passes of filtered fetches (0.223 steps), 84 fp32 roundings), input peak 4"},
    {"fft", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 0.0046884055251378088,
     "float: 1 ulp of the fp16 output + 3280 fp32 roundings + intermediate rounding, all times the input peak 4"},
    {"dual-kawase", 2, 6,
     "2 LSB against its CPU model (1 levels down and up): 1 steps before the output's rounding (1 passes of filtered fetches (1 steps), 67 fp32 roundings) + 1 for the rounding",
     0.0009765625, 0.0011900067329406738,
     "float, against its CPU model (1 levels down and up): 1 ulp of the fp16 output + 0.00119 (1 passes of filtered fetches (0.0748 steps), 67 fp32 roundings), input peak 4"},
    {"recursive-gaussian", 2, 2,
     "2 LSB against its CPU model (recursive filter, 4 passes): 1.46 steps before the output's rounding (3 fp16 stores (1.5 ulp: GL may truncate), 358.1 fp32 roundings) + 1 for the rounding",
     0.0009765625, 0.022826392491280118,
     "float, against its CPU model (recursive filter, 4 passes): 1 ulp of the fp16 output + 0.0228 (3 fp16 stores (1.5 ulp: GL may truncate), 358.1 fp32 roundings), input peak 4"},
    {"recursive-gaussian-blocks", 2, 3,
     "2 LSB against its CPU model (recursive filter in blocks, 2 passes): 1.52 steps before the output's rounding (3 fp16 stores (1.5 ulp: GL may truncate), 2873 fp32 roundings) + 1 for the rounding",
     0.0009765625, 0.023814610327777107,
     "float, against its CPU model (recursive filter in blocks, 2 passes): 1 ulp of the fp16 output + 0.0238 (3 fp16 stores (1.5 ulp: GL may truncate), 2873 fp32 roundings), input peak 4"},
    {"variable-naive", 1, 1,
     "1 LSB: rgba8 rounding (of the intermediate, then of the output)",
     0.0009765625, 9.0658664703369141e-05,
     "float: 1 ulp of the fp16 output + 380 fp32 roundings, all times the input peak 4"},
    {"variable-sat", 0, 0,
     "exact: integer sums (modulo 2^32, box sums below 2^24) rounded to the nearest step in integers (odd counts: no ties)",
     0.0009765625, 3.1530857086181641e-05,
     "float: 1 ulp of the fp16 output + 2^-15 (the texels in fixed point, 2^14 units) + 4 fp32 roundings of the input peak 4"},
    {"variable-pyramid", 1, 1,
     "1 LSB against its CPU model (pyramid of 2x2 means in fp32, two levels blended per pixel): 0.00154 steps before the output's rounding (3 fp32 stores (1.5 ulp), 97 fp32 roundings) + 1 for the rounding",
     0.0009765625, 2.4259090423583984e-05,
     "float, against its CPU model (pyramid of 2x2 means in fp32, two levels blended per pixel): 1 ulp of the fp16 output + 2.42e-05 (3 fp32 stores (1.5 ulp), 97 fp32 roundings), input peak 4"},
    {"variable-layers", 1, 1,
     "1 LSB against its CPU model (4 exact separable layers in fp32, two blended per pixel): 0.00125 steps before the output's rounding (2 fp32 stores (1.5 ulp), 79 fp32 roundings) + 1 for the rounding",
     0.0009765625, 1.9609928131103516e-05,
     "float, against its CPU model (4 exact separable layers in fp32, two blended per pixel): 1 ulp of the fp16 output + 1.96e-05 (2 fp32 stores (1.5 ulp), 79 fp32 roundings), input peak 4"},
};
// clang-format on

constexpr glm::ivec2 kSize{131, 97};
constexpr double kFloatPeak = 4.0;

Tolerance stated(const VariantInfo& v, int radius, gl::Format input, double peak) {
  BlurSettings s;
  s.kernel = make_kernel(v.kernels == KernelSupport::BoxOnly ? KernelType::Box : KernelType::Gauss, radius, std::nullopt);
  s.input_format = input;
  return tolerance_for(v, resolve(v, s), kSize, peak);
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// The row the variant states now, as C++ for kPinned.
std::string row_text(const VariantInfo& v) {
  const Tolerance r9 = stated(v, 9, gl::Format::rgba8, 1.0), r30 = stated(v, 30, gl::Format::rgba8, 1.0),
                  f = stated(v, 9, gl::Format::rgba16f, kFloatPeak);
  char numbers[128];
  std::snprintf(numbers, sizeof numbers, "%.17g, %.17g", f.relative, f.absolute);
  return "    {\"" + std::string(v.name) + "\", " + std::to_string(r9.lsb_limit) + ", " + std::to_string(r30.lsb_limit) + ",\n     " +
         quoted(r9.reason) + ",\n     " + numbers + ",\n     " + quoted(f.reason) + "},";
}

TEST(Tolerances, EveryVariantStatesThePinnedTolerance) {
  for (const VariantInfo* v : variants()) {
    const PinnedTolerance* pinned = nullptr;
    for (const PinnedTolerance& p : kPinned)
      if (p.variant == v->name) pinned = &p;
    if (!pinned) {
      ADD_FAILURE() << v->name << " has no row in kPinned; it states:\n" << row_text(*v);
      continue;
    }
    const Tolerance r9 = stated(*v, 9, gl::Format::rgba8, 1.0), r30 = stated(*v, 30, gl::Format::rgba8, 1.0),
                    f = stated(*v, 9, gl::Format::rgba16f, kFloatPeak);
    ASSERT_TRUE(r9.lsb && r30.lsb) << v->name << ": rgba8 output is checked in steps";
    ASSERT_FALSE(f.lsb) << v->name << ": float output is checked in values";
    const bool same = r9.lsb_limit == pinned->lsb_r9 && r30.lsb_limit == pinned->lsb_r30 && r9.reason == pinned->reason_r9 &&
                      f.relative == pinned->float_relative && f.absolute == pinned->float_absolute && f.reason == pinned->float_reason;
    EXPECT_TRUE(same) << v->name << " states another tolerance than its pinned row; it states:\n" << row_text(*v);
  }
  for (const PinnedTolerance& p : kPinned) EXPECT_TRUE(find_variant(p.variant)) << p.variant << " is pinned but not registered";
}

}  // namespace
}  // namespace blurlab
