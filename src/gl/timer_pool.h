#pragma once
// GPU timing with a pool of GL_TIMESTAMP queries.
//
// Each named span ("h", "v", "total") is a pair of glQueryCounter(GL_TIMESTAMP) marks; a span
// belongs to the frame it was recorded in. poll() never waits: it hands back, in order, every
// frame whose results are available (GL_QUERY_RESULT_AVAILABLE), usually a frame or two later,
// and returns its queries to the free list. Queries are created only when the free list is
// empty, up to a cap; past the cap a frame is dropped (and counted), never waited for.
// (Timestamp pairs rather than GL_TIME_ELAPSED: llvmpipe reads 0 for the latter around compute
// dispatches, and elapsed queries cannot nest, while "total" contains "h" and "v".)
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gl/gl.h"

namespace blurlab::gl {

// The four GL calls the pool makes; tests replace them with a fake GPU.
class QueryBackend {
 public:
  virtual ~QueryBackend() = default;
  virtual GLuint create() = 0;
  virtual void destroy(GLuint query) = 0;
  virtual void timestamp(GLuint query) = 0;        // glQueryCounter(query, GL_TIMESTAMP)
  virtual bool available(GLuint query) = 0;        // GL_QUERY_RESULT_AVAILABLE, no wait
  virtual uint64_t result_ns(GLuint query) = 0;    // GL_QUERY_RESULT, only once available
};
// `pin_timestamps`: wait (glFinish) after each timestamp, for software renderers. llvmpipe
// resolves a timestamp only when its rasterizer threads run the scene that holds it, and they
// compete with the compute thread pool, so a span's begin could be resolved after the dispatch it
// precedes (seen in the window: a second compute pass measured 0 ms). Waiting pins it in order.
// GPUs resolve timestamps in command order and must not wait.
std::unique_ptr<QueryBackend> make_gl_query_backend(bool pin_timestamps);

struct SpanTime {
  std::string name;
  double ms = 0.0;
};

struct FrameTimes {
  uint64_t frame = 0;
  std::vector<SpanTime> spans;  // in the order they were begun
  // Milliseconds of the span, or a negative value if the frame has no such span.
  double ms(std::string_view name) const;
};

class TimerPool {
 public:
  explicit TimerPool(std::unique_ptr<QueryBackend> backend, size_t max_queries = 512);
  ~TimerPool();
  TimerPool(const TimerPool&) = delete;
  TimerPool& operator=(const TimerPool&) = delete;

  void begin_frame();
  void begin(std::string_view span);
  void end(std::string_view span);
  void end_frame();

  // Frames whose timestamps are all available, oldest first. Never blocks.
  std::vector<FrameTimes> poll();

  size_t queries_created() const { return created_; }
  size_t queries_free() const { return free_.size(); }
  size_t frames_in_flight() const { return in_flight_.size(); }
  size_t frames_dropped() const { return dropped_; }
  uint64_t frames_begun() const { return next_frame_; }

 private:
  struct Span {
    std::string name;
    GLuint begin = 0;
    GLuint end = 0;
  };
  struct Frame {
    uint64_t number = 0;
    std::vector<Span> spans;
    bool dropped = false;
  };
  GLuint acquire();
  void release(Frame& frame);

  std::unique_ptr<QueryBackend> backend_;
  size_t max_queries_;
  size_t created_ = 0;
  size_t dropped_ = 0;
  uint64_t next_frame_ = 0;
  std::vector<GLuint> free_;
  std::deque<Frame> in_flight_;
  Frame recording_;
  bool is_recording_ = false;
};

// RAII span: TimerPool::begin in the constructor, end in the destructor; no-op without a pool.
class ScopedSpan {
 public:
  ScopedSpan(TimerPool* pool, std::string_view name) : pool_(pool), name_(name) {
    if (pool_) pool_->begin(name_);
  }
  ~ScopedSpan() {
    if (pool_) pool_->end(name_);
  }
  ScopedSpan(const ScopedSpan&) = delete;
  ScopedSpan& operator=(const ScopedSpan&) = delete;

 private:
  TimerPool* pool_;
  std::string name_;
};

}  // namespace blurlab::gl
