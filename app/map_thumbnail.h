#pragma once
// A radius map as the overlay shows it beside a variable-radius variant's settings.
#include <glm/vec2.hpp>

#include "blur/radius_map.h"
#include "gl/texture.h"

namespace blurlab::app {

// Each pixel's level as grey, black r = 0 to white r = `max_radius`, 160 texels wide with the
// window's aspect.
gl::Texture radius_map_thumbnail(const RadiusMap& map, glm::ivec2 window, int max_radius);

}  // namespace blurlab::app
