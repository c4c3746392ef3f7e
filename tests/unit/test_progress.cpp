// The sweep's progress: a bar on a terminal, erased before the table; a line per item elsewhere.
#include <gtest/gtest.h>

#include <sstream>

#include "util/progress.h"

namespace blurlab {
namespace {

TEST(Progress, PipedGetsALinePerItemAndNoBar) {
  std::ostringstream out;
  {
    Progress progress(4, 2, out, /*terminal=*/false, /*quiet_s=*/0.0);
    progress.item("copy (64x48 rgba8)");
    progress.step("copy");
    progress.item("compute-separable (64x48 rgba8)");
    progress.step("compute-separable r=1");
    progress.step("compute-separable r=2");
    progress.clear();
  }
  EXPECT_EQ(out.str(), "[1/2] copy (64x48 rgba8)\n[2/2] compute-separable (64x48 rgba8)\n");
}

// A short piped run (a refusal, a failed check) prints nothing but its result: an error stays one line.
TEST(Progress, PipedLinesStartOnlyAfterTheQuietSeconds) {
  std::ostringstream out;
  Progress progress(2, 2, out, false, /*quiet_s=*/3600.0);
  progress.item("copy");
  progress.item("compute-separable");
  EXPECT_EQ(out.str(), "");
}

TEST(Progress, CountsAreAligned) {
  std::ostringstream out;
  Progress progress(12, 12, out, false, 0.0);
  progress.item("a");
  EXPECT_EQ(out.str(), "[ 1/12] a\n");
}

TEST(Progress, OneItemSaysNothingWhenPiped) {
  std::ostringstream out;
  {
    Progress progress(3, 1, out, false, 0.0);
    progress.item("copy");
    progress.step("copy");
  }
  EXPECT_EQ(out.str(), "");
}

TEST(Progress, TheBarIsErasedBeforeWhatFollows) {
  std::ostringstream out;
  Progress progress(2, 2, out, /*terminal=*/true);
  progress.item("copy");
  progress.step("copy");
  const std::string bar = out.str();
  EXPECT_EQ(bar.rfind("\r[", 0), 0u) << bar;
  EXPECT_EQ(bar.find('\n'), std::string::npos) << "no lines on a terminal: " << bar;
  progress.clear();
  out << "variant  settings\n";
  // What a terminal shows: the text after the last carriage return of the line.
  const std::string shown = out.str().substr(out.str().rfind('\r') + 1);
  EXPECT_EQ(shown, "variant  settings\n");
  // Erased with spaces as wide as the bar was.
  const std::string erased = out.str().substr(bar.size());
  EXPECT_GE(erased.find_last_not_of('\r') + 1, bar.size() - 1);
  progress.clear();  // a second time: nothing
  EXPECT_EQ(out.str().substr(out.str().rfind('\r') + 1), "variant  settings\n");
}

}  // namespace
}  // namespace blurlab
