#include <gtest/gtest.h>

#include "ui/soak.h"
#include "ui/span_stats.h"
#include "ui/view_state.h"
#include "util/error.h"

namespace blurlab::ui {
namespace {

TEST(Keys, DigitsAndArrowsSwitchVariant) {
  ViewState s;
  EXPECT_EQ(handle_key(s, Key::Digit3, 5), kReconfigure);
  EXPECT_EQ(s.variant, 2u);
  EXPECT_EQ(handle_key(s, Key::Digit3, 5), kNone);  // already there
  EXPECT_EQ(handle_key(s, Key::Digit9, 5), kNone);  // no ninth variant
  EXPECT_EQ(s.variant, 2u);
  handle_key(s, Key::Right, 5);
  EXPECT_EQ(s.variant, 3u);
  handle_key(s, Key::Right, 5);
  handle_key(s, Key::Right, 5);
  EXPECT_EQ(s.variant, 0u);  // wraps
  handle_key(s, Key::Left, 5);
  EXPECT_EQ(s.variant, 4u);
}

TEST(Keys, RadiusStaysInRangeAndSigmaFollows) {
  ViewState s;
  set_radius(s, 1);
  EXPECT_EQ(handle_key(s, Key::Minus, 5), kReconfigure);
  EXPECT_EQ(s.settings.kernel.radius, 0);
  EXPECT_EQ(handle_key(s, Key::Minus, 5), kNone);
  EXPECT_EQ(s.settings.kernel.radius, 0);
  set_radius(s, kMaxRadius);
  EXPECT_EQ(handle_key(s, Key::Plus, 5), kNone);
  EXPECT_EQ(s.settings.kernel.radius, kMaxRadius);
  set_radius(s, 8);
  handle_key(s, Key::Plus, 5);
  EXPECT_DOUBLE_EQ(s.settings.kernel.sigma, 3.0);
  s.sigma_follows_radius = false;
  s.settings.kernel.sigma = 1.5;
  handle_key(s, Key::Plus, 5);
  EXPECT_DOUBLE_EQ(s.settings.kernel.sigma, 1.5);  // set by hand: stays
}

TEST(Keys, KernelFormatAndToggles) {
  ViewState s;
  handle_key(s, Key::G, 5);
  EXPECT_EQ(s.settings.kernel.type, KernelType::Box);
  handle_key(s, Key::G, 5);
  EXPECT_EQ(s.settings.kernel.type, KernelType::Gauss);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba8);
  handle_key(s, Key::F, 5);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba16f);
  handle_key(s, Key::F, 5);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba32f);
  handle_key(s, Key::F, 5);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba8);
  EXPECT_EQ(handle_key(s, Key::Space, 5), kNone);
  EXPECT_TRUE(s.paused);
  EXPECT_EQ(handle_key(s, Key::V, 5), kVsync);
  EXPECT_TRUE(s.vsync);
  handle_key(s, Key::Tab, 5);
  EXPECT_FALSE(s.overlay);
  handle_key(s, Key::Help, 5);
  EXPECT_TRUE(s.help);
  EXPECT_EQ(handle_key(s, Key::S, 5), kScreenshot);
  EXPECT_EQ(handle_key(s, Key::R, 5), kReloadShaders);
  EXPECT_EQ(handle_key(s, Key::C, 5), kCheck);
  EXPECT_EQ(handle_key(s, Key::Escape, 5), kQuit);
}

TEST(Keys, BorderModesCycleAndTheConstantKeepsItsValue) {
  ViewState s;
  s.settings.border.value = {0.5f, 0.0f, 0.0f, 1.0f};  // as --border-value gives it
  std::vector<BorderMode> seen;
  for (size_t i = 0; i < kBorderModes.size(); ++i) {
    EXPECT_EQ(handle_key(s, Key::E, 5), kReconfigure);
    seen.push_back(s.settings.border.mode);
  }
  EXPECT_EQ(seen, (std::vector<BorderMode>{BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap, BorderMode::Constant,
                                           BorderMode::Clamp}));
  EXPECT_EQ(s.settings.border.value, (Rgba{0.5f, 0.0f, 0.0f, 1.0f}));
  EXPECT_EQ(parse_key("E"), Key::E);
}

