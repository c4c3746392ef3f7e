// Strings from the user or a file in code and markup (util/markup.h): escaped for their target, so
// they stay text there.
#include <gtest/gtest.h>

#include "util/markup.h"

namespace blurlab {
namespace {

// A radius map's file name that once became a line of an exported shader and a heading of report.md.
const std::string kHostile = "m\nvoid main() {}\n# H1 *x* _y_ [l](u) <b> a|b `c` ```d``` \\ \x1b[2J \xff.png";

TEST(Markup, MarkdownTextIsOneLineWithEveryMarkEscaped) {
  EXPECT_EQ(markdown_text(kHostile),
            "m\\\\nvoid main() {}\\\\n\\# H1 \\*x\\* \\_y\\_ \\[l\\](u) \\<b\\> a\\|b \\`c\\` \\`\\`\\`d\\`\\`\\` \\\\ \\\\e\\[2J \xff.png");
  EXPECT_EQ(markdown_text("480x270 rgba8 gauss r=16 sigma=5.333, border clamp"), "480x270 rgba8 gauss r=16 sigma=5.333, border clamp");
}

TEST(Markup, CodeSpansAndBlocksCannotBeClosedFromInside) {
  EXPECT_EQ(markdown_code("a.png"), "`a.png`");
  EXPECT_EQ(markdown_code("a`b``c"), "```a`b``c```");
  EXPECT_EQ(markdown_code("`x"), "`` `x ``");
  EXPECT_EQ(markdown_code("a\nb"), "`a\\nb`");
  EXPECT_EQ(markdown_code_block("blurlab --radius-map 'x\n```\n# not a heading'", "sh"),
            "````sh\nblurlab --radius-map 'x\\n```\\n# not a heading'\n````\n");
  EXPECT_EQ(markdown_code_block("ls \x1b[2J", "sh"), "```sh\nls \\e[2J\n```\n");
}

TEST(Markup, GlslCommentsStayComments) {
  EXPECT_EQ(glsl_comment_text("map=m\nvoid main() {}\n.png"), "map=m\\x0avoid main() {}\\x0a.png");
  // A backslash at the end of a // comment continues it onto the next line of code.
  EXPECT_EQ(glsl_comment_text("C:\\maps\\"), "C:\\x5cmaps\\x5c");
  EXPECT_EQ(glsl_comment_text("\xc3\xa9\r\t"), "\\xc3\\xa9\\x0d\\x09");
  EXPECT_EQ(glsl_comment_text("llvmpipe (LLVM 15.0.6, 256 bits)"), "llvmpipe (LLVM 15.0.6, 256 bits)");
}

}  // namespace
}  // namespace blurlab
