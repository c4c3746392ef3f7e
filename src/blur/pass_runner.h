#pragma once
// How every pass of blurlab is issued, a blur variant's (BlurPipeline) and an effect's
// (effects/effect_pipeline.h) alike: its bindings checked against their units and bound with the
// runner's samplers, the barriers its accesses need (gl/barriers.h), a timing span around the
// dispatch or draw, and what it touched noted for the next pass's barriers. While recording (for
// --export), a second barrier tracker decides the barriers the recorded passes need among
// themselves, written into the pass being recorded.
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "blur/blur.h"
#include "gl/barriers.h"
#include "gl/timer_pool.h"

namespace blurlab {

// Two bindings of one pass on the same number of one GL namespace (images, or sampled textures),
// named: "LEVELS and SPECTRUM, both image unit 2"; nullopt where none. PassRunner refuses such a pass.
std::optional<std::string> units_bound_twice(std::span<const Binding> bindings);

class PassRunner {
 public:
  explicit PassRunner(gl::TimerPool* timers);
  PassRunner(const PassRunner&) = delete;
  PassRunner& operator=(const PassRunner&) = delete;

  // The linear sampler's wrap mode and border colour for the border (Binding::SampledLinear).
  void set_linear_wrap(const Border& border);
  // A uniform buffer bound at `unit` for every pass (the blur pipeline's weights block); 0: none.
  void bind_uniform_buffer_with_every_pass(GLuint unit, GLuint buffer) {
    uniform_unit_ = unit;
    uniform_buffer_ = buffer;
  }

  // One compute dispatch of `groups` workgroups, timed as span `span`; `pass_values` set as
  // `layout(location = 0) uniform vec4 u_pass` (glsl/blur_common.glsl).
  void dispatch(std::string_view span, const gl::Program& program, std::span<const Binding> bindings, glm::ivec3 groups,
                std::optional<glm::vec4> pass_values = std::nullopt);
  // One fullscreen triangle into `target`, timed as span `span`.
  void draw(std::string_view span, const gl::Program& program, std::span<const Binding> inputs, const gl::Texture& target);

  // Recording: from start_recording() on, each pass's barriers (as a tracker of the recorded
  // passes alone decides them) are or'ed into *record_barriers_into(...) of the pass about to run.
  void start_recording();
  // Recording as a part of `chain`'s recording (an effect's blur stage, inside the effect's run):
  // `chain`'s tracker, which sees every recorded pass of the chain, decides this runner's passes'
  // barriers too, and record_barriers_into() names the pass of the chain's recording they go to.
  void start_recording(PassRunner& chain);
  void stop_recording();
  bool recording() const { return recording_; }
  void record_barriers_into(GLbitfield* bits) { recorder_->recorded_bits_ = bits; }

 private:
  void bind(const gl::Program& program, std::span<const Binding> bindings);
  void before(gl::Access access, const gl::Texture& t);
  void before_store(const gl::Texture& t);
  void passed(std::span<const Binding> bindings);

  gl::TimerPool* timers_;
  gl::SamplerHandle nearest_, linear_;
  gl::VertexArrayHandle empty_vao_;
  gl::FramebufferHandle framebuffer_;
  GLuint uniform_unit_ = 0, uniform_buffer_ = 0;
  bool recording_ = false;
  PassRunner* recorder_ = this;  // whose tracker decides the recorded barriers: this runner's or its chain's
  GLbitfield* recorded_bits_ = nullptr;
  gl::BarrierTracker recorded_barriers_{[this](GLbitfield bits) {
    if (recorded_bits_) *recorded_bits_ |= bits;
  }};
};

}  // namespace blurlab
