#include "second_variant.h"

#include "ui/view_state.h"

namespace blurlab::app {

SecondVariant::SecondVariant(gl::ProgramCache& programs, const gl::GlLimits& limits, bool software)
    : timers_(gl::make_gl_query_backend(software)), pipeline_(programs, limits, &timers_) {}

void SecondVariant::resize(glm::ivec2 size, gl::Format format) { output_ = gl::Texture(size.x, size.y, format, "second variant"); }

void SecondVariant::reset() {
  problem_.reset();
  slow_frames_ = 0;
  stats_.clear();
}

void SecondVariant::configure(const VariantInfo& variant, BlurSettings settings, glm::ivec2 size) {
  settings.knobs.clear();  // the second variant runs its defaults
  if (const auto unsupported = pipeline_.configure(variant, settings, size))
    problem_ = std::string(variant.name) + " cannot run: " + unsupported->reason;
}

void SecondVariant::run(const gl::Texture& source) {
  timers_.begin_frame();
  pipeline_.run(source, output_);
  timers_.end_frame();
}

void SecondVariant::poll(std::string_view name, std::optional<double> first_total_ms) {
  for (const gl::FrameTimes& frame : timers_.poll()) {
    stats_.add(frame);
    if (problem_) continue;
    auto stall = ui::second_variant_stall(name, frame.ms("total"), first_total_ms);
    slow_frames_ = stall ? slow_frames_ + 1 : 0;
    if (slow_frames_ >= ui::kSecondStallFrames) problem_ = std::move(stall);
  }
}

std::optional<double> SecondVariant::total_ms() const {
  for (const ui::SpanSummary& span : stats_.summaries())
    if (span.name == "total") return span.mean_ms;
  return std::nullopt;
}

}  // namespace blurlab::app
