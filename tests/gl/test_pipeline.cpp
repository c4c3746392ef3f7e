// The shared machinery on a real GL context: weights block layout, timing, shader errors,
// error detection, and refusals.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "blur/pipeline.h"
#include "blur/radius_map.h"
#include "gl/barriers.h"
#include "blur/registry.h"
#include "gl/timer_pool.h"
#include "gl_fixture.h"
#include "scene/scene.h"

namespace blurlab::test {
namespace {

class Pipeline : public GlTest {};

TEST_F(Pipeline, WeightsBlockMatchesTheShaderLayout) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  BlurSettings s;
  ASSERT_FALSE(pipeline.configure(*find_variant("compute-separable"), s, {8, 8}));
  const gl::Program& program = programs.get({{GL_COMPUTE_SHADER, "compute_separable.comp"}},
                                            {{"RADIUS", "16"}, {"BORDER", "BORDER_CLAMP"}, {"WG_X", "16"}, {"WG_Y", "16"}, {"UNROLL", "1"}, {"SEGMENT", "1"},
                                             {"CACHE_FP16", "0"}, {"SRC_FORMAT", "rgba8"}, {"DST_FORMAT", "rgba8"}, {"AXIS", "0"}});
  const GLuint block = glGetUniformBlockIndex(program.id(), "KernelWeights");
  ASSERT_NE(block, GL_INVALID_INDEX);
  GLint bytes = 0;
  glGetActiveUniformBlockiv(program.id(), block, GL_UNIFORM_BLOCK_DATA_SIZE, &bytes);
  EXPECT_EQ(static_cast<size_t>(bytes), sizeof(KernelBlock));
}

TEST_F(Pipeline, TimerPoolMeasuresDrawsAndDispatches) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  gl::TimerPool timers(gl::make_gl_query_backend(gl_info().software));
  BlurPipeline pipeline(programs, gl_info().limits, &timers);
  gl::Texture a(256, 128, gl::Format::rgba8), b(256, 128, gl::Format::rgba8);
  Scene(programs).render(a, 0.5);
  std::vector<gl::FrameTimes> frames;
  for (const char* name : {"frag-separable", "compute-separable"}) {
    ASSERT_FALSE(pipeline.configure(*find_variant(name), BlurSettings{}, {256, 128}));
    for (int i = 0; i < 3; ++i) {
      timers.begin_frame();
      pipeline.run(a, b);
      timers.end_frame();
    }
  }
  glFinish();
  for (int tries = 0; tries < 100 && frames.size() < 6; ++tries)
    for (auto& f : timers.poll()) frames.push_back(f);
  ASSERT_EQ(frames.size(), 6u);
  for (const auto& f : frames) {
    EXPECT_GT(f.ms("h"), 0.0) << "frame " << f.frame;
    EXPECT_GT(f.ms("v"), 0.0) << "frame " << f.frame;
    EXPECT_GE(f.ms("total"), f.ms("h") + f.ms("v") - 1e-3);
  }
  EXPECT_EQ(timers.frames_dropped(), 0u);
  EXPECT_LE(timers.queries_created(), 6u * 6u);
}

// A pass that stores into a texture an earlier pass read waits for it (write after read):
// variable-layers blurs each layer's rows into one scratch image, which the previous layer's
// columns pass read. On a GPU the two overlapped without the barrier and layers got new rows.
TEST_F(Pipeline, StoresWaitForEarlierReadsOfTheirTexture) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Box, 8, std::nullopt);
  s.radius_map = builtin_radius_map("ramp");
  ASSERT_FALSE(pipeline.configure(*find_variant("variable-layers"), s, {40, 24}));
  gl::Texture a(40, 24, gl::Format::rgba8), b(40, 24, gl::Format::rgba8);
  const Recording recording = pipeline.record(a, b);
  std::map<std::string, GLbitfield> before;
  for (const RecordedPass& pass : recording.passes) before[pass.name] = pass.barriers_before;
  ASSERT_EQ(before.size(), 9u);
  EXPECT_EQ(before.at("rows 1"), 0u) << "nothing before it touched the scratch image";
  for (int j = 1; j <= 4; ++j) {
    const std::string layer = std::to_string(j);
    EXPECT_EQ(before.at("columns " + layer), GLbitfield{GL_SHADER_IMAGE_ACCESS_BARRIER_BIT}) << "reads the rows: read after write";
    if (j > 1) {
      EXPECT_EQ(before.at("rows " + layer), GLbitfield{GL_SHADER_IMAGE_ACCESS_BARRIER_BIT}) << "write after read";
    }
  }
  // The runs issue the barriers the recording lists (the recording keeps a tracker of its own),
  // and one before the first pass, which the recording starts without: its rows overwrite the
  // scratch image that the last run's final columns pass read, and the blend pass between them
  // fetched the layers as textures, whose barrier does not order image accesses.
  const size_t recorded = static_cast<size_t>(
      std::count_if(recording.passes.begin(), recording.passes.end(), [](const RecordedPass& p) { return p.barriers_before != 0; }));
  pipeline.run(a, b);
  const size_t issued_before = gl::barriers().barriers_issued();
  pipeline.run(a, b);
  EXPECT_EQ(gl::barriers().barriers_issued() - issued_before, recorded + 1);
}

