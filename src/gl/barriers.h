#pragma once
// Memory barriers, chosen for the next access.
//
// Image stores (imageStore in a compute or fragment shader) are incoherent: GL only makes them
// visible to a later command after glMemoryBarrier with the bit for *how* that command reads
// (GL 4.6 §7.13.2). Writes made by rendering into a framebuffer need no barrier. So we track,
// per texture, which kinds of access have not yet been covered by a barrier since its last
// image store, and issue exactly the bit the next access needs, once.
#include <cstdint>
#include <functional>
#include <unordered_map>

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
  // `texture` is about to be accessed this way: issues glMemoryBarrier if it is needed.
  void before(Access access, GLuint texture);
  // The texture name was deleted (names are reused).
  void forget(GLuint texture);

  size_t barriers_issued() const { return issued_; }

 private:
  IssueFn issue_;
  // For each texture with image stores not yet visible to every kind of access: the barrier
  // bits still needed before the kinds of access not yet covered.
  std::unordered_map<GLuint, GLbitfield> pending_;
  size_t issued_ = 0;
};

// The tracker of the GL context current on this thread (one context per thread in blurlab).
BarrierTracker& barriers();

}  // namespace blurlab::gl
