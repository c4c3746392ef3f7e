#pragma once
// The window's own input between frames, as GLFW's callbacks bring it: the keys and the left
// clicks on the picture that the overlay does not take.
#include <vector>

#include <glm/vec2.hpp>

#include "ui/view_state.h"

struct GLFWwindow;

namespace blurlab::app {

// Installs the window's key and mouse button callbacks for its lifetime (before ImGui's backend,
// which chains to them); they find it through the window's user pointer. Scripted input goes
// through the same queues, so that it takes the paths real input takes.
class WindowInput {
 public:
  explicit WindowInput(GLFWwindow* window);
  ~WindowInput();
  WindowInput(const WindowInput&) = delete;
  WindowInput& operator=(const WindowInput&) = delete;

  void push_key(ui::Key key) { keys_.push_back(key); }
  // A left click on the picture at a framebuffer pixel, row 0 at the top.
  void push_click(glm::ivec2 at) { clicks_.push_back(at); }

  // What arrived since the last take, oldest first.
  std::vector<ui::Key> take_keys();
  std::vector<glm::ivec2> take_clicks();

 private:
  GLFWwindow* window_;
  std::vector<ui::Key> keys_;
  std::vector<glm::ivec2> clicks_;
};

}  // namespace blurlab::app
