#pragma once
// Screenshots of the window: the back buffer as the next swap shows it, overlay included.
#include <string>
#include <string_view>

#include <glm/vec2.hpp>

namespace blurlab::app {

// Writes the window's back buffer (`size` pixels) to `path`, PNG or JPEG by its extension
// (image/image_file.h). Throws Error when it cannot.
void save_back_buffer(glm::ivec2 size, const std::string& path);

// Where the S key saves: "blurlab-<variant>-<YYYYmmdd-HHMMSS>.png" in the working directory.
std::string automatic_screenshot_path(std::string_view variant);

}  // namespace blurlab::app
