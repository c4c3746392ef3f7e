#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gl/bindings.h"
#include "gl/program_dump.h"
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
            "#version 430 core\n" + binding_defines() + "#define RADIUS 3\n#line 2 0\n"
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

// The one-line message expand_source() throws for `name` in the directory, or "" when it expands.
std::string refusal(const ShaderSources& sources, const std::string& name) {
  try {
    expand_source(sources, name, {});
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return e.what();
  }
  return "";
}

TEST(ShaderPreprocessor, AnIncludeCycleNamesEveryFileOfIt) {
  // It said "b.glsl:2: shader 'a.glsl' includes itself": a.glsl does not, the cycle goes through b.glsl.
  const ShaderSources sources = ShaderSources::in_memory({{"main.comp", "#version 430 core\n#include \"a.glsl\"\n"},
                                                          {"a.glsl", "#include \"b.glsl\"\n"},
                                                          {"b.glsl", "float b;\n#include \"a.glsl\"\n"},
                                                          {"self.comp", "#version 430 core\n#include \"self.comp\"\n"}});
  EXPECT_EQ(refusal(sources, "main.comp"), "b.glsl:2: an include cycle: main.comp includes a.glsl, which includes b.glsl, which includes a.glsl again");
  EXPECT_EQ(refusal(sources, "self.comp"), "self.comp:2: an include cycle: self.comp includes self.comp again");
}

TEST_F(ShaderSourceTest, OnlyRegularFilesOfABoundedSizeAreRead) {
  // A FIFO once hung the run and a character device filled its memory: both are refused unopened.
  ::alarm(20);  // were either opened, the test would hang: end it instead
  ASSERT_EQ(::mkfifo((dir_ / "fifo.glsl").c_str(), 0600), 0);
  std::filesystem::create_symlink("/dev/zero", dir_ / "zero.glsl");
  write("uses_fifo.comp", "#version 430 core\n#include \"fifo.glsl\"\n");
  write("uses_zero.comp", "#version 430 core\n\n#include \"zero.glsl\"\n");
  const ShaderSources sources = ShaderSources::directory(dir_);
  EXPECT_EQ(refusal(sources, "uses_fifo.comp"), (dir_ / "uses_fifo.comp").string() + ":2: cannot read --shader-dir file '" +
                                                    (dir_ / "fifo.glsl").string() + "': it is a FIFO, not a regular file");
  EXPECT_NE(refusal(sources, "uses_zero.comp").find("uses_zero.comp:3: cannot read --shader-dir file"), std::string::npos);
  EXPECT_NE(refusal(sources, "uses_zero.comp").find("it is a character device"), std::string::npos);
  EXPECT_NE(refusal(sources, "fifo.glsl").find("it is a FIFO"), std::string::npos);
  ::alarm(0);
  std::ofstream(dir_ / "huge.glsl") << std::string(kMaxShaderFileBytes + 1, ' ');
  EXPECT_NE(refusal(sources, "huge.glsl").find("at most 1.0 MiB is read"), std::string::npos);
  // Names stay inside the directory.
  write("escapes.comp", "#version 430 core\n#include \"/dev/zero\"\n");
  EXPECT_NE(refusal(sources, "escapes.comp").find("the shader name '/dev/zero' leaves the directory"), std::string::npos);
  write("climbs.comp", "#version 430 core\n#include \"../climbs.comp\"\n");
  EXPECT_NE(refusal(sources, "climbs.comp").find("leaves the directory"), std::string::npos);
  // GL reads up to a NUL: a file with one is refused, with its line.
  write("nul.glsl", std::string("float a;\nfloat\0 b;\n", 19));
  EXPECT_EQ(refusal(sources, "nul.glsl"), (dir_ / "nul.glsl").string() + ":2: a NUL byte (GL would read the shader only up to it)");
}

