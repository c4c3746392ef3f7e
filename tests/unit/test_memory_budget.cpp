// The memory a headless run needs, and the bound it is held to.
#include <gtest/gtest.h>

#include "blur/registry.h"
#include "image/memory_budget.h"

namespace blurlab {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

TEST(MemoryBudget, BytesPerTexelOfARun) {
  RunMemoryPlan plan;
  plan.image_file = true;
  // image 16 + rgba8 textures 8 + intermediate 16 + read-backs 32 + reference 32 + its row pass 32.
  EXPECT_EQ(estimate_run_memory(100, 100, plan).bytes_per_texel, 136u);
  EXPECT_EQ(estimate_run_memory(100, 100, plan).bytes, kFixedRunBytes + 136u * 10000);
  plan.texture_bytes_per_texel = 8;  // rgba16f textures
  EXPECT_EQ(estimate_run_memory(1, 1, plan).bytes_per_texel, 144u);
  plan.kernels = 3;  // each kernel's reference is kept
  EXPECT_EQ(estimate_run_memory(1, 1, plan).bytes_per_texel, 208u);
  plan = RunMemoryPlan{};  // the scene: no decoded file
  EXPECT_EQ(estimate_run_memory(1, 1, plan).bytes_per_texel, 120u);
  EXPECT_NE(estimate_run_memory(1, 1, plan).parts.find("textures 8"), std::string::npos);
}

// A radius map is weighed by its header before it is decoded: its file, the decoded float RGBA
// (16 bytes per texel), its values (2) and an interlaced file's decoder rows.
TEST(MemoryBudget, ARadiusMapIsWeighedByItsHeader) {
  const MemoryBound bound = memory_bound_from(4 * kGiB, std::nullopt, std::nullopt);  // 3 GiB
  EXPECT_FALSE(map_memory_problem(8192, 8192, 100, 0, bound));                      // 1.25 GiB
  const auto problem = map_memory_problem(16384, 16384, 100, 4, bound);             // 5.6 GiB
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("16384x16384 needs about "), std::string::npos) << *problem;
  EXPECT_NE(problem->find("(22 bytes per texel: decoded 16 + values 2 + decoder 4;"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("more than the bound of "), std::string::npos) << *problem;
  EXPECT_FALSE(map_memory_problem(16384, 16384, 100, 0, memory_bound_from(16 * kGiB, std::nullopt, std::nullopt)));
}

TEST(MemoryBudget, AVariantsLargerIntermediatesCount) {
  RunMemoryPlan plan;
  plan.intermediate_bytes_per_texel = 36;
  EXPECT_EQ(estimate_run_memory(1, 1, plan).bytes_per_texel, 140u);  // the scene's 120, 20 more
  EXPECT_NE(estimate_run_memory(1, 1, plan).parts.find("intermediate 36"), std::string::npos);
}

TEST(MemoryBudget, TheSummedAreaTableIsDeclared) {
  // variable-sat's table of 16384^2 padded by R = 64 on each side, in tiles of 16 x 16 plus a
  // column per tile column and a row per tile row: 1032 x 1032 tiles, 17544 x 17544 texels of 16
  // bytes (32 for float input: two textures).
  const VariantInfo& sat = *find_variant("variable-sat");
  BlurSettings s = resolve(sat, BlurSettings{.kernel = make_kernel(KernelType::Box, 64, std::nullopt)});
  const double texels = 17544.0 * 17544.0;
  ASSERT_TRUE(sat.intermediate_bytes);
  EXPECT_DOUBLE_EQ(sat.intermediate_bytes(s, {16384, 16384}), 16.0 * texels);
  s.input_format = gl::Format::rgba16f;
  EXPECT_DOUBLE_EQ(sat.intermediate_bytes(s, {16384, 16384}), 32.0 * texels);
  // variable-layers: a scratch and four layers in rgba32f, and its check's five double RGBA layers.
  const VariantInfo& layers = *find_variant("variable-layers");
  ASSERT_TRUE(layers.intermediate_bytes);
  EXPECT_DOUBLE_EQ(layers.intermediate_bytes(resolve(layers, BlurSettings{}), {100, 10}), 240.0 * 1000);
  for (const VariantInfo* v : variants()) {  // the others keep one rgba32f texture at most
    if (v->name != "variable-sat" && v->name != "variable-layers") {
      EXPECT_FALSE(v->intermediate_bytes) << v->name;
    }
  }
}

TEST(MemoryBudget, DecodingCountsWhereItIsLarger) {
  // A 1x1 image in a 100 MiB file (metadata) needs the file while it is decoded.
  RunMemoryPlan plan;
  plan.image_file = true;
  plan.file_bytes = 100u << 20;
  EXPECT_EQ(estimate_run_memory(1, 1, plan).bytes, kFixedRunBytes + (100u << 20) + 16);
}

TEST(MemoryBudget, BoundIsThreeQuartersOfTheLowestLimit) {
  EXPECT_EQ(memory_bound_from(16 * kGiB, std::nullopt, std::nullopt).bytes, 12 * kGiB);
  EXPECT_EQ(memory_bound_from(16 * kGiB, std::nullopt, std::nullopt).source, "3/4 of 16.0 GiB of physical memory");
  EXPECT_EQ(memory_bound_from(16 * kGiB, 4 * kGiB, std::nullopt).bytes, 3 * kGiB);
  EXPECT_NE(memory_bound_from(16 * kGiB, 4 * kGiB, std::nullopt).source.find("cgroup"), std::string::npos);
  EXPECT_EQ(memory_bound_from(16 * kGiB, 64 * kGiB, 8 * kGiB).bytes, 6 * kGiB);
  EXPECT_NE(memory_bound_from(16 * kGiB, 64 * kGiB, 8 * kGiB).source.find("RLIMIT"), std::string::npos);
  // This machine's: something, and no more than it has.
  const MemoryBound here = memory_bound();
  EXPECT_GT(here.bytes, 0u);
  EXPECT_FALSE(here.source.empty());
}

TEST(MemoryBudget, TheLargestImageIsRefusedWithTheNumbers) {
  RunMemoryPlan plan;
  plan.image_file = true;
  const MemoryBound bound = memory_bound_from(16 * kGiB, std::nullopt, std::nullopt);
  const auto problem = run_memory_problem(16384, 16384, plan, bound);
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem,
            "16384x16384 needs about 34.1 GiB (136 bytes per texel: image 16 + textures 8 + intermediate 16 + read-backs 32 + "
            "references 32 + reference pass 32; and 128.0 MiB for the program and GL driver), more than the bound of 12.0 GiB "
            "(3/4 of 16.0 GiB of physical memory)");
  EXPECT_FALSE(run_memory_problem(4096, 4096, plan, bound));  // 2.3 GiB
}

}  // namespace
}  // namespace blurlab
