#include "blur/radius_map.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "image/image_file.h"
#include "image/memory_budget.h"
#include "util/error.h"

namespace blurlab {

std::shared_ptr<const RadiusMap> builtin_radius_map(std::string_view name) {
  static const auto make = [](MapShape shape, const char* text) {
    auto map = std::make_shared<RadiusMap>();
    map->shape = shape;
    map->name = text;
    return std::shared_ptr<const RadiusMap>(std::move(map));
  };
  static const std::shared_ptr<const RadiusMap> ramp = make(MapShape::Ramp, "ramp"), band = make(MapShape::Band, "band"),
                                                circle = make(MapShape::Circle, "circle");
  if (name == "ramp") return ramp;
  if (name == "band") return band;
  if (name == "circle") return circle;
  return nullptr;
}

std::string_view builtin_radius_map_names() { return "ramp, band, circle"; }

std::shared_ptr<const RadiusMap> load_radius_map(const std::string& path) {
  const std::string what = "cannot read --radius-map '" + path + "': ";
  const auto check = [&](const ImageFileInfo& info) {
    if (info.format != ImageFormat::png || info.channels != 1 || (info.bits_per_channel != 8 && info.bits_per_channel != 16))
      throw Error(what + "a radius map is a grey PNG of 8 or 16 bits (this one: " + blurlab::describe(info) + ")");
    // By its header, before any of it is decoded.
    if (const auto problem = map_memory_problem(info.width, info.height, info.file_bytes, info.decoder_bytes_per_texel, memory_bound()))
      throw Error(what + *problem);
  };
  // Read and decode errors name the file and the option themselves (one line).
  const LoadedImage loaded = load_image(path, check, "--radius-map");
  auto map = std::make_shared<RadiusMap>();
  map->shape = MapShape::File;
  map->name = path;
  map->width = loaded.image.width;
  map->height = loaded.image.height;
  map->max_value = loaded.info.bits_per_channel == 16 ? 65535 : 255;
  map->values.resize(loaded.image.texel_count());
  // The decoder gives k / max as a float: 24 bits hold k / 65535 closely enough to round back to k.
  for (size_t i = 0; i < map->values.size(); ++i)
    map->values[i] = static_cast<uint16_t>(std::lround(static_cast<double>(loaded.image.texels[i * 4]) * map->max_value));
  return map;
}

std::shared_ptr<const RadiusMap> radius_map_from_option(const std::string& text) {
  std::error_code error;
  const bool file = std::filesystem::exists(std::filesystem::symlink_status(text, error));
  if (auto builtin = builtin_radius_map(text)) {
    // The built-in once won silently over a file of its name: which one was meant is the user's to say.
    if (file) throw UsageError("--radius-map '" + text + "' names both a built-in map and a file: write ./" + text + " for the file");
    return builtin;
  }
  if (!file)
    throw Error("cannot read --radius-map '" + text + "': no such file, nor a built-in map (" + std::string(builtin_radius_map_names()) + ")");
  return load_radius_map(text);
}

int level_of(int k, int max_value, int max_radius) {
  const long long m = max_value;
  return static_cast<int>((2LL * k * max_radius + m) / (2 * m));
}

std::vector<uint8_t> radius_levels(const RadiusMap* map, glm::ivec2 size, int max_radius) {
  if (max_radius < 0 || max_radius > 255) throw Error("radius_levels: a level is one byte, not " + std::to_string(max_radius));
  const int w = size.x, h = size.y;
  std::vector<uint8_t> levels(static_cast<size_t>(w) * static_cast<size_t>(h), static_cast<uint8_t>(max_radius));
  if (!map) return levels;
  const auto from_value = [&](double v) { return static_cast<uint8_t>(std::floor(std::clamp(v, 0.0, 1.0) * max_radius + 0.5)); };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t& level = levels[static_cast<size_t>(y) * w + x];
      switch (map->shape) {
        case MapShape::File: {
          const long long mx = (2LL * x + 1) * map->width / (2LL * w), my = (2LL * y + 1) * map->height / (2LL * h);
          level = static_cast<uint8_t>(level_of(map->values[static_cast<size_t>(my) * map->width + mx], map->max_value, max_radius));
          break;
        }
        case MapShape::Ramp: level = from_value(w > 1 ? static_cast<double>(x) / (w - 1) : 0.0); break;
        case MapShape::Band: {
          const double d = std::abs(y + 0.5 - h / 2.0) / h;  // distance from the centre line, in heights
          level = from_value((d - 0.125) / 0.25);
          break;
        }
        case MapShape::Circle: {
          const double dx = x + 0.5 - w / 2.0, dy = y + 0.5 - h / 2.0, radius = std::min(w, h) / 3.0;
          level = dx * dx + dy * dy < radius * radius ? 0 : static_cast<uint8_t>(max_radius);
          break;
        }
      }
    }
  return levels;
}

Kernel level_kernel(const Kernel& kernel, int level) {
  if (level <= 0) return Kernel{KernelType::Box, 0, 0.0};
  if (kernel.type == KernelType::Box) return Kernel{KernelType::Box, level, 0.0};
  return Kernel{KernelType::Gauss, level, kernel.sigma * level / kernel.radius};
}

std::string describe(const RadiusMap* map) {
  if (!map) return "none (uniform r = R)";
  if (map->shape != MapShape::File) return map->name;
  // The name on one line whatever it holds: every report, table and recipe shows it.
  return "file " + single_line(map->name) + " (" + std::to_string(map->width) + "x" + std::to_string(map->height) + ", " +
         (map->max_value == 65535 ? "16" : "8") + "-bit)";
}

}  // namespace blurlab
