// The program a shader's preprocessor chooses (gl/preprocess.h), on sources whose result is worked
// out by hand.
#include <gtest/gtest.h>

#include "gl/preprocess.h"

namespace blurlab::gl {
namespace {

TEST(ChooseProgram, TheGroupsTakenStayWithTheirCommentsTheOthersGo) {
  const std::string source =
      "// SPDX-License-Identifier: MIT\n"
      "#version 430\n"
      "#define MODE 2\n"
      "#define WIDTH 8  // used below\n"
      "#define UNUSED 3\n"
      "// the kernel\n"
      "#if MODE == 1\n"
      "void main() { one(); }\n"
      "#elif MODE == 2 && defined(WIDTH)\n"
      "// mode two: WIDTH wide\n"
      "layout(local_size_x = WIDTH) in;\n"
      "void main() { two(); }\n"
      "#else\n"
      "void main() { other(); }\n"
      "#endif\n"
      "#ifndef WIDTH\n"
      "#error no width\n"
      "#endif\n";
  const ChosenProgram p = choose_program(source);
  EXPECT_EQ(p.unresolved, "");
  EXPECT_EQ(p.text,
            "// SPDX-License-Identifier: MIT\n"
            "#version 430\n"
            "#define WIDTH 8  // used below\n"
            "// the kernel\n"
            "// mode two: WIDTH wide\n"
            "layout(local_size_x = WIDTH) in;\n"
            "void main() { two(); }\n\n");
}

// A define used only by another define that nothing uses goes too; one used in a kept line stays.
TEST(ChooseProgram, DefinesNothingUsesGoInTurn) {
  const ChosenProgram p = choose_program("#define A 1\n#define B (A + 1)\n#define C 2\nint c = C;\n");
  EXPECT_EQ(p.text, "#define C 2\nint c = C;\n\n");
}

TEST(ChooseProgram, ExpressionsAsCsPreprocessorEvaluatesThem) {
  const auto taken = [](const std::string& condition) {
    return choose_program("#define X 3\n#define Y X\n#if " + condition + "\nint yes;\n#endif\n").text.find("int yes;") != std::string::npos;
  };
  EXPECT_TRUE(taken("Y == 3"));
  EXPECT_TRUE(taken("(X << 2) == 12 && !defined Z"));
  EXPECT_TRUE(taken("0x10 / 4 == 4 ? 1 : 0"));
  EXPECT_TRUE(taken("-1 < 0 && (7 % 4) == 3 && (6 & 3) == 2 && (5 | 2) == 7 && (6 ^ 3) == 5 && ~0 == -1"));
  EXPECT_FALSE(taken("UNDEFINED_NAME"));  // a name no macro defines is 0
  EXPECT_FALSE(taken("X > 3 || 2u > 3u"));
}

// Inside a block comment a # is no directive; a group a directive does not close is no program.
TEST(ChooseProgram, CommentsAndUnbalancedGroups) {
  const ChosenProgram commented = choose_program("/* an aside\n#if 0\n*/\nint kept;\n");
  EXPECT_EQ(commented.unresolved, "");
  EXPECT_NE(commented.text.find("int kept;"), std::string::npos);
  const ChosenProgram open = choose_program("#if 1\nint a;\n");
  EXPECT_NE(open.unresolved, "");
  EXPECT_EQ(open.text, "#if 1\nint a;\n") << "the source as it was";
  const ChosenProgram function_like = choose_program("#define F(x) x\n#if F(1)\nint a;\n#endif\n");
  EXPECT_NE(function_like.unresolved.find("function-like macro F"), std::string::npos) << function_like.unresolved;
  std::string deep = "#if ";
  for (int i = 0; i < 100; ++i) deep += "(";
  deep += "1";
  for (int i = 0; i < 100; ++i) deep += ")";
  EXPECT_NE(choose_program(deep + "\n#endif\n").unresolved.find("nested more than 64 deep"), std::string::npos);
}

}  // namespace
}  // namespace blurlab::gl
