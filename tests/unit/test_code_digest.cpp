// What made a row of a results file: the digest of a variant's code (util/code_digest.h), on a
// made-up tree whose files are worked out by hand, and on blurlab's own registry.
#include <gtest/gtest.h>

#include <map>

#include "blur/registry.h"
#include "report/results_files.h"
#include "util/code_digest.h"
#include "util/error.h"

namespace blurlab {
namespace {

TEST(CodeDigest, CommentsAndSpacingAreNotCode) {
  EXPECT_EQ(code_text("int  a = 1;   // one\n\n  /* two\n lines */ int b;\n"), "int a = 1;\nint b;\n");
  EXPECT_EQ(code_text("x = \"a // b /* c\"; // gone\n"), "x = \"a // b /* c\";\n") << "a // inside a string is no comment";
  EXPECT_EQ(code_text("f(R\"(// kept)\");\n"), "f(R\"(// kept)\");\n");
  EXPECT_EQ(code_text("a/*x*/b\n"), "a b\n");
  EXPECT_EQ(code_text("a / b\n"), "a / b\n");
  EXPECT_EQ(code_text("#define N 4 // four\n"), "#define N 4\n");
}

// A variant's C++ file that includes a helper of src/variants/ (its header and its .cpp) and names
// a shader, which includes another; a file outside src/variants/ and a shader no file names are
// not the variant's.
std::map<std::string, std::string> made_up_tree() {
  return {{"src/blur/registry.cpp", "#define BLURLAB_VARIANTS(X) \\\n  X(copy)   \\\n  X(my_blur)\n\nnamespace x {}\n"},
          {"src/variants/my_blur.cpp", "#include \"blur/blur.h\"\n#include \"variants/helper.h\"\n"
                                       "void prepare() { setup.compute(\"my_blur.comp\"); }  // the shader\n"},
          {"src/variants/helper.h", "int helper();\n"},
          {"src/variants/helper.cpp", "int helper() { return 1; }\n"},
          {"src/variants/copy.cpp", "void prepare() { setup.compute(\"copy.comp\"); }\n"},
          {"glsl/my_blur.comp", "#version 430\n#include \"common.glsl\"\nvoid main() {}\n"},
          {"glsl/common.glsl", "const int k = 1;\n"},
          {"glsl/copy.comp", "#version 430\nvoid main() {}\n"},
          {"src/blur/blur.h", "struct Blur {};\n"}};
}

ReadTreeFile reader(const std::map<std::string, std::string>& tree) {
  return [tree](const std::string& path) -> std::optional<std::string> {
    const auto it = tree.find(path);
    return it == tree.end() ? std::nullopt : std::optional(it->second);
  };
}

TEST(CodeDigest, AVariantsCodeIsItsFileItsHelpersAndItsShaders) {
  const auto tree = made_up_tree();
  EXPECT_EQ(registry_ids(tree.at("src/blur/registry.cpp")), (std::vector<std::string>{"copy", "my_blur"}));
  EXPECT_EQ(variant_code_files("my_blur", reader(tree)),
            (std::vector<std::string>{"glsl/common.glsl", "glsl/my_blur.comp", "src/variants/helper.cpp", "src/variants/helper.h",
                                      "src/variants/my_blur.cpp"}));
  const std::string digest = variant_code_digest("my_blur", reader(tree));
  EXPECT_EQ(digest.size(), 16u);
  // Each file of its code changes it; a comment, white space or a file that is not its code do not.
  for (const std::string& path : variant_code_files("my_blur", reader(tree))) {
    auto changed = tree;
    changed[path] += "int extra;\n";
    EXPECT_NE(variant_code_digest("my_blur", reader(changed)), digest) << path;
    auto commented = tree;
    commented[path] = "// a comment\n" + commented[path] + "  /* another */\n\n";
    EXPECT_EQ(variant_code_digest("my_blur", reader(commented)), digest) << path;
  }
  auto other = tree;
  other["src/blur/blur.h"] += "int shared;\n";
  other["glsl/copy.comp"] += "int other;\n";
  EXPECT_EQ(variant_code_digest("my_blur", reader(other)), digest);
  EXPECT_NE(variant_code_digest("copy", reader(other)), variant_code_digest("copy", reader(tree)));
  // The line naming its family groups it in the listings and runs nothing: not code either.
  auto regrouped = tree;
  regrouped["src/variants/my_blur.cpp"] += "const VariantInfo info{\n    .family = Family::Separable,\n};\n";
  auto info = tree;
  info["src/variants/my_blur.cpp"] += "const VariantInfo info{\n};\n";
  EXPECT_EQ(variant_code_digest("my_blur", reader(regrouped)), variant_code_digest("my_blur", reader(info)));
  auto tolerant = info;
  tolerant["src/variants/my_blur.cpp"] += "const VariantInfo other{\n    .tolerance_lsb = 2,\n};\n";
  EXPECT_NE(variant_code_digest("my_blur", reader(tolerant)), variant_code_digest("my_blur", reader(info)));
  auto missing = tree;
  missing.erase("glsl/common.glsl");
  EXPECT_THROW(variant_code_digest("my_blur", reader(missing)), Error);
}

// The program was built with a digest for every variant of its registry, by its name.
TEST(CodeDigest, EveryVariantHasItsDigest) {
  ASSERT_EQ(report::variant_code_digests().size(), variants().size());
  for (size_t i = 0; i < variants().size(); ++i) {
    EXPECT_EQ(report::variant_code_digests()[i].first, variants()[i]->name) << "the registry's names are its ids with - for _";
    EXPECT_EQ(report::code_digest(variants()[i]->name).size(), 16u);
  }
  EXPECT_EQ(variant_name_of_id("compute_separable_regblock"), "compute-separable-regblock");
  EXPECT_FALSE(report::build_commit().empty());
}

}  // namespace
}  // namespace blurlab
