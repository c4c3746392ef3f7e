// The sweep's progress: a bar on a terminal, erased before the table; a line per item elsewhere.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "util/progress.h"

namespace blurlab {
namespace {

// A clock the test sets: seconds since the run began.
struct FakeClock {
  double now = 0.0;
  std::function<double()> seconds() {
    return [this] { return now; };
  }
};

TEST(Progress, PipedGetsALinePerItemAndNoBar) {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress progress(3, 2, out, /*terminal=*/false, /*quiet_s=*/0.0, clock.seconds());
    progress.item("copy (64x48 rgba8)");
    progress.step("copy");
    clock.now = 4.0;
    progress.item("compute-separable (64x48 rgba8)");
    progress.step("compute-separable r=1");
    progress.step("compute-separable r=2");
    progress.clear();
  }
  // The estimate: 1 of 3 steps done in 4 s, so about 8 s for the other 2.
  EXPECT_EQ(out.str(), "[1/2] copy (64x48 rgba8): 0 s so far\n[2/2] compute-separable (64x48 rgba8): 4 s so far, about 8 s left\n");
}

// The lines of the quiet seconds are held back, and come out before the first line after them:
// none of the first items is missing from a long run.
TEST(Progress, HeldLinesComeOutOnceTheQuietSecondsPass) {
  std::ostringstream out;
  FakeClock clock;
  Progress progress(4, 4, out, false, /*quiet_s=*/2.0, clock.seconds());
  progress.item("a");
  progress.step("a");
  clock.now = 1.0;
  progress.item("b");
  progress.step("b");
  EXPECT_EQ(out.str(), "");
  clock.now = 3.0;
  progress.item("c");
  EXPECT_EQ(out.str(), "[1/4] a: 0 s so far\n[2/4] b: 1 s so far, about 3 s left\n[3/4] c: 3 s so far, about 3 s left\n");
}

// Within a long step (--tune trying knob after knob), a line every kTickSeconds says what it is at.
TEST(Progress, TicksSayWhereALongStepIs) {
  std::ostringstream out;
  FakeClock clock;
  Progress progress(2, 1, out, false, 2.0, clock.seconds());  // one item: no item lines, tick lines still
  progress.item("compute-separable-regblock (480x270 rgba8)");
  progress.step("compute-separable-regblock");
  for (int i = 1; i <= 20; ++i) {
    clock.now = 2.0 * i;
    progress.tick("workgroup=" + std::to_string(i));
  }
  // At 2 s the quiet period ends, the first tick line comes at 16 s (15 s after the start), the next at 32 s.
  EXPECT_EQ(out.str(),
            "[1/1] compute-separable-regblock (480x270 rgba8): workgroup=8 (the 8th tried), 16 s so far\n"
            "[1/1] compute-separable-regblock (480x270 rgba8): workgroup=16 (the 16th tried), 32 s so far\n");
}

TEST(Progress, Durations) {
  EXPECT_EQ(Progress::duration_text(0.4), "0 s");
  EXPECT_EQ(Progress::duration_text(59.4), "59 s");
  EXPECT_EQ(Progress::duration_text(90), "1 min 30 s");
  EXPECT_EQ(Progress::duration_text(120), "2 min");
  EXPECT_EQ(Progress::duration_text(638), "11 min");
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
  FakeClock clock;
  Progress progress(12, 12, out, false, 0.0, clock.seconds());
  progress.item("a");
  EXPECT_EQ(out.str(), "[ 1/12] a: 0 s so far\n");
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