TEST_F(Pipeline, ShaderErrorsNameFileAndLine) {
  const auto dir = std::filesystem::temp_directory_path() / ("blurlab_broken_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "broken.comp") << "#version 430 core\nlayout(local_size_x = 1) in;\nvoid main() {\n  undefined_thing = 1;\n}\n";
  gl::ProgramCache programs(gl::ShaderSources::directory(dir));
  try {
    programs.get({{GL_COMPUTE_SHADER, "broken.comp"}}, {{"X", "1"}});
    ADD_FAILURE() << "compiled a broken shader";
  } catch (const gl::ShaderError& e) {
    const std::string where = (dir / "broken.comp").string() + ":4";
    EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST_F(Pipeline, ReloadKeepsTheLastGoodProgram) {
  const auto dir = std::filesystem::temp_directory_path() / ("blurlab_reload_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "x.comp") << "#version 430 core\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
  gl::ProgramCache programs(gl::ShaderSources::directory(dir));
  const gl::Program& program = programs.get({{GL_COMPUTE_SHADER, "x.comp"}}, {});
  const GLuint before = program.id();
  std::ofstream(dir / "x.comp") << "#version 430 core\nvoid main() { oops }\n";
  EXPECT_THROW(programs.reload(), gl::ShaderError);
  EXPECT_EQ(program.id(), before);
  std::ofstream(dir / "x.comp") << "#version 430 core\nlayout(local_size_x = 2) in;\nvoid main() {}\n";
  programs.reload();
  EXPECT_NE(program.id(), before);
  EXPECT_EQ(program.local_size()[0], 2);
  std::filesystem::remove_all(dir);
}

TEST_F(Pipeline, ProgramCacheDropsTheLeastRecentlyUsedButNotWhatIsHeld) {
  gl::ProgramCache programs(gl::ShaderSources::embedded(), 2);
  const std::vector<gl::ShaderFile> copy{{GL_COMPUTE_SHADER, "copy.comp"}};
  auto defines = [](int wg) {
    return gl::Defines{{"RADIUS", "0"}, {"BORDER", "BORDER_CLAMP"}, {"WG_X", std::to_string(wg)}, {"WG_Y", "1"}, {"TEXELS", "1"}, {"RAW", "0"},
                       {"SRC_FORMAT", "rgba8"}, {"DST_FORMAT", "rgba8"}};
  };
  const auto held = programs.share(copy, defines(1));
  programs.get(copy, defines(2));
  programs.get(copy, defines(3));  // over capacity: wg=1 (least recently used) leaves the cache
  EXPECT_EQ(programs.size(), 2u);
  EXPECT_EQ(held->local_size()[0], 1);
  EXPECT_TRUE(glIsProgram(held->id())) << "a held program stays alive";
  programs.get(copy, defines(1));  // compiled again
  EXPECT_EQ(programs.compiled(), 4u);
  programs.get(copy, defines(1));
  EXPECT_EQ(programs.compiled(), 4u);
}

TEST(DebugOutput, CountsGlErrors) {
  // The mechanism every GL test relies on must itself be able to fail.
  const size_t before = gl::debug_error_count();
  glBindTexture(GL_TEXTURE_2D, 0xdeadbeef);  // not a texture name: GL_INVALID_OPERATION
  EXPECT_EQ(gl::debug_error_count(), before + 1);
  while (glGetError() != GL_NO_ERROR) {
  }
}

TEST_F(Pipeline, RefusesAnRgba8IntermediateForHdrInput) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  BlurSettings s;
  s.input_format = gl::Format::rgba16f;
  s.intermediate = gl::Format::rgba8;
  const auto refusal = pipeline.configure(*find_variant("compute-separable"), s, {16, 16});
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->limit, Limit::Format);
  EXPECT_NE(refusal->reason.find("rgba8 intermediate"), std::string::npos);
}

TEST_F(Pipeline, RefusesWorkgroupsBeyondTheDevice) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  BlurSettings s;
  s.knobs["workgroup"] = {64, 64};
  const auto refusal = pipeline.configure(*find_variant("compute-naive"), s, {16, 16});
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->limit, Limit::Invocations);
  EXPECT_EQ(refusal->needed, 64 * 64);
  EXPECT_EQ(refusal->available, gl_info().limits.max_compute_invocations);
  EXPECT_NE(refusal->reason.find("exceeds the device"), std::string::npos) << refusal->reason;
}

