#include "window_size.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace blurlab::app {

glm::ivec2 WindowSize::drawable() const {
  if (minimized_) return {0, 0};
  glm::ivec2 size{0, 0};
  glfwGetFramebufferSize(window_, &size.x, &size.y);
  return size;
}

void WindowSize::resize(glm::ivec2 size) {
  if (size.x == 0 || size.y == 0) {
    // What a minimized window reports; iconify too where a window manager allows it.
    minimized_ = true;
    glfwIconifyWindow(window_);
    return;
  }
  minimized_ = false;
  glfwRestoreWindow(window_);
  glfwSetWindowSize(window_, size.x, size.y);
  // X11 applies sizes asynchronously: give the server a moment so the next frame sees it.
  for (int i = 0; i < 50; ++i) {
    glm::ivec2 fb;
    glfwGetFramebufferSize(window_, &fb.x, &fb.y);
    if (fb == size) break;
    glfwWaitEventsTimeout(0.01);
  }
}

}  // namespace blurlab::app
