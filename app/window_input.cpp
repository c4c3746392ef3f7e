#include "window_input.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <utility>

#include "key_input.h"

namespace blurlab::app {

WindowInput::WindowInput(GLFWwindow* window) : window_(window) {
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int mods) {
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    if (ImGui::GetCurrentContext() && ImGui::GetIO().WantCaptureKeyboard) return;
    if (auto k = translate_key(key, mods)) static_cast<WindowInput*>(glfwGetWindowUserPointer(w))->push_key(*k);
  });
  // A left click on the picture (not on the panel), from window coordinates to framebuffer pixels.
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int) {
    if (button != GLFW_MOUSE_BUTTON_LEFT || action != GLFW_PRESS) return;
    if (ImGui::GetCurrentContext() && ImGui::GetIO().WantCaptureMouse) return;
    double x = 0.0, y = 0.0;
    int window_w = 0, window_h = 0, frame_w = 0, frame_h = 0;
    glfwGetCursorPos(w, &x, &y);
    glfwGetWindowSize(w, &window_w, &window_h);
    glfwGetFramebufferSize(w, &frame_w, &frame_h);
    if (window_w <= 0 || window_h <= 0) return;
    static_cast<WindowInput*>(glfwGetWindowUserPointer(w))
        ->push_click({static_cast<int>(x * frame_w / window_w), static_cast<int>(y * frame_h / window_h)});
  });
}

WindowInput::~WindowInput() {
  glfwSetKeyCallback(window_, nullptr);
  glfwSetMouseButtonCallback(window_, nullptr);
  glfwSetWindowUserPointer(window_, nullptr);
}

std::vector<ui::Key> WindowInput::take_keys() { return std::exchange(keys_, {}); }

std::vector<glm::ivec2> WindowInput::take_clicks() { return std::exchange(clicks_, {}); }

}  // namespace blurlab::app
