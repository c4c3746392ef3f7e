#include <gtest/gtest.h>

#include <map>
#include <set>

#include "gl/timer_pool.h"

namespace blurlab::gl {
namespace {

// A GPU whose clock advances by 1 ms per timestamp and which finishes queries only when told.
class FakeGpu final : public QueryBackend {
 public:
  struct State {
    GLuint next = 1;
    uint64_t clock_ns = 0;
    std::set<GLuint> live;
    std::map<GLuint, uint64_t> written;  // query -> timestamp
    std::set<GLuint> completed;
    size_t destroyed = 0;
  };
  explicit FakeGpu(State& s) : s_(s) {}
  GLuint create() override { s_.live.insert(s_.next); return s_.next++; }
  void destroy(GLuint q) override { s_.live.erase(q); ++s_.destroyed; }
  void timestamp(GLuint q) override {
    s_.clock_ns += 1'000'000;
    s_.written[q] = s_.clock_ns;
    s_.completed.erase(q);
  }
  bool available(GLuint q) override { return s_.completed.count(q) > 0; }
  uint64_t result_ns(GLuint q) override {
    EXPECT_TRUE(available(q)) << "result read before it was available: that would stall";
    return s_.written.at(q);
  }

 private:
  State& s_;
};

void finish_all(FakeGpu::State& s) {
  for (const auto& [q, t] : s.written) s.completed.insert(q);
}

void record_frame(TimerPool& pool) {
  pool.begin_frame();
  pool.begin("total");
  pool.begin("h");
  pool.end("h");
  pool.begin("v");
  pool.end("v");
  pool.end("total");
  pool.end_frame();
}

TEST(TimerPool, NothingBeforeTheGpuFinishes) {
  FakeGpu::State gpu;
  TimerPool pool(std::make_unique<FakeGpu>(gpu));
  record_frame(pool);
  EXPECT_TRUE(pool.poll().empty());
  EXPECT_EQ(pool.frames_in_flight(), 1u);
  finish_all(gpu);
  const auto frames = pool.poll();
  ASSERT_EQ(frames.size(), 1u);
  // Marks: total@1 h@2 h@3 v@4 v@5 total@6 (ms).
  EXPECT_DOUBLE_EQ(frames[0].ms("total"), 5.0);
  EXPECT_DOUBLE_EQ(frames[0].ms("h"), 1.0);
  EXPECT_DOUBLE_EQ(frames[0].ms("v"), 1.0);
  EXPECT_LT(frames[0].ms("missing"), 0.0);
  ASSERT_EQ(frames[0].spans.size(), 3u);
  EXPECT_EQ(frames[0].spans[0].name, "total");
}

TEST(TimerPool, FramesComeBackInOrder) {
  FakeGpu::State gpu;
  TimerPool pool(std::make_unique<FakeGpu>(gpu));
  for (int i = 0; i < 3; ++i) record_frame(pool);
  // Only the last frame's queries complete: the first is not ready, so nothing is returned.
  for (GLuint q = 13; q <= 18; ++q) gpu.completed.insert(q);
  EXPECT_TRUE(pool.poll().empty());
  finish_all(gpu);
  const auto frames = pool.poll();
  ASSERT_EQ(frames.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(frames[i].frame, i);
}

TEST(TimerPool, ReusesQueriesInSteadyState) {
  FakeGpu::State gpu;
  TimerPool pool(std::make_unique<FakeGpu>(gpu));
  for (int i = 0; i < 100; ++i) {
    record_frame(pool);
    finish_all(gpu);
    EXPECT_EQ(pool.poll().size(), 1u);
  }
  EXPECT_EQ(pool.queries_created(), 6u);  // one frame's worth, reused 100 times
  EXPECT_EQ(pool.frames_dropped(), 0u);
}

TEST(TimerPool, GrowsWhileTheGpuLagsThenDropsAtTheCapWithoutWaiting) {
  FakeGpu::State gpu;
  TimerPool pool(std::make_unique<FakeGpu>(gpu), 24);  // room for 4 frames of 6 queries
  for (int i = 0; i < 10; ++i) record_frame(pool);
  EXPECT_EQ(pool.queries_created(), 24u);
  EXPECT_EQ(pool.frames_in_flight(), 4u);
  EXPECT_EQ(pool.frames_dropped(), 6u);
  finish_all(gpu);
  EXPECT_EQ(pool.poll().size(), 4u);
  EXPECT_EQ(pool.queries_free(), 24u);
  record_frame(pool);  // the cap no longer bites
  finish_all(gpu);
  EXPECT_EQ(pool.poll().size(), 1u);
  EXPECT_EQ(pool.queries_created(), 24u);
}

TEST(TimerPool, UnfinishedSpanDropsTheFrameAndReturnsItsQueries) {
  FakeGpu::State gpu;
  TimerPool pool(std::make_unique<FakeGpu>(gpu));
  pool.begin_frame();
  pool.begin("total");
  pool.begin("h");
  pool.end("total");
  pool.end_frame();
  EXPECT_EQ(pool.frames_dropped(), 1u);
  EXPECT_EQ(pool.frames_in_flight(), 0u);
  EXPECT_EQ(pool.queries_free(), pool.queries_created());
}

TEST(TimerPool, SpansOutsideFramesAreIgnored) {
  FakeGpu::State gpu;
  TimerPool pool(std::make_unique<FakeGpu>(gpu));
  pool.begin("warmup");
  pool.end("warmup");
  EXPECT_EQ(pool.queries_created(), 0u);
}

TEST(TimerPool, DestroysEveryQueryItCreated) {
  FakeGpu::State gpu;
  {
    TimerPool pool(std::make_unique<FakeGpu>(gpu));
    for (int i = 0; i < 5; ++i) record_frame(pool);  // some still in flight at destruction
    pool.begin_frame();
    pool.begin("total");  // and one frame still recording
  }
  EXPECT_TRUE(gpu.live.empty());
  EXPECT_EQ(gpu.destroyed, 31u);
}

}  // namespace
}  // namespace blurlab::gl
