#include <gtest/gtest.h>

#include <algorithm>

#include "blur/kernel.h"
#include "blur/registry.h"
#include "effects/registry.h"
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

TEST(Keys, ShiftDigitsReachVariantsTenToEighteenInTheListsOrder) {
  ViewState s;
  EXPECT_EQ(handle_key(s, Key::ShiftDigit1, 16), kReconfigure);
  EXPECT_EQ(s.variant, 9u);
  handle_key(s, Key::ShiftDigit7, 16);
  EXPECT_EQ(s.variant, 15u);
  EXPECT_EQ(handle_key(s, Key::ShiftDigit8, 16), kNone) << "no seventeenth variant";
  EXPECT_EQ(s.variant, 15u);
  // The overlay labels each variant with its key; the key selects that variant.
  for (size_t i = 0; i < 18; ++i) {
    const std::string key = variant_key(i);
    ASSERT_TRUE(parse_key(key)) << key;
    ViewState t;
    t.variant = i == 0 ? 1 : 0;
    handle_key(t, *parse_key(key), 18);
    EXPECT_EQ(t.variant, i) << key;
  }
  EXPECT_EQ(variant_key(0), "1");
  EXPECT_EQ(variant_key(9), "Shift+1");
  EXPECT_EQ(variant_key(18), "");
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

// An approximation blurs the sigma alone: +/- step it (it was set by hand with --sigma, and the
// radius alone changed nothing); an exact variant keeps a sigma set by hand.
TEST(Keys, PlusAndMinusStepAnApproximationsSigma) {
  const auto all = variants();
  const auto approximation = std::find_if(all.begin(), all.end(), [](const VariantInfo* v) { return is_approximation(*v); });
  ASSERT_NE(approximation, all.end());
  ViewState s;
  s.variant = static_cast<size_t>(approximation - all.begin());
  s.settings.kernel = make_kernel(KernelType::Gauss, std::nullopt, 2.0);
  s.sigma_follows_radius = false;  // --sigma 2
  EXPECT_EQ(handle_key(s, Key::Plus, all.size()), kReconfigure);
  EXPECT_NEAR(s.settings.kernel.sigma, 2.0 + 1.0 / 3.0, 1e-12);
  EXPECT_EQ(s.settings.kernel.radius, radius_for_sigma(s.settings.kernel.sigma));
  EXPECT_EQ(handle_key(s, Key::Minus, all.size()), kReconfigure);
  EXPECT_EQ(handle_key(s, Key::Minus, all.size()), kReconfigure);
  EXPECT_NEAR(s.settings.kernel.sigma, 2.0 - 1.0 / 3.0, 1e-12);
  s.settings.kernel = make_kernel(KernelType::Gauss, std::nullopt, 1.0 / 3.0);
  EXPECT_EQ(handle_key(s, Key::Minus, all.size()), kNone) << "the smallest sigma";
  s.settings.kernel = make_kernel(KernelType::Gauss, std::nullopt, kMaxRadius / 3.0);
  EXPECT_EQ(handle_key(s, Key::Plus, all.size()), kNone) << "the largest";
  // From a sigma that follows the radius, a step is the radius's step.
  ViewState follows;
  follows.variant = s.variant;
  set_radius(follows, 9);
  handle_key(follows, Key::Plus, all.size());
  EXPECT_NEAR(follows.settings.kernel.sigma, 10.0 / 3.0, 1e-12);
  EXPECT_EQ(follows.settings.kernel.radius, 10);
}

// D adds the difference to the exact Gaussian for an approximation, between its CPU model and the
// second variant.
TEST(Keys, AnApproximationsDifferenceViewsIncludeTheExactGaussian) {
  const auto all = variants();
  const auto approximation = std::find_if(all.begin(), all.end(), [](const VariantInfo* v) { return is_approximation(*v); });
  ViewState s;
  s.variant = static_cast<size_t>(approximation - all.begin());
  EXPECT_TRUE(handle_key(s, Key::D, all.size()) & kCheck);
  EXPECT_EQ(s.view, View::DiffReference);
  EXPECT_TRUE(handle_key(s, Key::D, all.size()) & kCheck) << "the exact Gaussian comes with the check";
  EXPECT_EQ(s.view, View::DiffGaussian);
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = true}, "b").picture, Picture::DiffGaussian);
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = true}, "b").label, "difference to the exact Gaussian");
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = false}, "b").picture, Picture::Blurred);
  handle_key(s, Key::D, all.size());
  EXPECT_EQ(s.view, View::DiffVariant);
  handle_key(s, Key::D, all.size());
  EXPECT_EQ(s.view, View::Blurred);
}

