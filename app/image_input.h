#pragma once
// What a headless run blurs, settled before any GL work: the --image file (refused from its header
// when the run would not fit in memory), the input formats, and the bits --output will hold.
#include <glm/vec2.hpp>
#include <optional>
#include <ostream>
#include <vector>

#include "cli/options.h"
#include "gl/format.h"
#include "image/image.h"

namespace blurlab::app {

struct RunInput {
  std::optional<Image> image;             // --image, decoded; none: the scene
  std::vector<gl::Format> input_formats;  // --input-format; rgba16f for a 16-bit image without it
  int output_bits = 8;                    // --output: 16 where the blurred texture holds more and the file can
};

// Loads --image and says on `out` what it holds; checks the memory each size needs (the image's,
// or --size, or `default_size`) against memory_bound(). Throws Error / UsageError with one line.
RunInput prepare_run_input(const cli::Options& options, glm::ivec2 default_size, std::ostream& out);

}  // namespace blurlab::app
