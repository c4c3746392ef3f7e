#include "gl/timer_pool.h"

#include <algorithm>

namespace blurlab::gl {

namespace {

class GlQueryBackend final : public QueryBackend {
 public:
  explicit GlQueryBackend(bool pin_timestamps) : pin_timestamps_(pin_timestamps) {}
  GLuint create() override {
    GLuint id = 0;
    glGenQueries(1, &id);
    return id;
  }
  void destroy(GLuint query) override { glDeleteQueries(1, &query); }
  void timestamp(GLuint query) override {
    glQueryCounter(query, GL_TIMESTAMP);
    if (pin_timestamps_) glFinish();
  }
  bool available(GLuint query) override {
    GLuint ready = GL_FALSE;
    glGetQueryObjectuiv(query, GL_QUERY_RESULT_AVAILABLE, &ready);
    return ready == GL_TRUE;
  }
  uint64_t result_ns(GLuint query) override {
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    return ns;
  }

 private:
  bool pin_timestamps_;
};

}  // namespace

std::unique_ptr<QueryBackend> make_gl_query_backend(bool pin_timestamps) {
  return std::make_unique<GlQueryBackend>(pin_timestamps);
}

double FrameTimes::ms(std::string_view name) const {
  for (const auto& span : spans)
    if (span.name == name) return span.ms;
  return -1.0;
}

TimerPool::TimerPool(std::unique_ptr<QueryBackend> backend, size_t max_queries)
    : backend_(std::move(backend)), max_queries_(max_queries) {}

TimerPool::~TimerPool() {
  for (auto& frame : in_flight_) release(frame);
  release(recording_);
  for (GLuint q : free_) backend_->destroy(q);
}

GLuint TimerPool::acquire() {
  if (!free_.empty()) {
    const GLuint q = free_.back();
    free_.pop_back();
    return q;
  }
  if (created_ >= max_queries_) return 0;
  ++created_;
  return backend_->create();
}

void TimerPool::release(Frame& frame) {
  for (auto& span : frame.spans) {
    if (span.begin) free_.push_back(span.begin);
    if (span.end) free_.push_back(span.end);
  }
  frame.spans.clear();
}

void TimerPool::begin_frame() {
  if (is_recording_) end_frame();
  recording_ = Frame{next_frame_++, {}, false};
  is_recording_ = true;
}

void TimerPool::begin(std::string_view name) {
  if (!is_recording_ || recording_.dropped) return;
  const GLuint q = acquire();
  if (q == 0) {  // cap reached: drop this frame rather than wait for the GPU
    recording_.dropped = true;
    return;
  }
  backend_->timestamp(q);
  recording_.spans.push_back(Span{std::string(name), q, 0});
}

void TimerPool::end(std::string_view name) {
  if (!is_recording_ || recording_.dropped) return;
  // The innermost open span of that name.
  auto it = std::find_if(recording_.spans.rbegin(), recording_.spans.rend(),
                         [&](const Span& s) { return s.name == name && s.end == 0; });
  if (it == recording_.spans.rend()) return;
  const GLuint q = acquire();
  if (q == 0) {
    recording_.dropped = true;
    return;
  }
  backend_->timestamp(q);
  it->end = q;
}

void TimerPool::end_frame() {
  if (!is_recording_) return;
  is_recording_ = false;
  // Spans never ended carry no time: give their queries back.
  const bool complete = std::all_of(recording_.spans.begin(), recording_.spans.end(), [](const Span& s) { return s.end != 0; });
  if (recording_.dropped || !complete || recording_.spans.empty()) {
    if (recording_.dropped || !complete) ++dropped_;
    release(recording_);
    return;
  }
  in_flight_.push_back(std::move(recording_));
  recording_ = Frame{};
}

std::vector<FrameTimes> TimerPool::poll() {
  std::vector<FrameTimes> done;
  while (!in_flight_.empty()) {
    Frame& frame = in_flight_.front();
    const bool ready = std::all_of(frame.spans.begin(), frame.spans.end(), [&](const Span& s) {
      return backend_->available(s.begin) && backend_->available(s.end);
    });
    if (!ready) break;  // results arrive in order: later frames are not ready either
    FrameTimes times;
    times.frame = frame.number;
    for (const auto& span : frame.spans) {
      const uint64_t t0 = backend_->result_ns(span.begin);
      const uint64_t t1 = backend_->result_ns(span.end);
      times.spans.push_back({span.name, t1 >= t0 ? static_cast<double>(t1 - t0) * 1e-6 : 0.0});
    }
    release(frame);
    in_flight_.pop_front();
    done.push_back(std::move(times));
  }
  return done;
}

}  // namespace blurlab::gl
