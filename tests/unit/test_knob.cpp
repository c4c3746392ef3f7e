// Knobs as data: parsing and printing values, shader defines, and the registry's promises (a knob
// name means one thing across variants; every candidate is a valid value; defaults first).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "blur/registry.h"

namespace blurlab {
namespace {

// Whether a file of glsl/ names `define` as a whole word.
bool glsl_reads(const std::string& define) {
  static const std::string all = [] {
    std::string text;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(BLURLAB_GLSL_DIR)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path());
      text += std::string(std::istreambuf_iterator<char>(in), {}) + "\n";
    }
    return text;
  }();
  return std::regex_search(all, std::regex("\\b" + define + "\\b"));
}

// A knob the host resolves (no define) reaches no shader as given.
TEST(Knob, WithoutADefineDefinesNothing) {
  const Knob k{.name = "rows", .help = "host only", .min = 0, .max = 8, .candidates = {{0}}};
  EXPECT_TRUE(k.defines({4, 0}).empty());
}

TEST(Knob, IntegerParsesPrintsAndDefines) {
  const Knob k = knobs::segment({128, 64});
  EXPECT_EQ(k.default_value(0), (KnobValue{128, 0}));
  EXPECT_EQ(k.parse("256"), (KnobValue{256, 0}));
  std::string why;
  EXPECT_FALSE(k.parse("0", &why));
  EXPECT_EQ(why, "is out of range 1..16384");
  EXPECT_FALSE(k.parse("1.5", &why));
  EXPECT_EQ(why, "is not a whole number");
  EXPECT_EQ(k.text({64, 0}), "64");
  EXPECT_EQ(k.defines({64, 0}), (std::vector<std::pair<std::string, std::string>>{{"SEGMENT", "64"}}));
  EXPECT_TRUE(k.invalid({0, 0}));
  EXPECT_TRUE(k.invalid({16385, 0}));
  EXPECT_FALSE(k.invalid({16384, 0}));
}

TEST(Knob, DefaultsByRadiusApplyFromTheirRadiusUp) {
  Knob k = knobs::segment({128, 64, 32});
  k.default_by_radius = {{30, {64, 0}}, {90, {32, 0}}};
  EXPECT_EQ(k.default_value(0), (KnobValue{128, 0}));
  EXPECT_EQ(k.default_value(29), (KnobValue{128, 0}));
  EXPECT_EQ(k.default_value(30), (KnobValue{64, 0}));
  EXPECT_EQ(k.default_value(89), (KnobValue{64, 0}));
  EXPECT_EQ(k.default_value(90), (KnobValue{32, 0}));
  EXPECT_EQ(k.default_value(128), (KnobValue{32, 0}));
}

TEST(Knob, DefaultsBySideApplyFromTheirSideUpWhereTheSizeIsKnown) {
  Knob k = knobs::workgroup({{128, 4}, {256, 2}, {512, 1}});
  k.default_by_side = {{8065, {256, 2}}, {16129, {512, 1}}};
  EXPECT_EQ(k.default_value(30), (KnobValue{128, 4})) << "no size: the radius's default";
  EXPECT_EQ(k.default_value(30, glm::ivec2(8064, 8064)), (KnobValue{128, 4}));
  EXPECT_EQ(k.default_value(30, glm::ivec2(8065, 1)), (KnobValue{256, 2})) << "the longer side decides";
  EXPECT_EQ(k.default_value(30, glm::ivec2(1, 16129)), (KnobValue{512, 1}));
}

TEST(Knob, SizeTakesWxHOrARow) {
  const Knob k = knobs::workgroup({{16, 16}});
  EXPECT_EQ(k.parse("32x8"), (KnobValue{32, 8}));
  EXPECT_EQ(k.parse("256"), (KnobValue{256, 1}));
  std::string why;
  EXPECT_FALSE(k.parse("0x8", &why));
  EXPECT_EQ(why, "must have positive sides");
  EXPECT_FALSE(k.parse("4096x1", &why));
  EXPECT_EQ(why, "is larger than 1024 on a side");
  EXPECT_FALSE(k.parse("8x8x8", &why));
  EXPECT_EQ(k.text({32, 8}), "32x8");
  EXPECT_EQ(k.defines({32, 8}), (std::vector<std::pair<std::string, std::string>>{{"WG_X", "32"}, {"WG_Y", "8"}}));
  EXPECT_TRUE(k.invalid({0, 8}));
}

TEST(Knob, ChoiceByLabel) {
  const Knob* cache = find_any_knob("cache");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->parse("fp16"), (KnobValue{16, 0}));
  EXPECT_FALSE(cache->parse("16"));
  EXPECT_EQ(cache->text({32, 0}), "fp32");
  EXPECT_EQ(cache->form(), "fp32|fp16");
  EXPECT_TRUE(cache->invalid({8, 0}));
}

