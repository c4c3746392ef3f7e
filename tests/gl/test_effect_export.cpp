// An effect's chain exported and run by the recipe runner with its frame's depth beside the colour
// (gl.EffectExport.*): any texture an effect's passes read that the pipeline does not make is
// shipped as data, the depth too, whatever effect reads it. A probe effect of this test's own (its
// shader held in memory) reads the HDR frame as an image and the depth through a sampler and writes
// both into its picture; EffectPipeline::record writes the chain down, write_export ships it, and
// blurlab-run-recipe runs it from its files alone: its picture must be blurlab's, texel for texel.
// The runner refuses a depth file of the wrong size, or holding a depth outside [0, 1], in one line.
// And bloom's chain of two blur stages as one recording: every pass in order, each stage's by its
// own kernel, every read behind the barrier it needs across the stages' own pipelines.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "cli/run_program.h"
#include "effects/effect_pipeline.h"
#include "effects/registry.h"
#include "export/export.h"
#include "gl_fixture.h"
#include "image/image_file.h"
#include "scene/scene.h"
#include "util/files.h"

namespace blurlab::test {
namespace {

namespace fs = std::filesystem;

// The probe's one pass: the frame's radiance compressed into [0, 1) in R, G and B, and the depth,
// stretched over the scene's range (the grid lies near 0.97 of window depth), in alpha; any texel
// read from the wrong place, or a depth file's bytes read as anything else, shows in the picture.
constexpr const char* kProbeShader = R"(#version 430 core
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_frame;
layout(binding = BINDING_STAGE1) uniform sampler2D u_depth;
layout(rgba8, binding = BINDING_TARGET) uniform restrict writeonly image2D u_picture;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_frame)))) return;
  vec3 h = imageLoad(u_frame, p).rgb;
  float d = texelFetch(u_depth, p, 0).r;
  imageStore(u_picture, p, vec4(h / (1.0 + h), clamp((d - 0.9) * 10.0, 0.0, 1.0)));
}
)";

class DepthProbe final : public Effect {
 public:
  std::optional<Refusal> prepare(EffectSetup& setup) override {
    program_ = &setup.compute("effects/depth_probe.comp", {});
    return std::nullopt;
  }
  void run(EffectPasses& p) override {
    p.dispatch("probe", *program_,
               {Binding::read(p.color()), Binding::sampled(p.depth(), gl::Unit::Stage1), Binding::write(p.output())},
               groups_covering(p.size(), {8, 8}));
  }

 private:
  const gl::Program* program_ = nullptr;
};

const EffectInfo kDepthProbe{
    .name = "depth-probe",
    .summary = "the frame and its depth, written into the picture",
    .implementations = [] { return std::vector<std::string>{"probe"}; },
    .create = [](std::string_view) -> std::unique_ptr<Effect> { return std::make_unique<DepthProbe>(); },
    .describe = [](const EffectSettings&, glm::ivec2) { return std::string("one pass reading the frame and its depth"); },
};

class EffectExport : public GlTest {};

TEST_F(EffectExport, DepthTravelsBesideTheColourAndTheRunnerChecksIt) {
  const glm::ivec2 size{61, 43};  // partial workgroups of 8x8 at the right and bottom
  const fs::path dir = fs::temp_directory_path() / ("blurlab_effect_export_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  gl::ProgramCache scene_programs(gl::ShaderSources::embedded());
  Scene scene(scene_programs);
  gl::Texture color(size.x, size.y, gl::Format::rgba16f, "frame"), depth(size.x, size.y, gl::Format::depth32f, "depth"),
      output(size.x, size.y, gl::Format::rgba8, "picture");
  scene.render_hdr(color, depth, 1.0);

  gl::ProgramCache programs(gl::ShaderSources::in_memory({{"effects/depth_probe.comp", kProbeShader}}));
  EffectPipeline pipeline(programs, gl_info().limits);
  EffectSettings settings;
  settings.implementation = "probe";
  ASSERT_FALSE(pipeline.configure(kDepthProbe, settings, size).has_value());
  const Recording recording = pipeline.record(color, depth, output);
  const Image picture = output.download();

  // The frame's colour and depth as data, the picture as the pass's target; nothing else.
  ASSERT_EQ(recording.textures.size(), 3u);
  EXPECT_EQ(recording.textures[0].name, "source");
  EXPECT_EQ(recording.textures[0].contents.size(), static_cast<size_t>(size.x) * size.y * 8);
  EXPECT_EQ(recording.textures[1].name, "destination");
  EXPECT_TRUE(recording.textures[1].contents.empty());
  EXPECT_EQ(recording.textures[2].name, "depth");
  EXPECT_EQ(recording.textures[2].format, gl::Format::depth32f);
  EXPECT_EQ(recording.textures[2].contents.size(), static_cast<size_t>(size.x) * size.y * 4);
  ASSERT_EQ(recording.passes.size(), 1u);

  const fs::path out = dir / "export";
  ExportRequest request{.size = size, .gpu = gl_info().renderer, .cpu_rasterizer = true, .input = "the scene",
                        .effect = &kDepthProbe, .effect_settings = settings, .effect_description = "one pass reading the frame and its depth"};
  {
    StagedOutputs staged;
    write_export(recording, request, programs.sources(), out);
    staged.commit();
  }
  ASSERT_TRUE(fs::exists(out / "depth.bin"));
  std::ifstream readme_file(out / "README.md");
  const std::string readme((std::istreambuf_iterator<char>(readme_file)), std::istreambuf_iterator<char>());
  EXPECT_NE(readme.find("The depth goes into `depth.bin` likewise: 61 x 43 x 4 bytes"), std::string::npos) << readme;

  const auto run = [&](const std::string& name) {
    return run_program(run_recipe_program(), {(out / "recipe.json").string(), (dir / name).string()}, dir);
  };
  const ProgramResult ran = run("ran.png");
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const Image from_recipe = load_image(dir / "ran.png").image;
  // The same pass on the same GL, its frame and depth from the files: the same bytes.
  ASSERT_EQ(from_recipe.texels.size(), picture.texels.size());
  for (size_t i = 0; i < picture.texels.size(); ++i)
    ASSERT_EQ(from_recipe.texels[i], picture.texels[i]) << "texel " << i / 4 % size.x << ", " << i / 4 / size.x << " channel " << i % 4;

  // A depth file damaged: one line, exit 1, no picture.
  const std::vector<uint8_t> good = recording.textures[2].contents;
  const auto expect_refused = [&](const std::vector<uint8_t>& bytes, const std::string& says) {
    {
      std::ofstream file(out / "depth.bin", std::ios::binary | std::ios::trunc);
      file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    const ProgramResult r = run("refused.png");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir / "refused.png"));
  };
  expect_refused(std::vector<uint8_t>(good.begin(), good.end() - 4), "depth.bin holds 10488 bytes, texture depth needs 10492 (61x43 texels of 4 bytes)");
  std::vector<uint8_t> beyond = good;
  const float far_beyond = 1.5f;
  std::memcpy(&beyond[4 * (2 * size.x + 3)], &far_beyond, sizeof far_beyond);
  expect_refused(beyond, "depth.bin: texel (3, 2) holds depth 1.5");
  if (!HasFailure()) fs::remove_all(dir);
}