TEST(Keys, TheListSaysWhichVariantsHaveNoKey) {
  EXPECT_EQ(keyless_variants_note(18), "");
  EXPECT_EQ(keyless_variants_note(25), "no key past 18: 19-25 by Left/Right or this list");
  EXPECT_EQ(variant_key(17), "Shift+9");
  EXPECT_EQ(variant_key(18), "");
}

TEST(Keys, MCyclesTheRadiusMaps) {
  ViewState s;
  EXPECT_EQ(parse_key("M"), Key::M);
  EXPECT_EQ(handle_key(s, Key::M, 5), kReconfigure);
  EXPECT_EQ(s.settings.radius_map, builtin_radius_map("ramp"));
  handle_key(s, Key::M, 5);
  EXPECT_EQ(s.settings.radius_map, builtin_radius_map("band"));
  handle_key(s, Key::M, 5);
  EXPECT_EQ(s.settings.radius_map, builtin_radius_map("circle"));
  handle_key(s, Key::M, 5);
  EXPECT_EQ(s.settings.radius_map, nullptr);  // no file given: back to none
  auto file = std::make_shared<RadiusMap>();
  file->shape = MapShape::File;
  s.radius_map_file = file;
  for (int i = 0; i < 4; ++i) handle_key(s, Key::M, 5);
  EXPECT_EQ(s.settings.radius_map, s.radius_map_file);
  handle_key(s, Key::M, 5);
  EXPECT_EQ(s.settings.radius_map, nullptr);
}

TEST(Keys, LinearLightMovesScenesAndIntermediatesToHalfFloat) {
  ViewState s;
  EXPECT_EQ(handle_key(s, Key::L, 5), kRebuildTargets | kReconfigure);
  EXPECT_TRUE(s.linear_light);
  EXPECT_TRUE(s.settings.linear) << "the same setting as --linear";
  EXPECT_EQ(s.settings.input_format, gl::Format::rgba16f);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba16f);  // rgba8 cannot hold HDR values
  handle_key(s, Key::L, 5);
  EXPECT_FALSE(s.settings.linear);
  EXPECT_EQ(s.settings.input_format, gl::Format::rgba8);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba8);
  s.settings.intermediate = gl::Format::rgba32f;
  handle_key(s, Key::L, 5);
  EXPECT_EQ(s.settings.intermediate_format(), gl::Format::rgba32f);  // a float choice stays
}

TEST(Script, Parses) {
  const auto steps = parse_script("20:resize=517x389; 3:key=Right;30:resize=0x0;;31:wait=check");
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].frame, 3u);
  EXPECT_EQ(*steps[0].key, Key::Right);
  EXPECT_EQ(*steps[1].resize, glm::ivec2(517, 389));
  EXPECT_EQ(*steps[2].resize, glm::ivec2(0, 0));
  EXPECT_TRUE(steps[3].wait_for_check);
  EXPECT_FALSE(steps[2].wait_for_check);
  for (const char* bad : {"x:key=G", "3:key=Q", "3:jump=1", "3:resize=10", "3", "-1:key=G", "3:resize=99999x2", "3:key=Shift+0",
                          "3:wait=frame", "3:wait="})
    EXPECT_THROW(parse_script(bad), UsageError) << bad;
}