TEST(Registry, AKnobNameMeansOneThing) {
  // The command line has one option per knob name: variants sharing a name must share its
  // definition (only candidates may differ), or one option would mean two things.
  for (const VariantInfo* v : variants())
    for (const Knob& k : v->knobs) {
      const Knob* registered = find_any_knob(k.name);
      ASSERT_NE(registered, nullptr);
      EXPECT_TRUE(k.same_definition(*registered)) << v->name << "'s knob " << k.name << " differs from the first declaration";
    }
}

TEST(Registry, EveryCandidateIsAValueAndNamesAreUnique) {
  std::set<std::string_view> names;
  for (const VariantInfo* v : variants()) {
    EXPECT_TRUE(names.insert(v->name).second) << "two variants named " << v->name;
    std::set<std::string_view> knob_names;
    for (const Knob& k : v->knobs) {
      EXPECT_TRUE(knob_names.insert(k.name).second) << v->name << " declares " << k.name << " twice";
      ASSERT_FALSE(k.candidates.empty()) << v->name << "'s " << k.name << " has no default";
      std::set<KnobValue> seen;
      for (KnobValue c : k.candidates) {
        EXPECT_FALSE(k.invalid(c)) << v->name << "'s " << k.name << " candidate " << k.text(c) << " " << *k.invalid(c);
        EXPECT_TRUE(seen.insert(c).second) << v->name << "'s " << k.name << " lists " << k.text(c) << " twice";
        EXPECT_EQ(k.parse(k.text(c)), c) << "text and parse disagree for " << k.text(c);
      }
      // Radius-dependent defaults: in increasing radius, each one of the candidates (which the tests try).
      for (size_t i = 0; i < k.default_by_radius.size(); ++i) {
        const auto& [radius, value] = k.default_by_radius[i];
        if (i > 0) {
          EXPECT_LT(k.default_by_radius[i - 1].first, radius) << v->name << "'s " << k.name << " defaults by radius out of order";
        }
        EXPECT_TRUE(seen.count(value)) << v->name << "'s " << k.name << " default from r = " << radius << ", " << k.text(value)
                                       << ", is not a candidate";
      }
      for (size_t i = 0; i < k.default_by_side.size(); ++i) {
        const auto& [side, value] = k.default_by_side[i];
        if (i > 0) {
          EXPECT_LT(k.default_by_side[i - 1].first, side) << v->name << "'s " << k.name << " defaults by side out of order";
        }
        EXPECT_TRUE(seen.count(value)) << v->name << "'s " << k.name << " default from side " << side << " is not a candidate";
      }
      EXPECT_FALSE(k.help.empty());
    }
    // Compute shaders need a workgroup; fragment shaders have none.
    EXPECT_EQ(find_knob(*v, "workgroup") != nullptr, v->stage == Stage::Compute) << v->name;
  }
}

// A knob's define reaches a shader: some file of glsl/ reads it (DEFINE_X for a size). A knob
// the host resolves has none (Knob::define).
TEST(Registry, EveryKnobDefineReachesAShader) {
  int defines = 0;
  for (const VariantInfo* v : variants())
    for (const Knob& k : v->knobs) {
      if (k.define.empty()) continue;
      const std::string read = std::string(k.define) + (k.type == KnobType::Size ? "_X" : "");
      EXPECT_TRUE(glsl_reads(read)) << v->name << "'s " << k.name << " defines " << read << ", which no shader in glsl/ reads";
      ++defines;
    }
  EXPECT_GT(defines, 10) << "the knobs' defines were not found";
}

TEST(Registry, RolesAreDeclaredNotNamed) {
  int floors = 0;
  std::set<Stage> baselines;
  for (const VariantInfo* v : variants()) {
    if (v->role == Role::Floor) ++floors;
    if (v->role == Role::Baseline) {
      EXPECT_TRUE(baselines.insert(v->stage).second) << "two baselines of one stage";
    }
  }
  EXPECT_EQ(floors, 1);
  EXPECT_EQ(baselines.size(), 2u);
}

