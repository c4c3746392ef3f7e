#pragma once
// The window's size as the frame loop sees it: the framebuffer's, or 0x0 while minimized, and the
// scripted resizes (--script's and the soak's "resize=WxH"; 0x0 minimizes).
#include <glm/vec2.hpp>

struct GLFWwindow;

namespace blurlab::app {

class WindowSize {
 public:
  explicit WindowSize(GLFWwindow* window) : window_(window) {}
  // The framebuffer's size in pixels; 0x0 while minimized (by a script, or by the user: GLFW then
  // reports 0x0 itself).
  glm::ivec2 drawable() const;
  // A scripted resize: 0 in either dimension minimizes, anything else restores and resizes, and
  // waits (briefly) until the framebuffer has the new size.
  void resize(glm::ivec2 size);

 private:
  GLFWwindow* window_;
  bool minimized_ = false;  // by a script: some window managers refuse to iconify
};

}  // namespace blurlab::app
