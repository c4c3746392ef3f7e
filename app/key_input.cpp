#include "key_input.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace blurlab::app {

std::optional<ui::Key> translate_key(int key, int mods) {
  if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9)
    return static_cast<ui::Key>(static_cast<int>((mods & GLFW_MOD_SHIFT) ? ui::Key::ShiftDigit1 : ui::Key::Digit1) + key - GLFW_KEY_1);
  switch (key) {
    case GLFW_KEY_LEFT: return ui::Key::Left;
    case GLFW_KEY_RIGHT: return ui::Key::Right;
    case GLFW_KEY_KP_ADD: return ui::Key::Plus;
    case GLFW_KEY_EQUAL: return ui::Key::Plus;  // '+' is Shift+'=' on most layouts; '=' alone works too
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: return ui::Key::Minus;
    case GLFW_KEY_G: return ui::Key::G;
    case GLFW_KEY_F: return ui::Key::F;
    case GLFW_KEY_E: return ui::Key::E;
    case GLFW_KEY_SPACE: return ui::Key::Space;
    case GLFW_KEY_V: return ui::Key::V;
    case GLFW_KEY_S: return ui::Key::S;
    case GLFW_KEY_D: return ui::Key::D;
    case GLFW_KEY_B: return ui::Key::B;
    case GLFW_KEY_TAB: return ui::Key::Tab;
    case GLFW_KEY_R: return ui::Key::R;
    case GLFW_KEY_L: return ui::Key::L;
    case GLFW_KEY_C: return ui::Key::C;
    case GLFW_KEY_M: return ui::Key::M;
    case GLFW_KEY_X: return ui::Key::X;
    case GLFW_KEY_ESCAPE: return ui::Key::Escape;
    case GLFW_KEY_F1: return ui::Key::Help;
    case GLFW_KEY_SLASH: return (mods & GLFW_MOD_SHIFT) ? std::optional(ui::Key::Help) : std::nullopt;  // '?'
    default: return std::nullopt;
  }
}

}  // namespace blurlab::app
