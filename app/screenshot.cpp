#include "screenshot.h"

#include <cstdint>
#include <ctime>
#include <iostream>
#include <vector>

#include "gl/gl.h"
#include "image/image_file.h"
#include "util/error.h"

namespace blurlab::app {

void save_back_buffer(glm::ivec2 size, const std::string& path, std::string_view option) {
  std::vector<uint8_t> pixels(static_cast<size_t>(size.x) * size.y * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, size.x, size.y, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  save_image(flipped_vertically(from_rgba8(pixels.data(), size.x, size.y)), path, 8, option);
}

std::string automatic_screenshot_path(std::string_view variant) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return "blurlab-" + std::string(variant) + "-" + stamp + ".png";
}

void WindowScreenshots::take(glm::ivec2 size, std::string_view variant, bool last_frame) {
  if (asked_) save(size, automatic_screenshot_path(variant));
  asked_ = false;
  if (last_frame && !requested_.empty()) made_ = save(size, requested_);
}

std::optional<std::string> WindowScreenshots::missing(bool minimized_at_end, int frames) const {
  if (requested_.empty() || made_) return std::nullopt;
  if (minimized_at_end) return "the window was minimized at frame " + std::to_string(frames);
  return error_.empty() ? "the window closed before the last frame" : error_;
}

bool WindowScreenshots::save(glm::ivec2 size, const std::string& path) {
  try {
    save_back_buffer(size, path, path == requested_ ? "--screenshot" : "");
    std::cout << "saved " << path << std::endl;
    return true;
  } catch (const Error& e) {
    error_ = e.what();
    if (path != requested_) print_error(e.what());  // the S key: say so and go on
    return false;
  }
}

}  // namespace blurlab::app