TEST(Script, TakesTheReadmesKeyNamesAndListsThemWhenWrong) {
  const auto steps = parse_script("1:key=+;2:key=-;3:key=?;4:key=Esc;5:key=Shift+3;6:key=F1;7:key=Plus;8:key==;9:key=Escape");
  const std::vector<Key> expected{Key::Plus, Key::Minus, Key::Help, Key::Escape, Key::ShiftDigit3, Key::Help, Key::Plus, Key::Plus,
                                  Key::Escape};
  ASSERT_EQ(steps.size(), expected.size());
  for (size_t i = 0; i < steps.size(); ++i) EXPECT_EQ(*steps[i].key, expected[i]) << i;
  try {
    parse_script("3:key=Q");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("unknown key 'Q'"), std::string::npos) << text;
    for (const char* name : {"1-9", "Shift+1-9", "Left", "Right", "+", "-", "Esc", "?", "F1", "Space", "Tab"})
      EXPECT_NE(text.find(name), std::string::npos) << name << " missing from: " << text;
  }
}

TEST(Presented, TheViewLineDescribesThePicture) {
  ViewState s;
  EXPECT_EQ(presented(s, {.blur_runs = true}, "b").picture, Picture::Blurred);
  // A variant that cannot run the settings: the unblurred scene is shown, and said.
  const Presented refused = presented(s, {.blur_runs = false}, "b");
  EXPECT_EQ(refused.picture, Picture::Unblurred);
  EXPECT_NE(refused.label.find("unblurred scene"), std::string::npos) << refused.label;
  s.view = View::Unblurred;
  EXPECT_EQ(presented(s, {.blur_runs = true}, "b").picture, Picture::Unblurred);
  // The difference only once its other picture exists; the blurred picture until then.
  s.view = View::DiffReference;
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = false}, "b").picture, Picture::Blurred);
  EXPECT_NE(presented(s, {.blur_runs = true, .reference_ready = false}, "b").label.find("blurred"), std::string::npos);
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = true}, "b").picture, Picture::DiffReference);
  s.view = View::DiffVariant;
  EXPECT_EQ(presented(s, {.blur_runs = true, .second_runs = false}, "frag-x").picture, Picture::Blurred);
  EXPECT_NE(presented(s, {.blur_runs = true, .second_runs = false}, "frag-x").label.find("frag-x does not run"), std::string::npos);
  EXPECT_EQ(presented(s, {.blur_runs = true, .second_runs = true}, "frag-x").label, "difference to frag-x");
}

// --- effects in the window (X) ------------------------------------------------------------------

size_t variant_index(std::string_view name) {
  const auto all = variants();
  return static_cast<size_t>(std::find_if(all.begin(), all.end(), [&](const VariantInfo* v) { return v->name == name; }) - all.begin());
}

TEST(EffectKeys, XCyclesNoneThenEveryEffectThenNone) {
  ViewState s;
  const auto all = effects();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(current_effect(s), nullptr);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(handle_key(s, Key::X, variants().size()), kRebuildTargets | kReconfigure);
    EXPECT_EQ(current_effect(s), all[i]);
    EXPECT_FALSE(current_implementation(s).empty());
  }
  EXPECT_EQ(handle_key(s, Key::X, variants().size()), kRebuildTargets | kReconfigure);
  EXPECT_EQ(current_effect(s), nullptr) << "after the last effect: none, the blurs alone";
  EXPECT_EQ(current_implementation(s), "");
  ASSERT_TRUE(parse_key("X"));
  EXPECT_EQ(*parse_key("X"), Key::X);
  EXPECT_NE(key_names().find(", X"), std::string::npos) << key_names();
}