TEST(Keys, ViewsCycle) {
  ViewState s;
  EXPECT_TRUE(handle_key(s, Key::D, 5) & kCheck);
  EXPECT_EQ(s.view, View::DiffReference);
  handle_key(s, Key::D, 5);
  EXPECT_EQ(s.view, View::DiffVariant);
  handle_key(s, Key::D, 5);
  EXPECT_EQ(s.view, View::Blurred);
  handle_key(s, Key::B, 5);
  EXPECT_EQ(s.view, View::Unblurred);
  handle_key(s, Key::B, 5);
  EXPECT_EQ(s.view, View::Blurred);
}

TEST(Keys, LinearLightMovesScenesAndIntermediatesToHalfFloat) {
  ViewState s;
  EXPECT_EQ(handle_key(s, Key::L, 5), kRebuildTargets | kReconfigure);
  EXPECT_TRUE(s.linear_light);
  EXPECT_EQ(s.settings.input_format, gl::Format::rgba16f);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba16f);  // rgba8 cannot hold HDR values
  handle_key(s, Key::L, 5);
  EXPECT_EQ(s.settings.input_format, gl::Format::rgba8);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba8);
  s.settings.intermediate = gl::Format::rgba32f;
  handle_key(s, Key::L, 5);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba32f);  // a float choice stays
}

TEST(Script, Parses) {
  const auto steps = parse_script("20:resize=517x389; 3:key=Right;30:resize=0x0;;");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].frame, 3u);
  EXPECT_EQ(*steps[0].key, Key::Right);
  EXPECT_EQ(*steps[1].resize, glm::ivec2(517, 389));
  EXPECT_EQ(*steps[2].resize, glm::ivec2(0, 0));
  for (const char* bad : {"x:key=G", "3:key=Q", "3:jump=1", "3:resize=10", "3", "-1:key=G", "3:resize=99999x2"})
    EXPECT_THROW(parse_script(bad), UsageError) << bad;
}

TEST(SpanStats, WindowMeanMinMax) {
  SpanStats stats(3);
  for (double ms : {1.0, 2.0, 3.0, 10.0}) stats.add(gl::FrameTimes{0, {{"total", ms}, {"h", ms / 2}}});
  const auto s = stats.summaries();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "total");
  EXPECT_EQ(s[0].samples, 3u);
  EXPECT_DOUBLE_EQ(s[0].mean_ms, 5.0);
  EXPECT_DOUBLE_EQ(s[0].min_ms, 2.0);
  EXPECT_DOUBLE_EQ(s[0].max_ms, 10.0);
  EXPECT_EQ(stats.history("h"), (std::vector<float>{1.0f, 1.5f, 5.0f}));
  stats.clear();
  EXPECT_TRUE(stats.summaries().empty());
}

TEST(Soak, KeepsRadiusAndSizesInBoundsAndComesBackFromMinimized) {
  SoakDriver driver;
  ViewState state;
  set_radius(state, 4);
  int keys = 0, resizes = 0, minimized = 0, restored = 0;
  bool is_minimized = false;
  for (uint64_t frame = 0; frame < 5000; ++frame)
    for (const ScriptStep& step : driver.steps(frame, state.settings.kernel.radius)) {
      if (step.key) {
        ++keys;
        handle_key(state, *step.key, 15);
        EXPECT_LE(state.settings.kernel.radius, SoakDriver::kMaxRadius);
      }
      if (step.resize) {
        ++resizes;
        const bool zero = *step.resize == glm::ivec2(0, 0);
        minimized += zero;
        restored += is_minimized && !zero;
        is_minimized = zero;
        EXPECT_LE(step.resize->x, SoakDriver::kMaxSize.x);
        EXPECT_LE(step.resize->y, SoakDriver::kMaxSize.y);
      }
    }
  EXPECT_GT(keys, 1500);
  EXPECT_GT(resizes, 200);
  EXPECT_GT(minimized, 10);
  EXPECT_GE(restored, minimized - 1);  // every minimized window comes back
}

}  // namespace
}  // namespace blurlab::ui
