#pragma once
// Move-only owners of GL object names, so every object is deleted exactly once.
#include <utility>

#include "gl/gl.h"

namespace blurlab::gl {

template <typename Deleter>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint id) : id_(id) {}
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  GLuint get() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_ != 0) Deleter{}(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

struct DeleteTexture { void operator()(GLuint id) const { glDeleteTextures(1, &id); } };
struct DeleteFramebuffer { void operator()(GLuint id) const { glDeleteFramebuffers(1, &id); } };
struct DeleteRenderbuffer { void operator()(GLuint id) const { glDeleteRenderbuffers(1, &id); } };
struct DeleteBuffer { void operator()(GLuint id) const { glDeleteBuffers(1, &id); } };
struct DeleteVertexArray { void operator()(GLuint id) const { glDeleteVertexArrays(1, &id); } };
struct DeleteSampler { void operator()(GLuint id) const { glDeleteSamplers(1, &id); } };
struct DeleteProgram { void operator()(GLuint id) const { glDeleteProgram(id); } };
struct DeleteShader { void operator()(GLuint id) const { glDeleteShader(id); } };

using TextureHandle = Handle<DeleteTexture>;
using FramebufferHandle = Handle<DeleteFramebuffer>;
using RenderbufferHandle = Handle<DeleteRenderbuffer>;
using BufferHandle = Handle<DeleteBuffer>;
using VertexArrayHandle = Handle<DeleteVertexArray>;
using SamplerHandle = Handle<DeleteSampler>;
using ProgramHandle = Handle<DeleteProgram>;
using ShaderHandle = Handle<DeleteShader>;

inline TextureHandle create_texture() { GLuint id = 0; glGenTextures(1, &id); return TextureHandle(id); }
inline FramebufferHandle create_framebuffer() { GLuint id = 0; glGenFramebuffers(1, &id); return FramebufferHandle(id); }
inline RenderbufferHandle create_renderbuffer() { GLuint id = 0; glGenRenderbuffers(1, &id); return RenderbufferHandle(id); }
inline BufferHandle create_buffer() { GLuint id = 0; glGenBuffers(1, &id); return BufferHandle(id); }
inline VertexArrayHandle create_vertex_array() { GLuint id = 0; glGenVertexArrays(1, &id); return VertexArrayHandle(id); }
inline SamplerHandle create_sampler() { GLuint id = 0; glGenSamplers(1, &id); return SamplerHandle(id); }

}  // namespace blurlab::gl
