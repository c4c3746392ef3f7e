#include "gl/barriers.h"

#include <utility>

namespace blurlab::gl {

GLbitfield barrier_bit(Access access) {
  switch (access) {
    case Access::ImageLoad: return GL_SHADER_IMAGE_ACCESS_BARRIER_BIT;
    case Access::TextureFetch: return GL_TEXTURE_FETCH_BARRIER_BIT;
    case Access::Framebuffer: return GL_FRAMEBUFFER_BARRIER_BIT;
    case Access::TextureUpdate: return GL_TEXTURE_UPDATE_BARRIER_BIT;
  }
  return GL_ALL_BARRIER_BITS;
}

namespace {
constexpr GLbitfield kAllTracked = GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                                   GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT;
}

BarrierTracker::BarrierTracker(IssueFn issue) : issue_(std::move(issue)) {}

void BarrierTracker::image_stored(GLuint texture) { pending_[texture] = kAllTracked; }

void BarrierTracker::shader_accessed(GLuint texture) { accessed_.insert(texture); }

void BarrierTracker::before(Access access, GLuint texture) {
  const auto it = pending_.find(texture);
  const GLbitfield bit = barrier_bit(access);
  if (it == pending_.end() || (it->second & bit) == 0) return;
  issue(bit);
}

void BarrierTracker::before_store(GLuint texture) {
  const auto it = pending_.find(texture);
  const bool stored_before = it != pending_.end() && (it->second & GL_SHADER_IMAGE_ACCESS_BARRIER_BIT) != 0;
  if (stored_before || accessed_.count(texture) > 0) issue(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

void BarrierTracker::issue(GLbitfield bit) {
  issue_(bit);
  ++issued_;
  // glMemoryBarrier is global: the bit now covers every texture written before it.
  for (auto entry = pending_.begin(); entry != pending_.end();) {
    entry->second &= ~bit;
    entry = entry->second == 0 ? pending_.erase(entry) : std::next(entry);
  }
  // And stores after an image-access barrier wait for every access before it.
  if (bit & GL_SHADER_IMAGE_ACCESS_BARRIER_BIT) accessed_.clear();
}

void BarrierTracker::forget(GLuint texture) {
  pending_.erase(texture);
  accessed_.erase(texture);
}

BarrierTracker& barriers() {
  thread_local BarrierTracker tracker([](GLbitfield bits) { glMemoryBarrier(bits); });
  return tracker;
}

}  // namespace blurlab::gl