// The one-dispatch boxes size their walks by the image and the radius (sliding::walk_rows): from 16
// rows the walk doubles while the workgroups it leaves times the 2r + 1 warm-up rows stay at least
// the variant's number (compute-box-prefix 20480, compute-box-blocked 36864). Counted by hand from
// each tile (256 span columns less the 2r apron, 512 for compute-box-blocked at r = 128).
TEST_F(Pipeline, OneDispatchBoxWalksAreSizedByTheImage) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  struct Case {
    const char* variant;
    glm::ivec2 size;
    int radius, rows;
    glm::ivec3 groups;
  };
  const Case cases[] = {
      {"compute-box-prefix", {1920, 1080}, 1, 0, {8, 68, 1}},    // tile 254: 32 rows leave 8 x 34 = 272, x 3 = 816
      {"compute-box-prefix", {1920, 1080}, 32, 0, {10, 34, 1}},  // tile 192: 32 rows 340 x 65 = 22100, 64 rows 11050
      {"compute-box-prefix", {1920, 1080}, 64, 0, {15, 17, 1}},  // tile 128: 64 rows 255 x 129 = 32895, 128 rows 135 x 129
      {"compute-box-prefix", {1920, 1080}, 1, 512, {8, 3, 1}},   // the knob's walk, as given
      {"compute-box-blocked", {1920, 1080}, 1, 0, {8, 68, 1}},   // 64 x 4 columns: the same tile as compute-box-prefix
      {"compute-box-blocked", {1920, 1080}, 64, 0, {15, 34, 1}}, // 64 x 4 columns, tile 128: 32 rows 65790, 64 rows 32895 < 36864
      {"compute-box-blocked", {1920, 1080}, 128, 0, {8, 34, 1}}, // 64 x 8 columns, tile 256: 32 rows 272 x 257 = 69904, 64 rows 34952
  };


  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.variant) + " " + std::to_string(c.size.x) + "x" + std::to_string(c.size.y) + " r " + std::to_string(c.radius));
    BlurPipeline pipeline(programs, gl_info().limits);
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Box, c.radius, std::nullopt);
    s.knobs["rows"] = {c.rows, 0};
    ASSERT_FALSE(pipeline.configure(*find_variant(c.variant), s, c.size));
    gl::Texture a(c.size.x, c.size.y, gl::Format::rgba8), b(c.size.x, c.size.y, gl::Format::rgba8);
    const Recording recording = pipeline.record(a, b);
    ASSERT_EQ(recording.passes.size(), 1u);
    EXPECT_EQ(recording.passes[0].grid.groups, c.groups);
  }
}

TEST_F(Pipeline, SceneIsAPureFunctionOfTime) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  Scene scene(programs);
  gl::Texture a(96, 54, gl::Format::rgba8), b(96, 54, gl::Format::rgba8);
  scene.render(a, 2.0);
  scene.render(b, 7.0);
  scene.render(b, 2.0);
  EXPECT_EQ(to_rgba8(a.download()), to_rgba8(b.download()));
  scene.render(b, 2.5);
  EXPECT_NE(to_rgba8(a.download()), to_rgba8(b.download()));
}

}  // namespace
}  // namespace blurlab::test