TEST(ShaderPreprocessor, LongLinesAreScannedNotRecursedOver) {
  // 50 KB directives crashed std::regex with SIGSEGV (its matching recursed per character).
  const std::string padding(200000, ' ');
  const ShaderSources sources = ShaderSources::in_memory(
      {{"version.comp", "#version 430" + padding + "core\nvoid main() {}\n"},
       {"include.comp", "#version 430 core\n#include \"" + std::string(200000, 'a') + "\"\n"},
       {"other.comp", "#version 430 core\n#  define X" + padding + "1\n#" + padding + "\n"}});
  EXPECT_EQ(expand_source(sources, "version.comp", {{"R", "1"}}).text, "#version 430" + padding + "core\n" + binding_defines() + "#define R 1\n#line 2 0\nvoid main() {}\n");
  EXPECT_NE(refusal(sources, "include.comp").find("include.comp:2: no shader 'aaaa"), std::string::npos);
  EXPECT_EQ(refusal(sources, "other.comp"), "other.comp:2: a #define of 195.3 KiB; blurlab hands a GL compiler at most 64.0 KiB");
  EXPECT_EQ(map_log_to_files("0:1(1): error: " + padding + "\n" + padding + "\n", {"x.comp"}),
            "x.comp:1:1: error: " + padding + "\n" + padding + "\n");
  EXPECT_EQ(map_log_to_files("99999999999999999999:1(1): error\n", {"x.comp"}), "source 99999999999999999999:1:1: error\n");
}

TEST(ShaderPreprocessor, DirectivesAsTheyWereMatched) {
  const ShaderSources sources = ShaderSources::in_memory({{"main.comp", "\t # version 430 core\r\n  #  include   \"a.glsl\"  \r\n#include \"a.glsl\" // x\n#versionX\n"},
                                                          {"a.glsl", "float a;\n"}});
  EXPECT_EQ(expand_source(sources, "main.comp", {}).text,
            "\t # version 430 core\n" + binding_defines() + "#line 2 0\n#line 1 1\nfloat a;\n#line 3 0\n#include \"a.glsl\" // x\n#versionX\n");
}

TEST(ShaderPreprocessor, ExpansionIsBounded) {
  // Each level includes the next four times: 4^12 copies of one line would be 16 million lines.
  std::map<std::string, std::string> files{{"main.comp", "#version 430 core\n#include \"l1.glsl\"\n"}, {"l12.glsl", "float x;\n"}};
  for (int level = 1; level < 12; ++level) {
    const std::string next = "#include \"l" + std::to_string(level + 1) + ".glsl\"\n";
    files["l" + std::to_string(level) + ".glsl"] = next + next + next + next;
  }
  EXPECT_EQ(refusal(ShaderSources::in_memory(files), "main.comp"), "main.comp: with its includes it grows beyond 4.0 MiB");
  // And includes nest at most 16 deep.
  std::map<std::string, std::string> deep{{"main.comp", "#version 430 core\n#include \"d1.glsl\"\n"}};
  for (int level = 1; level <= 20; ++level) deep["d" + std::to_string(level) + ".glsl"] = "#include \"d" + std::to_string(level + 1) + ".glsl\"\n";
  EXPECT_NE(refusal(ShaderSources::in_memory(deep), "main.comp").find("d15.glsl:1: shader includes nest more than 16 deep at 'd16.glsl'"),
            std::string::npos);
}

