#include "screenshot.h"

#include <cstdint>
#include <ctime>
#include <vector>

#include "gl/gl.h"
#include "image/image_file.h"

namespace blurlab::app {

void save_back_buffer(glm::ivec2 size, const std::string& path) {
  std::vector<uint8_t> pixels(static_cast<size_t>(size.x) * size.y * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, size.x, size.y, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  save_image(flipped_vertically(from_rgba8(pixels.data(), size.x, size.y)), path);
}

std::string automatic_screenshot_path(std::string_view variant) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return "blurlab-" + std::string(variant) + "-" + stamp + ".png";
}

}  // namespace blurlab::app