TEST(EffectKeys, TheEffectStartsWithTheVariantOnScreenWhereThatServesIt) {
  const EffectInfo* bloom = find_effect("bloom");
  ASSERT_NE(bloom, nullptr);
  const std::vector<std::string> names = bloom->implementations();
  ViewState s;
  s.variant = variant_index("fft");
  select_effect(s, 1);
  EXPECT_EQ(current_implementation(s), "fft");
  // copy blurs nothing: the effect's first implementation.
  ViewState t;
  t.variant = variant_index("copy");
  select_effect(t, 1);
  EXPECT_EQ(current_implementation(t), names.front());
  // The difference views of a blur alone do not apply: the effect's picture.
  ViewState u;
  u.view = View::DiffVariant;
  select_effect(u, 1);
  EXPECT_EQ(u.view, View::Blurred);
}

TEST(EffectKeys, ArrowsAndDigitsChooseTheImplementation) {
  const EffectInfo* bloom = find_effect("bloom");
  ASSERT_NE(bloom, nullptr);
  const std::vector<std::string> names = bloom->implementations();
  ASSERT_GE(names.size(), 2u);
  const size_t count = variants().size();
  ViewState s;
  s.variant = variant_index("copy");
  select_effect(s, 1);
  ASSERT_EQ(s.implementation, 0u);
  EXPECT_EQ(handle_key(s, Key::Left, count), kReconfigure);
  EXPECT_EQ(current_implementation(s), names.back()) << "wraps to the effect's own";
  EXPECT_EQ(handle_key(s, Key::Right, count), kReconfigure);
  EXPECT_EQ(current_implementation(s), names.front());
  // A digit selects its variant as the implementation where it serves the effect...
  const size_t separable = variant_index("compute-separable");
  ASSERT_FALSE(variant_key(separable).empty());
  EXPECT_EQ(handle_key(s, *parse_key(variant_key(separable)), count), kReconfigure);
  EXPECT_EQ(current_implementation(s), "compute-separable");
  EXPECT_EQ(s.variant, separable);
  EXPECT_TRUE(s.key_note.empty());
  // ... and does nothing else, saying why, where it does not (copy blurs nothing).
  EXPECT_EQ(handle_key(s, *parse_key(variant_key(variant_index("copy"))), count), kNone);
  EXPECT_EQ(current_implementation(s), "compute-separable");
  EXPECT_NE(s.key_note.find("copy does not serve bloom"), std::string::npos) << s.key_note;
  // Without the effect the digits select variants as always.
  select_effect(s, 0);
  EXPECT_EQ(handle_key(s, Key::Digit1, count), kReconfigure);
  EXPECT_EQ(s.variant, 0u);
}

TEST(EffectKeys, TheBlursOwnSettingsKeysSayWhyTheyDoNothing) {
  ViewState s;
  select_effect(s, 1);
  const ViewState before = s;
  for (Key k : {Key::Plus, Key::Minus, Key::G, Key::F, Key::M, Key::L}) {
    EXPECT_EQ(handle_key(s, k, variants().size()), kNone);
    EXPECT_NE(s.key_note.find("a setting of the blur alone"), std::string::npos) << s.key_note;
    EXPECT_EQ(s.settings, before.settings);
    EXPECT_EQ(s.linear_light, before.linear_light);
  }
  // The next key that does something clears the note; E (the blurs' border) applies to the effect.
  EXPECT_EQ(handle_key(s, Key::E, variants().size()), kReconfigure);
  EXPECT_TRUE(s.key_note.empty());
  EXPECT_EQ(effect_settings(s).border.mode, s.settings.border.mode);
  EXPECT_NE(s.settings.border.mode, before.settings.border.mode);
}

TEST(EffectKeys, DShowsTheDifferenceToTheGroundTruthAndBack) {
  ViewState s;
  select_effect(s, 1);
  EXPECT_EQ(handle_key(s, Key::D, variants().size()), kCheck | kReconfigure);
  EXPECT_EQ(s.view, View::DiffReference);
  EXPECT_EQ(handle_key(s, Key::D, variants().size()), kNone);
  EXPECT_EQ(s.view, View::Blurred) << "no difference to an exact Gaussian or a second variant for an effect";
}