// Each variant names its family: only the copy pass is of the copy family (the value a variant
// that names none gets); every family has a variant; the table lists each family once, in the
// enum's order, by a unique kebab-case name with a one-line description.
TEST(Registry, EveryVariantNamesItsFamily) {
  for (const VariantInfo* v : variants())
    EXPECT_EQ(v->family == Family::Copy, v->role == Role::Floor) << v->name << " is of family " << name(v->family);
  std::set<std::string_view> names;
  for (size_t i = 0; i < families().size(); ++i) {
    const FamilyInfo& f = families()[i];
    EXPECT_EQ(static_cast<size_t>(f.family), i) << f.name;
    EXPECT_TRUE(std::regex_match(std::string(f.name), std::regex("[a-z]+(-[a-z]+)*"))) << f.name;
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_FALSE(f.description.empty());
    EXPECT_EQ(f.description.find('\n'), std::string_view::npos) << f.name;
    EXPECT_TRUE(std::any_of(variants().begin(), variants().end(), [&f](const VariantInfo* v) { return v->family == f.family; }))
        << "family " << f.name << " has no variant";
  }
  EXPECT_EQ(families().size(), static_cast<size_t>(Family::VariableRadius) + 1);
}

TEST(Settings, ResolveKeepsExactlyTheVariantsKnobs) {
  const VariantInfo& sliding = *find_variant("compute-sliding");
  BlurSettings s;
  s.knobs["segment"] = {64, 0};
  s.knobs["block-x"] = {8, 0};  // another variant's knob: dropped
  const BlurSettings r = resolve(sliding, s);
  EXPECT_EQ(r.knobs.size(), sliding.knobs.size());
  EXPECT_EQ(r.knob("segment"), (KnobValue{64, 0}));
  EXPECT_EQ(r.knob("unroll"), find_knob(sliding, "unroll")->default_value(s.kernel.radius));
  EXPECT_EQ(r.knobs.count("block-x"), 0u);
  EXPECT_THROW(r.knob("block-x"), Error);
  EXPECT_EQ(describe(sliding, r).find("segment=64") != std::string::npos, true);
}

// The cliff a default must not return to: weighted taps unrolled whole past r = 64, the largest
// radius at which compute-separable-regblock's unrolled sums were measured at speed; at r = 90 the
// compiler left them as loops indexing the weights, a cliff (docs/EXPERIMENTS.md, "The exact
// Gaussian"). Every variant with the taps knob streams them there.
TEST(Defaults, NoVariantUnrollsItsTapsPastTheLargestRadiusMeasuredFast) {
  constexpr int kLargestFastUnrolled = 64;
  int variants_with_taps = 0;
  for (const VariantInfo* v : variants()) {
    const Knob* taps = find_knob(*v, "taps");
    if (!taps) continue;
    ++variants_with_taps;
    for (int r = kLargestFastUnrolled + 1; r <= kMaxRadius; ++r) {
      BlurSettings s;
      s.kernel = make_kernel(KernelType::Gauss, r, std::nullopt);
      EXPECT_EQ(taps->text(resolve(*v, s).knob("taps")), "streamed") << v->name << " unrolls its taps whole at r = " << r;
    }
  }
  EXPECT_GE(variants_with_taps, 2);  // compute-separable-regblock and compute-inline-regblock
}

// llvmpipe's compute limits (32 KiB of shared memory).
gl::GlLimits llvmpipe_limits() {
  gl::GlLimits limits;
  limits.max_compute_shared_memory = 32768;
  limits.max_compute_invocations = 1024;
  limits.max_compute_workgroup_size[0] = limits.max_compute_workgroup_size[1] = 1024;
  limits.max_texture_size = 16384;
  return limits;
}

TEST(Settings, OutOfRangeKnobsAreRefusedBeforeAnyShaderSeesThem) {
  // A value that got past the parsers (a hand-edited tuning file, say) is still refused.
  const gl::GlLimits limits = llvmpipe_limits();
  const VariantInfo& sliding = *find_variant("compute-sliding");
  BlurSettings s;
  s.kernel.type = KernelType::Box;
  s.knobs["segment"] = {0, 0};
  const auto refusal = unsupported_reason(sliding, resolve(sliding, s), {64, 64}, limits);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->limit, Limit::Setting);
  EXPECT_NE(refusal->reason.find("segment 0 is out of range"), std::string::npos) << refusal->reason;
}