// The barriers of a recording checked by a model of its own (not gl::BarrierTracker): a pass that
// reads a texture an earlier pass wrote with image stores needs, since that store, a barrier with
// the bit of its way of reading (an image load, a fetch through a sampler).
void expect_reads_behind_barriers(const Recording& r) {
  std::map<size_t, GLbitfield> uncovered;  // texture -> the bits not issued since its last image store
  for (const RecordedPass& pass : r.passes) {
    for (auto& [texture, bits] : uncovered) bits &= ~pass.barriers_before;
    for (const RecordedBinding& b : pass.bindings) {
      const bool loads = b.kind == Binding::Kind::ImageRead || b.kind == Binding::Kind::ImageReadWrite;
      const bool fetches = b.kind == Binding::Kind::Sampled || b.kind == Binding::Kind::SampledLinear;
      const GLbitfield needed = loads ? GL_SHADER_IMAGE_ACCESS_BARRIER_BIT : fetches ? GL_TEXTURE_FETCH_BARRIER_BIT : 0;
      EXPECT_EQ(uncovered[b.texture] & needed, 0u) << "pass '" << pass.name << "' reads " << r.textures[b.texture].name
                                                   << " with no barrier since a pass stored into it";
    }
    for (const RecordedBinding& b : pass.bindings)
      if (b.kind == Binding::Kind::ImageWrite || b.kind == Binding::Kind::ImageReadWrite)
        uncovered[b.texture] = GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT;
  }
}

TEST_F(EffectExport, OneRecordingOfEveryStageWithTheBarriersBetweenThem) {
  // Bloom of a sum with a threshold: the prefilter stores what the two blur stages load, each
  // stage's passes (its own pipeline and runner) store what the composite samples: the barriers
  // between them are decided by one tracker of the whole chain.
  const glm::ivec2 size{40, 24};
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  Scene scene(programs);
  gl::Texture color(size.x, size.y, gl::Format::rgba16f, "frame"), depth(size.x, size.y, gl::Format::depth32f, "depth"),
      output(size.x, size.y, gl::Format::rgba8, "picture");
  scene.render_hdr(color, depth, 1.0);
  const EffectInfo& bloom = *find_effect("bloom");
  EffectSettings settings;
  settings.implementation = "compute-separable";
  settings.values = resolve_effect(bloom, {{"psf", "sum:0.5@1,0.5@2"}, {"threshold", "1"}, {"knee", "0.5"}});
  EffectPipeline pipeline(programs, gl_info().limits);
  ASSERT_FALSE(pipeline.configure(bloom, settings, size).has_value());
  const Recording recording = pipeline.record(color, depth, output);
  std::vector<std::string> names;
  for (const RecordedPass& p : recording.passes) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"prefilter", "blur 1 h", "blur 1 v", "blur 2 h", "blur 2 v", "composite"}));
  // Each stage's passes by its own kernel (r = 3 sigma), the effect's own passes by none.
  for (const RecordedPass& p : recording.passes) {
    const bool stage = p.name.rfind("blur ", 0) == 0;
    EXPECT_EQ(p.program.kernel.has_value(), stage) << p.name;
    if (stage) {
      EXPECT_EQ(p.program.kernel->radius, p.name[5] == '1' ? 3 : 6) << p.name;
    }
  }
  // Unique names: the stages' intermediates apart.
  std::set<std::string> texture_names;
  for (const RecordedTexture& t : recording.textures) EXPECT_TRUE(texture_names.insert(t.name).second) << t.name;
  EXPECT_TRUE(texture_names.count("blur1_intermediate0") && texture_names.count("blur2_intermediate0")) << ::testing::PrintToString(texture_names);
  expect_reads_behind_barriers(recording);
}

}  // namespace
}  // namespace blurlab::test