// Mesa's compiler crashed (SIGSEGV) on a statement of 20000 additions, an 800 kB #define used once,
// and ran until killed on macros that each use the next twice: neither is handed on.
TEST(ShaderPreprocessor, WhatTheCompilerIsHandedIsBounded) {
  const auto source = [](const std::string& before_main, const std::string& in_main) {
    return ShaderSources::in_memory({{"main.comp", "#version 430 core\n#include \"a.glsl\"\n" + before_main + "void main() {\n  " + in_main + "\n}\n"},
                                     {"a.glsl", "float a;\n"}});
  };
  std::string sum = "1.0";
  for (int i = 0; i < 20000; ++i) sum += " + 1.0";
  EXPECT_EQ(refusal(source("", "float x = " + sum + ";"), "main.comp"),
            "main.comp:4: a statement of 40005 tokens with its macros expanded; blurlab hands a GL compiler at most 16384 (a longer one crashed "
            "Mesa's)");
  EXPECT_EQ(refusal(source("#define BIG " + std::string(800000, ' ') + "1\n", "float x = BIG;"), "main.comp"),
            "main.comp:3: a #define of 781.3 KiB; blurlab hands a GL compiler at most 64.0 KiB");
  // Continued lines are one #define.
  std::string continued = "#define LONG 1";
  for (int i = 0; i < 20000; ++i) continued += " + \\\n 1";
  EXPECT_NE(refusal(source(continued + "\n", ""), "main.comp").find("main.comp:3: a #define of "), std::string::npos);
  // 2^30 tokens from 31 lines, object-like and function-like.
  std::string doubling, calls = "#define F0(x) x\n";
  for (int i = 0; i < 30; ++i) {
    doubling += "#define B" + std::to_string(i) + " B" + std::to_string(i + 1) + " + B" + std::to_string(i + 1) + "\n";
    calls += "#define F" + std::to_string(i + 1) + "(x) F" + std::to_string(i) + "(x) F" + std::to_string(i) + "(x)\n";
  }
  EXPECT_EQ(refusal(source(doubling + "#define B30 1\n", "float b = B0;"), "main.comp"),
            "main.comp:35: a statement of 2147483651 tokens with its macros expanded; blurlab hands a GL compiler at most 16384 (a longer one "
            "crashed Mesa's)");
  EXPECT_NE(refusal(source(calls, "float f = F30(1.0);"), "main.comp").find("main.comp:35: a statement of "), std::string::npos);
  // In an #if too: the preprocessor expands it.
  EXPECT_NE(refusal(source(doubling + "#define B30 1\n#if B0\n#endif\n", ""), "main.comp").find("main.comp:34: a statement of "), std::string::npos);
  // Macros in a cycle are refused; one that names itself is what the preprocessor leaves alone.
  EXPECT_EQ(refusal(source("#define P Q + 1\n#define Q P\n", "float p = P;"), "main.comp"),
            "main.comp:4: macro Q uses P, which leads back to it (blurlab hands a GL compiler no macros that refer to one another in a cycle)");
  EXPECT_EQ(refusal(source("#define SELF SELF\n#define TWICE(x) (x) * (x)\n#define FOUR(x) TWICE(TWICE(x))\n", "float s = FOUR(2.0);"), "main.comp"), "");
  // The line named is the file's own, after an include; comments and strings of defines do not count.
  EXPECT_EQ(refusal(source("/* " + sum + " */\n// " + sum + "\n", "float y = 1.0;"), "main.comp"), "");
  std::string shorter_sum = "#define N 1.0";
  for (int i = 0; i < 4000; ++i) shorter_sum += " + 1.0";
  EXPECT_EQ(refusal(source(shorter_sum + "\n", "float y = N;"), "main.comp"), "");
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
  for (const auto& entry : std::filesystem::recursive_directory_iterator(BLURLAB_GLSL_DIR)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = std::filesystem::relative(entry.path(), BLURLAB_GLSL_DIR).generic_string();  // "effects/bloom.comp"
    std::ifstream in(entry.path());
    const std::string disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(embedded.read(name), disk) << name << " differs from its embedded copy";
  }
}

}  // namespace
}  // namespace blurlab::gl

namespace blurlab::gl {
namespace {

// --dump-programs: a driver's binary shown as the text it holds, each run on a line, short runs and
// bytes outside printable ASCII dropped; the file's header names the shader and its defines.
TEST(ProgramDump, PrintableRunsKeepTheBinarysTextAndLines) {
  const std::string binary = std::string("\x01\x02") + "!!NVcp5.0\nTEMP R0, R1;\n" + std::string("\0\x7f", 2) + "ab" + "\x03" + "MAD.F R0, R1, R2, R0;";
  EXPECT_EQ(printable_runs(binary, 8), "!!NVcp5.0\nTEMP R0, R1;\nMAD.F R0, R1, R2, R0;\n");
  EXPECT_EQ(printable_runs(std::string("\x05\x06short\x07", 8), 8), "");
  EXPECT_EQ(dump_file_name(7, {{GL_COMPUTE_SHADER, "compute_separable_regblock.comp"}}), "007_compute_separable_regblock.txt");
  EXPECT_EQ(dump_file_name(12, {{GL_COMPUTE_SHADER, "../odd name.comp"}}), "012_odd_name.txt");
  const std::string text = dump_file_text({{GL_COMPUTE_SHADER, "copy.comp"}}, {{"RADIUS", "3"}, {"WG_X", "16"}}, std::nullopt);
  EXPECT_EQ(text, "# shaders: copy.comp\n# defines: RADIUS=3 WG_X=16\n# the driver offers no program binary\n");
}

}  // namespace
}  // namespace blurlab::gl
