// The benchmark engine without a GPU: the timing policy (warm-up floor, budget, frame counts)
// against a fake clock and fake frames, medians, the tuner's choices against fake timings, and
// the sweep's plan.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <sstream>

#include "bench/sweep.h"
#include "bench/timing.h"
#include "bench/tuner.h"
#include "blur/registry.h"

namespace blurlab::bench {
namespace {

class FakeClock final : public Clock {
 public:
  double seconds() override { return now; }
  double now = 100.0;
};

// Frames that take `frame_s` of wall time each (the clock moves when the device is waited for,
// as it does when the CPU outruns the GPU) and report `gpu_ms` for every timed frame, a frame late.
class FakeFrames final : public Frames {
 public:
  FakeFrames(FakeClock& clock, double frame_s, std::vector<double> gpu_ms) : clock_(clock), frame_s_(frame_s), gpu_ms_(std::move(gpu_ms)) {}
  void run_untimed() override {
    ++untimed;
    ++pending_;
  }
  void run_timed() override {
    ++pending_;
    gl::FrameTimes f;
    f.frame = static_cast<uint64_t>(timed);
    f.spans = {{"total", gpu_ms_[static_cast<size_t>(timed) % gpu_ms_.size()]}, {"h", 0.25}};
    in_flight_.push_back(f);
    ++timed;
  }
  void finish() override {
    clock_.now += pending_ * frame_s_;
    pending_ = 0;
    ++finishes;
  }
  std::vector<gl::FrameTimes> poll() override {
    std::vector<gl::FrameTimes> done;
    while (in_flight_.size() > (pending_ ? 1u : 0u)) {  // the newest frame is still running
      done.push_back(in_flight_.front());
      in_flight_.pop_front();
    }
    return done;
  }
  int untimed = 0, timed = 0, finishes = 0;

