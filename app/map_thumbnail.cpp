#include "map_thumbnail.h"

#include <algorithm>
#include <vector>

#include "image/image.h"

namespace blurlab::app {

gl::Texture radius_map_thumbnail(const RadiusMap& map, glm::ivec2 window, int max_radius) {
  const glm::ivec2 size{160, std::max(1, 160 * window.y / std::max(1, window.x))};
  const std::vector<uint8_t> levels = radius_levels(&map, size, max_radius);
  Image grey(size.x, size.y);
  for (size_t i = 0; i < levels.size(); ++i) {
    const float v = max_radius > 0 ? static_cast<float>(levels[i]) / static_cast<float>(max_radius) : 0.0f;
    for (size_t c = 0; c < 3; ++c) grey.texels[i * 4 + c] = v;
    grey.texels[i * 4 + 3] = 1.0f;
  }
  gl::Texture texture(size.x, size.y, gl::Format::rgba8, "radius map thumbnail");
  texture.upload(grey);
  return texture;
}

}  // namespace blurlab::app
