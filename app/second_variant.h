#pragma once
// The difference view to a second variant (D, View::DiffVariant): a pipeline and timers of its
// own, so its GPU time is shown beside the first's and never mixed into it, its output texture,
// and the stop when it would set the window's frame rate (a naive 2D sum at a large radius).
#include <optional>
#include <string>
#include <string_view>

#include <glm/vec2.hpp>

#include "blur/pipeline.h"
#include "gl/timer_pool.h"
#include "ui/span_stats.h"

namespace blurlab::app {

class SecondVariant {
 public:
  SecondVariant(gl::ProgramCache& programs, const gl::GlLimits& limits, bool software);

  // A new output texture for a new window size or format.
  void resize(glm::ivec2 size, gl::Format format);
  // A new configuration of the window: what was measured and why it stopped are dropped.
  void reset();
  // Then, while the view is on: `variant` at its default knobs with the first's `settings`; if it
  // cannot run them, problem() says so. Compiles programs: may throw gl::ShaderError.
  void configure(const VariantInfo& variant, BlurSettings settings, glm::ivec2 size);
  // Whether it may run: configured, able to, and not stopped.
  bool runnable() const { return !problem_; }
  // Blurs `source` into output(), timed.
  void run(const gl::Texture& source);
  // Takes the finished frames' timings; stops the variant once it sets the frame rate
  // (ui::second_variant_stall, against the first's `first_total_ms`).
  void poll(std::string_view name, std::optional<double> first_total_ms);
  void refresh_programs() { pipeline_.refresh_programs(); }

  const gl::Texture& output() const { return output_; }
  const BlurSettings& settings() const { return pipeline_.settings(); }
  std::optional<double> total_ms() const;  // the mean GPU time of its frames
  const std::optional<std::string>& problem() const { return problem_; }  // why it does not run
  size_t queries_created() const { return timers_.queries_created(); }

 private:
  gl::TimerPool timers_;
  BlurPipeline pipeline_;
  gl::Texture output_;
  ui::SpanStats stats_;
  std::optional<std::string> problem_;
  int slow_frames_ = 0;  // frames in a row that second_variant_stall() objected to
};

}  // namespace blurlab::app