 private:
  FakeClock& clock_;
  double frame_s_;
  std::vector<double> gpu_ms_;
  int pending_ = 0;
  std::deque<gl::FrameTimes> in_flight_;
};

TEST(Timing, WarmUpLastsAtLeastItsFloorAndItsFrames) {
  FakeClock clock;
  FakeFrames fast(clock, 0.001, {1.0});  // 1 ms frames: the 0.5 s floor decides
  const Timing t = time_frames(fast, clock, {.warmup_frames = 5, .min_warmup_s = 0.5, .frames = 30, .budget_s = 3});
  EXPECT_GE(t.warmup_frames, 500);
  EXPECT_LE(t.warmup_frames, 504);
  EXPECT_EQ(t.timed_frames, 30);
  FakeClock clock2;
  FakeFrames slowish(clock2, 0.2, {1.0});  // 0.2 s frames: 5 frames take 1 s, past the floor
  EXPECT_EQ(time_frames(slowish, clock2, {.warmup_frames = 5, .min_warmup_s = 0.5, .frames = 30, .budget_s = 0}).warmup_frames, 5);
}

TEST(Timing, SlowConfigurationsStopWarmingUpAtAThirdOfTheBudget) {
  FakeClock clock;
  FakeFrames slow(clock, 0.4, {400.0});  // 0.4 s frames, budget 3 s: give up after > 1 s
  const Timing t = time_frames(slow, clock, {.warmup_frames = 50, .min_warmup_s = 0.5, .frames = 30, .budget_s = 3});
  EXPECT_EQ(t.warmup_frames, 4);  // waited for every 4 frames: 1.6 s > 1 s
  // Then as many frames as the budget allows at the warm-up's pace (7.5), at least 3.
  EXPECT_EQ(t.timed_frames, 7);
  EXPECT_EQ(timed_frame_count({.frames = 30, .budget_s = 3}, 10.0), 3);
  EXPECT_EQ(timed_frame_count({.frames = 2, .budget_s = 3}, 10.0), 2);
  EXPECT_EQ(timed_frame_count({.frames = 30, .budget_s = 0}, 10.0), 30);
}

TEST(Timing, EverySpanOfEveryTimedFrameIsCollectedInOrder) {
  FakeClock clock;
  FakeFrames frames(clock, 0.01, {2.0, 4.0, 3.0});
  const Timing t = time_frames(frames, clock, {.warmup_frames = 1, .min_warmup_s = 0.0, .frames = 9, .budget_s = 0});
  EXPECT_EQ(t.span_order, (std::vector<std::string>{"total", "h"}));
  ASSERT_EQ(t.spans_ms.at("total").size(), 9u);
  EXPECT_EQ(t.spans_ms.at("total")[1], 4.0);
  EXPECT_EQ(report::stats_of(t.spans_ms.at("total")).median, 3.0);
  EXPECT_NEAR(t.cpu_ms_per_frame, 10.0, 1e-9);  // the wall time of the timed frames, one finish at the end
  EXPECT_EQ(frames.finishes, 3);  // warm-up (frame count reached), after it, after the timed frames
}

// Fake timings for compute-sliding: a table by (workgroup, unroll, segment), anything else 10 ms.
struct FakeTimes {
  std::map<std::tuple<int, int, int>, std::deque<double>> table;  // successive timings of a setting
  int calls = 0;
  std::optional<double> operator()(const BlurSettings& s) {
    ++calls;
    const auto key = std::tuple(s.knob("workgroup").x, s.knob("unroll").x, s.knob("segment").x);
    auto it = table.find(key);
    if (it == table.end() || it->second.empty()) return 10.0;
    const double ms = it->second.front();
    if (it->second.size() > 1) it->second.pop_front();
    return ms;
  }
};

BlurSettings box16() {
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Box, 16, std::nullopt);
  return s;
}

TEST(Tuner, DescentFindsTheFastestCombinationOneKnobAtATime) {
  const VariantInfo& v = *find_variant("compute-sliding");  // at r = 16: workgroup 64x1 first, unroll 8, segment 64
  FakeTimes times;
  times.table[{32, 8, 64}] = {8.0};    // a better workgroup
  times.table[{32, 4, 64}] = {5.0};    // then a better unroll, with that workgroup
  times.table[{32, 4, 1024}] = {4.0};  // then a better segment
  const auto result = tune(v, box16(), std::ref(times), {.finalists = 2, .rounds = 3});
  ASSERT_TRUE(result);
  EXPECT_EQ(result->best.knob("workgroup"), (KnobValue{32, 1}));
  EXPECT_EQ(result->best.knob("unroll"), (KnobValue{4, 0}));
  EXPECT_EQ(result->best.knob("segment"), (KnobValue{1024, 0}));
  EXPECT_DOUBLE_EQ(result->best_ms, 4.0);
  EXPECT_DOUBLE_EQ(result->default_ms, 10.0);
  EXPECT_EQ(result->timings, times.calls);
}

TEST(Tuner, ALuckyTimingDoesNotWin) {
  // The noisy machine: one candidate measured 6 ms once, then as slow as the default.
  const VariantInfo& v = *find_variant("compute-sliding");
  FakeTimes times;
  times.table[{64, 8, 64}] = {10.0, 10.2, 9.8, 10.1, 9.9};
  times.table[{256, 8, 64}] = {6.0, 10.1, 10.3, 9.9, 10.0};
  const auto result = tune(v, box16(), std::ref(times), {.finalists = 2, .rounds = 4});
  ASSERT_TRUE(result);
  EXPECT_EQ(result->best, resolve(v, box16())) << "the default must stay: " << result->verdict;
  EXPECT_EQ(result->verdict, "kept: in spread");
}

TEST(Tuner, AClearWinnerIsConfirmed) {
  const VariantInfo& v = *find_variant("compute-sliding");
  FakeTimes times;
  times.table[{64, 8, 64}] = {10.0, 10.2, 9.8, 10.1, 9.9};
  times.table[{256, 8, 64}] = {6.0, 6.2, 5.9, 6.1, 6.0};
  const auto result = tune(v, box16(), std::ref(times), {.finalists = 2, .rounds = 4});
  ASSERT_TRUE(result);
  EXPECT_EQ(result->best.knob("workgroup"), (KnobValue{256, 1}));
  EXPECT_NEAR(result->best_ms, 6.05, 0.1);
  EXPECT_NE(result->verdict.find("won by"), std::string::npos);
}

TEST(Tuner, NothingToTuneWhenTheDefaultsCannotRun) {
  const VariantInfo& v = *find_variant("compute-sliding");
  EXPECT_FALSE(tune(v, box16(), [](const BlurSettings&) { return std::optional<double>(); }));
}

TEST(Tuner, SpreadRule) {
  EXPECT_TRUE(wins_beyond_spread({5, 5.1, 4.9}, {10, 10.1, 9.9}));
  EXPECT_FALSE(wins_beyond_spread({9.5, 9.9, 10.4}, {10, 10.1, 9.9}));  // within the spread
  EXPECT_FALSE(wins_beyond_spread({}, {10}));
}

TEST(Sweep, PlanAddsTheFloorFirstAndGroupsBySizeAndFormat) {
  SweepRequest r;
  r.sizes = {{64, 32}, {16, 16}};
  r.input_formats = {gl::Format::rgba8, gl::Format::rgba16f};
  r.variants = {find_variant("compute-separable")};
  r.settings = [](const VariantInfo& v, gl::Format f) {
    BlurSettings s;
    s.input_format = f;
    return std::vector<BlurSettings>(is_blur(v) ? 2 : 1, s);
  };
  r.add_floor = true;
  const std::vector<Job> jobs = plan(r);
  ASSERT_EQ(jobs.size(), 2u * 2u * 3u);
  EXPECT_EQ(jobs[0].variant->role, Role::Floor);
  EXPECT_EQ(jobs[0].size, glm::ivec2(64, 32));
  EXPECT_EQ(jobs[3].input_format, gl::Format::rgba16f);
  EXPECT_EQ(jobs[6].size, glm::ivec2(16, 16));
  r.add_floor = false;
  EXPECT_EQ(plan(r).size(), 2u * 2u * 2u);
  // The floor added for the ratios runs its own defaults, not the knob values of the sweep.
  r.add_floor = true;
  r.settings = [](const VariantInfo& v, gl::Format f) {
    BlurSettings s;
    s.input_format = f;
    s.knobs["workgroup"] = {8, 8};
    return std::vector<BlurSettings>(is_blur(v) ? 1 : 3, s);
  };
  const std::vector<Job> with_knobs = plan(r);
  ASSERT_EQ(with_knobs.size(), 2u * 2u * 2u);
  EXPECT_TRUE(with_knobs[0].settings.knobs.empty());
  EXPECT_EQ(with_knobs[1].settings.knobs.at("workgroup"), (KnobValue{8, 8}));
  // The floor asked for with a knob swept for the blurs: its defaults run too, first, so the ratios
  // divide by the copy at its own settings (a copy of other knobs can be much slower than its defaults).
  r.variants = {find_variant("copy"), find_variant("compute-separable")};
  const std::vector<Job> listed = plan(r);
  ASSERT_EQ(listed.size(), 2u * 2u * (1u + 3u + 1u));
  EXPECT_EQ(listed[0].variant->role, Role::Floor);
  EXPECT_TRUE(listed[0].settings.knobs.empty());
  EXPECT_EQ(listed[1].settings.knobs.at("workgroup"), (KnobValue{8, 8}));
}

// A tuning file's entry: compute-sliding's segment tuned for a box r = 16 at `size` on "GPU".
report::TunedEntry sliding_entry(glm::ivec2 size) {
  report::TunedEntry e;
  e.renderer = "GPU";
  e.variant = "compute-sliding";
  e.size = size;
  e.kernel = KernelType::Box;
  e.radius = 16;
  e.knobs["segment"] = {1024, 0};
  return e;
}

// A sweep of compute-sliding at `sizes` (box r = 16) with a tuning file.
SweepRequest sliding_sweep(std::vector<glm::ivec2> sizes, const report::TuningTable& table) {
  SweepRequest r;
  r.sizes = std::move(sizes);
  r.input_formats = {gl::Format::rgba8};
  r.variants = {find_variant("compute-sliding")};
  r.settings = [](const VariantInfo&, gl::Format) { return std::vector<BlurSettings>{box16()}; };
  r.tuned = &table;
  r.renderer = "GPU";
  return r;
}

TEST(Sweep, PlanTakesKnobsFromTheTunedFile) {
  report::TuningTable table;
  const report::TunedEntry e = sliding_entry({64, 32});
  table.put(e);
  SweepRequest r = sliding_sweep({{64, 32}, {16, 16}}, table);
  const std::vector<Job> jobs = plan(r);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_TRUE(jobs[0].tuned);
  EXPECT_EQ(jobs[0].settings.knobs.at("segment"), (KnobValue{1024, 0}));
  EXPECT_FALSE(jobs[1].tuned) << "no entry for 16x16";
  // A knob given on the command line wins over the file's; the file's other knobs still apply.
  table.put([&] { report::TunedEntry both = e; both.knobs["unroll"] = {8, 0}; return both; }());
  r.given_knobs = {"segment"};
  const Job mixed = plan(r)[0];
  EXPECT_TRUE(mixed.tuned);
  EXPECT_EQ(mixed.settings.knobs.count("segment"), 0u);
  EXPECT_EQ(mixed.settings.knobs.at("unroll"), (KnobValue{8, 0}));
  r.given_knobs = {"segment", "unroll"};
  EXPECT_FALSE(plan(r)[0].tuned) << "nothing left to take from the file";
  r.renderer = "Another GPU";
  EXPECT_FALSE(plan(r)[0].tuned);
}

TEST(Sweep, ATunedFileWithoutThisSizeSaysSo) {
  report::TuningTable table;
  table.put(sliding_entry({1920, 1080}));
  SweepRequest r = sliding_sweep({{1920, 1080}, {480, 270}}, table);
  r.add_floor = true;  // the copy added for the ratios runs its defaults by design: not counted
  const auto note = untuned_note(r, plan(r), "tune.json");
  ASSERT_TRUE(note);
  EXPECT_EQ(*note, "--tuned tune.json has no entry for 1 of the 2 runs with knobs to tune (e.g. compute-sliding at 480x270 rgba8 box): "
                   "they run the variant's defaults. For this GPU it has 1920x1080 rgba8 box; tune this size with --tune --size 480x270.");
  r.sizes = {{1920, 1080}};
  EXPECT_FALSE(untuned_note(r, plan(r), "tune.json")) << "every run found its entry";
  r.renderer = "Another GPU";
  EXPECT_NE(untuned_note(r, plan(r), "tune.json")->find("no entry for 1 of the 1 runs with knobs to tune (e.g. compute-sliding at "
                                                         "1920x1080 rgba8 box): they run the variant's defaults. Its entries are for "
                                                         "another GPU: GPU; tune on this one with --tune."),
            std::string::npos);
  r.tuned = nullptr;
  EXPECT_FALSE(untuned_note(r, plan(r), ""));
}

TEST(Sweep, TuningSaysWhichKnobsChanged) {
  const VariantInfo& v = *find_variant("compute-sliding");
  const BlurSettings defaults = resolve(v, box16());
  EXPECT_EQ(knob_changes(v, defaults, defaults), "none");
  BlurSettings tuned = defaults;
  tuned.knobs["segment"] = {1024, 0};
  tuned.knobs["workgroup"] = {256, 1};
  EXPECT_EQ(knob_changes(v, defaults, tuned), "workgroup=256x1 segment=1024");
}

// Each variant's widest row: every knob changed to its longest candidate, the longest verdict and
// check, times of five digits. A fixed-width table once printed 127 columns when all four of
// compute-separable-regblock's knobs won; the knobs column wraps instead.
TEST(Sweep, TuningTableFitsItsWidthWhateverTheWinnersChange) {
  TextTable table = tuning_table();
  size_t longest_changes = 0;
  for (const VariantInfo* v : variants()) {
    const BlurSettings defaults = resolve(*v, box16());
    BlurSettings tuned = defaults;
    for (const Knob& k : v->knobs)
      for (const KnobValue& c : k.candidates)
        if (c != defaults.knob(k.name) && (tuned.knob(k.name) == defaults.knob(k.name) || k.text(c).size() > k.text(tuned.knob(k.name)).size()))
          tuned.knobs[std::string(k.name)] = c;
    const std::string changes = knob_changes(*v, defaults, tuned);
    longest_changes = std::max(longest_changes, changes.size());
    table.add_row({std::string(v->name), changes, "12345.6789", "12345.6789", "kept: none faster", "FAIL, not saved"});
  }
  EXPECT_GT(longest_changes, 40u);  // the case that overflowed: the knobs column alone is wide
  std::ostringstream out;
  table.print(out);
  std::istringstream lines(out.str());
  size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) EXPECT_LE(line.size(), report::kTableWidth) << line;
  EXPECT_GT(count, variants().size() + 2);  // the header, the rule, a row each, and some wrapped lines
}

}  // namespace
}  // namespace blurlab::bench