// compute-box-blocked's own limits: each refusal is typed and names the numbers; its defaults run at
// the largest radius on llvmpipe's 32 KiB, in both input formats.
TEST(Settings, BoxBlockedRefusesWithTheNumbers) {
  const gl::GlLimits limits = llvmpipe_limits();
  const VariantInfo& blocked = *find_variant("compute-box-blocked");
  auto refusal = [&](int radius, KnobValues knobs, gl::Format input = gl::Format::rgba8) {
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Box, radius, std::nullopt);
    s.input_format = input;
    s.knobs = std::move(knobs);
    return unsupported_reason(blocked, resolve(blocked, s), {517, 389}, limits).value_or(Refusal{Limit::Setting, "runs"});
  };
  EXPECT_EQ(refusal(128, {}).reason, "runs");
  EXPECT_EQ(refusal(128, {}, gl::Format::rgba16f).reason, "runs");
  const Refusal columns = refusal(1, {{"columns", {3, 0}}});
  EXPECT_EQ(columns.limit, Limit::Knobs);
  EXPECT_NE(columns.reason.find("columns 3 is not a power of two"), std::string::npos) << columns.reason;
  const Refusal span = refusal(128, {{"workgroup", {32, 1}}, {"columns", {8, 0}}});
  EXPECT_EQ(span.limit, Limit::Reach);
  EXPECT_EQ(span.needed, 257);
  EXPECT_EQ(span.available, 256);
  EXPECT_NE(span.reason.find("a span of 32 x 8 = 256 columns leaves no tile beside the 2r = 256"), std::string::npos) << span.reason;
  // columns 0 (the default) widens the span to at least 4r: 32 x 16 = 512 at r = 128, but 32 columns at most.
  EXPECT_EQ(refusal(128, {{"workgroup", {32, 1}}}).reason, "runs");
  EXPECT_NE(refusal(128, {{"workgroup", {8, 1}}}).reason.find("a span of 8 x 32 = 256 columns"), std::string::npos);
  EXPECT_EQ(refusal(1, {{"workgroup", {16, 4}}}).limit, Limit::Knobs);
  const Refusal subgroup = refusal(1, {{"scan", {1, 0}}});
  EXPECT_EQ(subgroup.limit, Limit::Extension);
  EXPECT_EQ(subgroup.extension, "GL_KHR_shader_subgroup_arithmetic");
  // 2 rows x 1056 padded columns x (2 x 4 + 16) bytes + 2 x 128 totals of 16 bytes = 54784 bytes; at
  // r <= 7 the prefix sums are packed (8 bytes): 2 x 1056 x 16 + 2 x 128 x 8 = 35840 bytes.
  const KnobValues two_rows{{"batch", {2, 0}}, {"workgroup", {128, 1}}, {"columns", {8, 0}}};
  const Refusal r8 = refusal(8, two_rows), r7 = refusal(7, two_rows);
  EXPECT_EQ(r8.limit, Limit::SharedMemory);
  EXPECT_EQ(r8.needed, 54784);
  EXPECT_EQ(r8.available, 32768);
  EXPECT_NE(r8.reason.find("needs 53.5 KiB of shared memory (2 rows of 1024 columns"), std::string::npos) << r8.reason;
  EXPECT_EQ(r7.needed, 35840);
  EXPECT_NE(r7.reason.find("needs 35 KiB of shared memory (2 rows of 1024 columns"), std::string::npos) << r7.reason;
  EXPECT_NE(r7.reason.find("these knobs fit no radius"), std::string::npos) << r7.reason;  // packed below r = 8, still 35 KiB
}

// recursive-gaussian-blocks at 8192 and 16384 wide: the defaults the size decides run (8192 at
// the 128-block default once needed 65 texels a block and was refused); a workgroup given runs
// or is refused as given, with the width that would hold the line.
TEST(Settings, RecursiveGaussianBlocksDefaultsRunAtTheLargeSizes) {
  const gl::GlLimits limits = llvmpipe_limits();
  const VariantInfo& blocks = *find_variant("recursive-gaussian-blocks");
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Gauss, 30, 10.0);
  for (const glm::ivec2 size : {glm::ivec2(8192, 8192), glm::ivec2(16384, 16384), glm::ivec2(16384, 1), glm::ivec2(1, 8192),
                                glm::ivec2(4096, 4096)}) {
    const BlurSettings resolved = resolve(blocks, s, size);
    EXPECT_FALSE(unsupported_reason(blocks, resolved, size, limits))
        << size.x << "x" << size.y << ": " << unsupported_reason(blocks, resolved, size, limits)->reason;
  }
  EXPECT_EQ(resolve(blocks, s, glm::ivec2(8192, 8192)).knobs.at("workgroup"), (KnobValue{256, 2}));
  EXPECT_EQ(resolve(blocks, s, glm::ivec2(4096, 4096)).knobs.at("workgroup"), (KnobValue{128, 4}));
  BlurSettings given = s;
  given.knobs["workgroup"] = {128, 4};
  const auto refusal = unsupported_reason(blocks, resolve(blocks, given, glm::ivec2(8192, 64)), {8192, 64}, limits);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->limit, Limit::Reach);
  EXPECT_NE(refusal->reason.find("a row of 8192 texels in 128 blocks (the workgroup's width) needs 65 texels per invocation, more "
                                 "than the 63 held in registers; a --workgroup 131 or more wide holds it"),
            std::string::npos)
      << refusal->reason;
}

}  // namespace
}  // namespace blurlab
