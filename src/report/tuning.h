#pragma once
// --tune results: the fastest knobs of a variant per GPU, image size, input format and kernel,
// saved as JSON so a later run (--tuned FILE) can use them.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "blur/blur.h"

namespace blurlab::report {

struct TunedEntry {
  std::string renderer;
  std::string variant;
  glm::ivec2 size{0, 0};
  gl::Format input_format = gl::Format::rgba8;
  KernelType kernel = KernelType::Gauss;
  int radius = 0;
  glm::ivec2 workgroup{0, 0};
  int unroll = 0, segment = 0, cache_bits = 0;
  double median_ms = 0.0;   // with these knobs
  double default_ms = 0.0;  // with the variant's defaults
};

class TuningTable {
 public:
  // Throws blurlab::Error (one line) when the file cannot be read or is not a tuning file.
  static TuningTable load(const std::filesystem::path& path);
  // Written whole or not at all.
  void save(const std::filesystem::path& path) const;

  // Replaces the entry of the same renderer, variant, size, format, kernel and radius.
  void put(const TunedEntry& entry);
  // The entry for this GPU, variant, size, input format and kernel type at the radius nearest to
  // `radius`, if any.
  std::optional<TunedEntry> find(const std::string& renderer, const std::string& variant, glm::ivec2 size,
                                 gl::Format input_format, KernelType kernel, int radius) const;
  const std::vector<TunedEntry>& entries() const { return entries_; }

 private:
  std::vector<TunedEntry> entries_;
};

// Applies an entry's knobs to settings (only the knobs the variant has).
BlurSettings with_tuned_knobs(const VariantInfo& variant, BlurSettings settings, const TunedEntry& entry);

}  // namespace blurlab::report
