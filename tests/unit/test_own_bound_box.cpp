// The own bounds (VariantInfo::own_bound) of the running-sum boxes, box-iterated and the recursive
// Gaussians against hand counts: bytes each pass must move (its source read once, its destination
// written once, at its formats), no bilinear fetches, and the adds or FMAs their algorithm needs at
// least, at odd sizes and for each intermediate format.
#include <gtest/gtest.h>

#include "blur/registry.h"

namespace blurlab {
namespace {

WorkBound bound(std::string_view name, glm::ivec2 size, gl::Format input, std::optional<gl::Format> mid = std::nullopt,
                KernelType type = KernelType::Box, int radius = 8) {
  const VariantInfo* v = find_variant(name);
  EXPECT_NE(v, nullptr) << name;
  EXPECT_NE(v->own_bound, nullptr) << name << " declares no own bound";
  BlurSettings s;
  s.kernel = type == KernelType::Box ? make_kernel(KernelType::Box, radius, std::nullopt) : make_kernel(KernelType::Gauss, std::nullopt, 10.0);
  s.input_format = input;
  s.intermediate = mid;
  return v->own_bound(resolve(*v, s), size);
}

// 517 x 389 = 201113 texels, 131 x 97 = 12707, 3 x 2 = 6.
constexpr glm::ivec2 kLarge{517, 389}, kSmall{131, 97}, kTiny{3, 2};

TEST(OwnBoundBox, TwoPassesOfRunningSums) {
  for (const char* name : {"compute-sliding", "compute-sliding-tiles", "compute-sliding-subgroup"}) {
    // rgba8 through an rgba8 intermediate: rows 4 + 4 bytes, columns 4 + 4 bytes a texel.
    WorkBound b = bound(name, kLarge, gl::Format::rgba8);
    EXPECT_DOUBLE_EQ(b.bytes, 201113.0 * 16) << name;
    EXPECT_DOUBLE_EQ(b.bilinear_fetches, 0.0) << name;
    // Two passes, each texel entering and leaving 4 channels' sums: 16 adds a texel.
    EXPECT_DOUBLE_EQ(b.fmas, 201113.0 * 16) << name;
    // rgba16f intermediate: rows 4 + 8, columns 8 + 4.
    EXPECT_DOUBLE_EQ(bound(name, kSmall, gl::Format::rgba8, gl::Format::rgba16f).bytes, 12707.0 * 24) << name;
    // rgba16f input, rgba32f intermediate: rows 8 + 16, columns 16 + 8.
    EXPECT_DOUBLE_EQ(bound(name, kTiny, gl::Format::rgba16f, gl::Format::rgba32f).bytes, 6.0 * 48) << name;
  }
  // compute-scan's intermediate is always rgba32f (raw sums): rows 4 + 16, columns 16 + 4.
  EXPECT_DOUBLE_EQ(bound("compute-scan", kLarge, gl::Format::rgba8).bytes, 201113.0 * 40);
  EXPECT_DOUBLE_EQ(bound("compute-scan", kLarge, gl::Format::rgba8).fmas, 201113.0 * 16);
}

TEST(OwnBoundBox, OnePassBoxes) {
  // One read and one write of the image: 8 bytes a texel (rgba8), 16 (rgba16f).
  EXPECT_DOUBLE_EQ(bound("compute-sliding-inline", kLarge, gl::Format::rgba8).bytes, 201113.0 * 8);
  EXPECT_DOUBLE_EQ(bound("compute-sliding-inline", kLarge, gl::Format::rgba8).fmas, 201113.0 * 16);  // both axes' sums
  for (const char* name : {"compute-box-prefix", "compute-box-blocked"}) {
    EXPECT_DOUBLE_EQ(bound(name, kSmall, gl::Format::rgba8).bytes, 12707.0 * 8) << name;
    EXPECT_DOUBLE_EQ(bound(name, kSmall, gl::Format::rgba16f).bytes, 12707.0 * 16) << name;
    // A column's running sum (2 adds a channel), a row's prefix sum (1) and a window's difference (1).
    EXPECT_DOUBLE_EQ(bound(name, kTiny, gl::Format::rgba8).fmas, 6.0 * 16) << name;
  }
}

TEST(OwnBoundBox, Approximations) {
  // box-iterated: two passes (its rgba8 default intermediate), three boxes' running sums each.
  WorkBound boxes = bound("box-iterated", kLarge, gl::Format::rgba8, std::nullopt, KernelType::Gauss);
  EXPECT_DOUBLE_EQ(boxes.bytes, 201113.0 * 16);
  EXPECT_DOUBLE_EQ(boxes.fmas, 201113.0 * 48);
  EXPECT_DOUBLE_EQ(bound("box-iterated", kSmall, gl::Format::rgba8, gl::Format::rgba16f, KernelType::Gauss).bytes, 12707.0 * 24);
  // recursive-gaussian-blocks: two passes through its rgba16f default intermediate (4 + 8, 8 + 4);
  // 5 FMAs a channel per sweep, four sweeps per axis (zero state and refilter, both ways).
  WorkBound blocks = bound("recursive-gaussian-blocks", kLarge, gl::Format::rgba8, std::nullopt, KernelType::Gauss);
  EXPECT_DOUBLE_EQ(blocks.bytes, 201113.0 * 24);
  EXPECT_DOUBLE_EQ(blocks.fmas, 201113.0 * 160);
  // recursive-gaussian: the same passes, and per axis its causal output written to the scratch
  // texture and read back (8 + 8 bytes); two sweeps per axis.
  WorkBound serial = bound("recursive-gaussian", kTiny, gl::Format::rgba8, std::nullopt, KernelType::Gauss);
  EXPECT_DOUBLE_EQ(serial.bytes, 6.0 * (24 + 2 * 16));
  EXPECT_DOUBLE_EQ(serial.fmas, 6.0 * 80);
  EXPECT_DOUBLE_EQ(bound("recursive-gaussian", kTiny, gl::Format::rgba16f, gl::Format::rgba32f, KernelType::Gauss).bytes,
                   6.0 * (48 + 2 * 32));
}

}  // namespace
}  // namespace blurlab
