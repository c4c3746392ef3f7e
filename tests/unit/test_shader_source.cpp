#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gl/shader.h"

namespace blurlab::gl {
namespace {

class ShaderSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("blurlab_shader_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  std::filesystem::path dir_;
};

TEST_F(ShaderSourceTest, IncludesAndDefinesKeepLineNumbers) {
  write("common.glsl", "float a;\nfloat b;\n");
  write("main.comp", "#version 430 core\n#include \"common.glsl\"\nvoid main() {}\n");
  const ExpandedSource s = expand_source(ShaderSources::directory(dir_), "main.comp", {{"RADIUS", "3"}});
  EXPECT_EQ(s.text,
            "#version 430 core\n#define RADIUS 3\n#line 2 0\n"
            "#line 1 1\nfloat a;\nfloat b;\n#line 3 0\n"
            "void main() {}\n");
  ASSERT_EQ(s.files.size(), 2u);
  EXPECT_EQ(s.files[1], (dir_ / "common.glsl").string());
}

TEST_F(ShaderSourceTest, MissingIncludeAndCyclesAreErrors) {
  write("a.comp", "#version 430 core\n#include \"missing.glsl\"\n");
  EXPECT_THROW(expand_source(ShaderSources::directory(dir_), "a.comp", {}), Error);
  write("loop.glsl", "#include \"loop.glsl\"\n");
  write("b.comp", "#version 430 core\n#include \"loop.glsl\"\n");
  EXPECT_THROW(expand_source(ShaderSources::directory(dir_), "b.comp", {}), Error);
  EXPECT_THROW(expand_source(ShaderSources::directory(dir_), "nothing.comp", {}), Error);
}

TEST_F(ShaderSourceTest, MissingDirectoryIsAUsageError) {
  EXPECT_THROW(ShaderSources::directory(dir_ / "nope"), UsageError);
}

TEST(ShaderLog, MapsSourceNumbersToFiles) {
  const std::vector<std::string> files{"glsl/x.comp", "glsl/blur_common.glsl"};
  EXPECT_EQ(map_log_to_files("1:12(5): error: `foo' undeclared\n", files), "glsl/blur_common.glsl:12:5: error: `foo' undeclared\n");
  EXPECT_EQ(map_log_to_files("0(7) : error C1008: undefined variable \"x\"\n", files), "glsl/x.comp:7: error C1008: undefined variable \"x\"\n");
  EXPECT_EQ(map_log_to_files("something else\n", files), "something else\n");
}

TEST(EmbeddedShaders, EveryGlslFileIsEmbedded) {
  const ShaderSources embedded = ShaderSources::embedded();
  for (const auto& entry : std::filesystem::directory_iterator(BLURLAB_GLSL_DIR)) {
    const std::string name = entry.path().filename().string();
    std::ifstream in(entry.path());
    const std::string disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(embedded.read(name), disk) << name << " differs from its embedded copy";
  }
}

}  // namespace
}  // namespace blurlab::gl
