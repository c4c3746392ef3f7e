#pragma once
// Blur that varies across the image: a radius map gives each pixel its own kernel. The
// map is a grey PNG (8 or 16 bit) or a built-in shape; its value v in [0, 1] at a pixel becomes
// that pixel's level, an integer radius r = round(v R) in 0..R (R: the settings' kernel radius,
// from --radius or ceil(3 --sigma)). A pixel of level r is blurred by the box of radius r, or by
// the Gaussian of radius r and sigma sigma r / R (the level R is exactly the uniform kernel, the
// level 0 the identity): the map scales the kernel from 0 to the one asked for. Levels are
// computed here, on the CPU, once; the GPU reads them from a texture (BlurPasses::radius_levels)
// and the reference (reference_variable_blur) from the same vector, so both blur with the same
// per-pixel kernels. No map: every pixel has level R, the uniform blur.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>

#include "blur/kernel.h"

namespace blurlab {

enum class MapShape {
  File,    // a grey PNG's values
  Ramp,    // depth-like: 0 at the left edge to 1 at the right
  Band,    // a focus band: 0 in a horizontal band through the centre (a quarter of the height),
           // rising linearly to 1 a quarter of the height above and below it (tilt-shift)
  Circle,  // a mask: 0 inside a centred circle of diameter 2/3 of the shorter side, 1 outside
};

struct RadiusMap {
  MapShape shape = MapShape::Ramp;
  std::string name;  // "ramp", "band", "circle", or the file's path
  // MapShape::File: the file's size and values, 0..max_value (255 or 65535).
  int width = 0, height = 0;
  int max_value = 0;
  std::vector<uint16_t> values;
};

// The built-in map of that name (ramp, band, circle), or nullptr.
std::shared_ptr<const RadiusMap> builtin_radius_map(std::string_view name);
// "ramp, band, circle"
std::string_view builtin_radius_map_names();
// A grey PNG of 8 or 16 bits (no alpha, no palette, no colour). Throws Error with one line:
// "cannot read --radius-map 'PATH': REASON".
std::shared_ptr<const RadiusMap> load_radius_map(const std::string& path);
// --radius-map's value: a built-in's name or a file (above); a name that is both is refused
// (UsageError), since neither may silently stand for the other.
std::shared_ptr<const RadiusMap> radius_map_from_option(const std::string& text);

// The level (0..max_radius) of every pixel of a width x height image, row-major, row 0 at the top.
// A file of another size than the image is scaled to it by nearest neighbour: pixel (x, y) reads
// the map's texel ((2x + 1) mw / 2W, (2y + 1) mh / 2H) (integer division). nullptr: every pixel
// max_radius. A map value k of max m gives round(k R / m), halves up, in integers.
std::vector<uint8_t> radius_levels(const RadiusMap* map, glm::ivec2 size, int max_radius);
// The level of a map value k of max m: round(k R / m), halves up.
int level_of(int k, int max_value, int max_radius);

// The kernel of the pixels of level `level` for the settings' kernel (of radius R >= level): box r
// = level, or gauss r = level, sigma = sigma level / R; level 0 is the identity (box r = 0).
Kernel level_kernel(const Kernel& kernel, int level);

// "ramp", "file focus.png (640x480, 8-bit)", or "none (uniform r = R)" for nullptr.
std::string describe(const RadiusMap* map);

}  // namespace blurlab
