#pragma once
// --tune results: the fastest knobs of a variant per GPU, image size, input format and kernel,
// saved as JSON so a later run (--tuned FILE) can use them. Everything read from a tuning file
// is validated as the same value on the command line is (variant names, sizes, formats, radii,
// each knob against its variant's definition), with one line naming the file and the entry.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
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
  KnobValues knobs;         // the variant's knobs, by name
  double median_ms = 0.0;   // with these knobs
  double default_ms = 0.0;  // with the variant's defaults
};

class TuningTable {
 public:
  // Throws blurlab::Error (one line, naming `option` and the file, quoting the value it refuses)
  // when the file cannot be read or is not a valid tuning file.
  static TuningTable load(const std::filesystem::path& path, std::string_view option = "--tuned");
  // The same from the file's text; `origin` names it in messages ("--tuned 'x.json'").
  static TuningTable parse(std::string_view text, const std::string& origin);
  // Written whole or not at all (write_file_atomically).
  void save(const std::filesystem::path& path, std::string_view option = "--tune-file") const;
  // Before the run: throws blurlab::Error unless `path` can take the run's choices (an output
  // target, and an existing regular file there is a valid tuning file to merge with).
  static void check_target(const std::filesystem::path& path, std::string_view option = "--tune-file");
  // Adds this table's entries to the file (replacing those of the same GPU, variant, size, format,
  // kernel and radius; keeping the others) and puts it in place now, under a DirectoryLock on the
  // file's directory from the read to the rename: runs that tune into one file at the same time
  // each keep their choices. A device (/dev/null, /dev/stdout) is written through, merged with
  // nothing.
  void merge_into(const std::filesystem::path& path, std::string_view option = "--tune-file") const;

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

// The settings with an entry's knob values (every entry knob is one of the variant's: load()
// checked it).
BlurSettings with_tuned_knobs(BlurSettings settings, const TunedEntry& entry);

}  // namespace blurlab::report
