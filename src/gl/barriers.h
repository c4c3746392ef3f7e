#pragma once
// Memory barriers, chosen for the next access.
//
// Image stores (imageStore in a compute or fragment shader) are incoherent: GL only makes them
// visible to a later command after glMemoryBarrier with the bit for *how* that command reads
// (GL 4.6 §7.13.2). Writes made by rendering into a framebuffer need no barrier. So we track,
// per texture, which kinds of access have not yet been covered by a barrier since its last
// image store, and issue exactly the bit the next access needs, once.
//
// The other way round too: image stores may start while earlier commands still read (or write)
// the same texture, unless a GL_SHADER_IMAGE_ACCESS_BARRIER_BIT barrier lies between them ("image
// stores issued after the barrier will not execute until all memory accesses initiated prior to
// the barrier complete"). NVIDIA's driver does overlap such dispatches: a scratch image written
// again for the next layer while the last pass still read it gave wrong texels on a GPU. So
// the textures shader passes touched since the last such barrier are tracked, and a store to one
// of them waits.
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "gl/gl.h"

namespace blurlab::gl {

enum class Access : uint8_t {
  ImageLoad,      // imageLoad / imageStore / image atomics
  TextureFetch,   // texture(), texelFetch() through a sampler
  Framebuffer,    // attachment of a draw or blit (read or write)
  TextureUpdate,  // glGetTexImage, glTexSubImage
};

GLbitfield barrier_bit(Access access);

class BarrierTracker {
 public:
  using IssueFn = std::function<void(GLbitfield)>;
  explicit BarrierTracker(IssueFn issue);

  // A shader wrote `texture` with image stores.
  void image_stored(GLuint texture);
  // A shader pass read (or wrote) `texture` in any way: a later image store to it must wait.
  void shader_accessed(GLuint texture);
  // A shader is about to write `texture` with image stores: issues the image-access barrier if an
  // earlier pass's stores to it or accesses of it are not yet behind one.
  void before_store(GLuint texture);
  // `texture` is about to be accessed this way: issues glMemoryBarrier if it is needed.
  void before(Access access, GLuint texture);
  // The texture name was deleted (names are reused).
  void forget(GLuint texture);

  size_t barriers_issued() const { return issued_; }

 private:
  void issue(GLbitfield bit);

  IssueFn issue_;
  // Textures shader passes read or wrote since the last image-access barrier.
  std::unordered_set<GLuint> accessed_;
  // For each texture with image stores not yet visible to every kind of access: the barrier
  // bits still needed before the kinds of access not yet covered.
  std::unordered_map<GLuint, GLbitfield> pending_;
  size_t issued_ = 0;
};

// The tracker of the GL context current on this thread (one context per thread in blurlab).
BarrierTracker& barriers();

}  // namespace blurlab::gl
