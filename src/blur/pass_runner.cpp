#include "blur/pass_runner.h"

#include <string>

#include "util/error.h"

namespace blurlab {

PassRunner::PassRunner(gl::TimerPool* timers)
    : timers_(timers),
      nearest_(gl::create_sampler()),
      linear_(gl::create_sampler()),
      empty_vao_(gl::create_vertex_array()),
      framebuffer_(gl::create_framebuffer()) {
  for (auto [sampler, filter] : {std::pair{nearest_.get(), GL_NEAREST}, std::pair{linear_.get(), GL_LINEAR}}) {
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, filter);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, filter);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
}

void PassRunner::set_linear_wrap(const Border& border) {
  // GL applies the wrap mode to each of the two texel indices a linear fetch blends, before
  // weighting them (OpenGL 4.6, 8.14.2), so REPEAT, MIRRORED_REPEAT and CLAMP_TO_BORDER give
  // every tap exactly the texel (or the value) of wrap, reflect and constant. Reflect101 mirrors
  // about the edge texel's centre, which no wrap mode does: glsl/linear_common.glsl folds the
  // sample position itself and fetches with CLAMP_TO_EDGE.
  GLenum wrap = GL_CLAMP_TO_EDGE;
  switch (border.mode) {
    case BorderMode::Clamp:
    case BorderMode::Reflect101: wrap = GL_CLAMP_TO_EDGE; break;
    case BorderMode::Reflect: wrap = GL_MIRRORED_REPEAT; break;
    case BorderMode::Wrap: wrap = GL_REPEAT; break;
    case BorderMode::Constant: wrap = GL_CLAMP_TO_BORDER; break;
  }
  glSamplerParameteri(linear_.get(), GL_TEXTURE_WRAP_S, static_cast<GLint>(wrap));
  glSamplerParameteri(linear_.get(), GL_TEXTURE_WRAP_T, static_cast<GLint>(wrap));
  glSamplerParameterfv(linear_.get(), GL_TEXTURE_BORDER_COLOR, border.value.data());  // already a texel of the input format
}

void PassRunner::dispatch(std::string_view span, const gl::Program& program, std::span<const Binding> bindings,
                          glm::ivec3 groups, std::optional<glm::vec4> pass_values) {
  bind(program, bindings);
  if (pass_values) glUniform4f(0, pass_values->x, pass_values->y, pass_values->z, pass_values->w);
  {
    gl::ScopedSpan timed(timers_, span);
    glDispatchCompute(static_cast<GLuint>(groups.x), static_cast<GLuint>(groups.y), static_cast<GLuint>(groups.z));
  }
  passed(bindings);
}

void PassRunner::draw(std::string_view span, const gl::Program& program, std::span<const Binding> inputs,
                      const gl::Texture& target) {
  before(gl::Access::Framebuffer, target);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.id(), 0);
  glViewport(0, 0, target.width(), target.height());
  bind(program, inputs);
  glBindVertexArray(empty_vao_.get());
  {
    gl::ScopedSpan timed(timers_, span);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  glBindVertexArray(0);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  passed(inputs);
}

void PassRunner::start_recording() {
  recorded_barriers_ = gl::BarrierTracker([this](GLbitfield bits) {
    if (recorded_bits_) *recorded_bits_ |= bits;
  });
  recording_ = true;
  recorder_ = this;
  recorded_bits_ = nullptr;
}

void PassRunner::start_recording(PassRunner& chain) {
  if (!chain.recording_) throw Error("start_recording(chain): the chain is not recording");
  recording_ = true;
  recorder_ = &chain;
}

void PassRunner::stop_recording() {
  recording_ = false;
  if (recorder_ == this) recorded_bits_ = nullptr;
  recorder_ = this;
}

// The pipeline's barriers, and while recording the same decisions made by a tracker of the
// recording alone, so the recipe lists the barriers the passes need among themselves.
void PassRunner::before(gl::Access access, const gl::Texture& t) {
  gl::barriers().before(access, t.id());
  if (recording_) recorder_->recorded_barriers_.before(access, t.id());
}

void PassRunner::before_store(const gl::Texture& t) {
  gl::barriers().before_store(t.id());
  if (recording_) recorder_->recorded_barriers_.before_store(t.id());
}

// After a pass: what it stored must be made visible, and what it touched not overwritten early.
void PassRunner::passed(std::span<const Binding> bindings) {
  for (const Binding& b : bindings) {
    if (b.stores()) {
      gl::barriers().image_stored(b.texture->id());
      if (recording_) recorder_->recorded_barriers_.image_stored(b.texture->id());
    }
    gl::barriers().shader_accessed(b.texture->id());
    if (recording_) recorder_->recorded_barriers_.shader_accessed(b.texture->id());
  }
}

std::optional<std::string> units_bound_twice(std::span<const Binding> bindings) {
  for (size_t i = 0; i < bindings.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const Binding &a = bindings[j], &b = bindings[i];
      if (a.binds_image() == b.binds_image() && a.unit.number == b.unit.number)
        return std::string(a.unit.name) + " and " + std::string(b.unit.name) + ", both " + (b.binds_image() ? "image" : "texture") +
               " unit " + std::to_string(b.unit.number);
    }
  return std::nullopt;
}

void PassRunner::bind(const gl::Program& program, std::span<const Binding> bindings) {
  glUseProgram(program.id());
  if (uniform_buffer_) glBindBufferBase(GL_UNIFORM_BUFFER, uniform_unit_, uniform_buffer_);
  if (const auto twice = units_bound_twice(bindings))
    throw Error(std::string(program.name()) + ": a pass binds " + *twice +
                " (gl/bindings.h: an owner's slots must differ from the generic units its passes bind)");
  for (const Binding& b : bindings) {
    if (!b.unit_fits())
      throw Error(std::string(program.name()) + ": a pass binds a texture to " + std::string(b.unit.name) +
                  ", a unit of another kind (gl/bindings.h)");
    const GLuint unit = b.unit.number;
    const GLuint id = b.texture->id();
    const gl::FormatInfo& info = gl::info(b.texture->format());
    const GLenum format = b.raw ? info.raw_format : info.internal_format;
    switch (b.kind) {
      case Binding::Kind::ImageRead:
        before(gl::Access::ImageLoad, *b.texture);
        glBindImageTexture(unit, id, 0, GL_FALSE, 0, GL_READ_ONLY, format);
        break;
      case Binding::Kind::ImageWrite:
        before_store(*b.texture);  // orders these stores after earlier passes' stores and reads
        glBindImageTexture(unit, id, 0, GL_FALSE, 0, GL_WRITE_ONLY, format);
        break;
      case Binding::Kind::ImageReadWrite:
        before(gl::Access::ImageLoad, *b.texture);
        before_store(*b.texture);
        glBindImageTexture(unit, id, 0, GL_FALSE, 0, GL_READ_WRITE, format);
        break;
      case Binding::Kind::Sampled:
      case Binding::Kind::SampledLinear:
        before(gl::Access::TextureFetch, *b.texture);
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_2D, id);
        glBindSampler(unit, b.kind == Binding::Kind::Sampled ? nearest_.get() : linear_.get());
        break;
    }
  }
}

}  // namespace blurlab
