#pragma once
// The window's keys (docs/USAGE.md's key table) from GLFW's key events.
#include <optional>

#include "ui/view_state.h"

namespace blurlab::app {

// The key a GLFW key code and modifiers stand for, or nullopt for a key the window does not use.
std::optional<ui::Key> translate_key(int glfw_key, int mods);

}  // namespace blurlab::app