TEST(EffectKeys, ParametersAreValidatedAndARefusedValueKeepsTheOldOne) {
  const EffectInfo* bloom = find_effect("bloom");
  ASSERT_NE(bloom, nullptr);
  ViewState s;
  s.effect_values["not-a-parameter-of-bloom"] = "7";  // another effect's: left alone
  select_effect(s, 1);
  EffectSettings settings = effect_settings(s);
  ASSERT_EQ(settings.values.size(), bloom->parameters.size());
  for (const EffectParameter& p : bloom->parameters) EXPECT_EQ(settings.values.at(std::string(p.name)), p.default_value) << p.name;
  EXPECT_EQ(settings.implementation, current_implementation(s));
  EXPECT_FALSE(set_effect_value(s, "intensity", "0.25", {640, 360}));
  EXPECT_EQ(effect_settings(s).values.at("intensity"), "0.25");
  const auto refused = set_effect_value(s, "intensity", "-1", {640, 360});
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("out of range"), std::string::npos) << *refused;
  EXPECT_EQ(effect_settings(s).values.at("intensity"), "0.25") << "a refused value keeps the old one";
  // Judged for the window's size: 60% of 360 rows is a sigma of 216 (radius 648), past the largest radius.
  const auto too_wide = set_effect_value(s, "psf", "gauss:60%", {640, 360});
  ASSERT_TRUE(too_wide);
  EXPECT_NE(too_wide->find("sigma"), std::string::npos) << *too_wide;
  EXPECT_FALSE(set_effect_value(s, "psf", "gauss:60%", {320, 180})) << "108 px at 180 rows: within reach";
  EXPECT_TRUE(set_effect_value(s, "no-such", "1", {640, 360}));
  ViewState none;
  EXPECT_TRUE(set_effect_value(none, "intensity", "0.5", {640, 360})) << "no effect on screen";
}

TEST(Presented, WithAnEffectTheViewLineSaysWhatIsShown) {
  ViewState s;
  select_effect(s, 1);
  const std::string effect(current_effect(s)->name);
  EXPECT_EQ(presented(s, {.blur_runs = true}, "").picture, Picture::Blurred);
  EXPECT_EQ(presented(s, {.blur_runs = true}, "").label, effect);
  const Presented refused = presented(s, {.blur_runs = false}, "");
  EXPECT_EQ(refused.picture, Picture::Unblurred);
  EXPECT_NE(refused.label.find("without " + effect + ": the HDR frame, tonemapped; the implementation cannot run"), std::string::npos)
      << refused.label;
  s.view = View::Unblurred;
  EXPECT_EQ(presented(s, {.blur_runs = true}, "").label, "without " + effect + ": the HDR frame, tonemapped (B)");
  s.view = View::DiffReference;
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = false}, "").picture, Picture::Blurred);
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = true}, "").picture, Picture::DiffReference);
  EXPECT_EQ(presented(s, {.blur_runs = true, .reference_ready = true}, "").label, "difference to " + effect + "'s ground truth");
}

TEST(Presented, ASecondVariantThatWouldSetTheFrameRateStops) {
  EXPECT_FALSE(second_variant_stall("frag-naive", 30.0, 20.0));
  EXPECT_FALSE(second_variant_stall("frag-naive", 900.0, 400.0)) << "slow, but so is the first";
  EXPECT_FALSE(second_variant_stall("frag-naive", kSecondStallMs - 1, 1.0)) << "below the absolute bound";
  const auto stop = second_variant_stall("frag-naive", 2500.0, 40.0);
  ASSERT_TRUE(stop);
  EXPECT_NE(stop->find("frag-naive: 2500 ms for one frame (the first variant: 40 ms)"), std::string::npos) << *stop;
  EXPECT_TRUE(second_variant_stall("frag-naive", 2500.0, std::nullopt));
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
