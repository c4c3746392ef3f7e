#include "image_input.h"

#include <algorithm>
#include <cmath>

#include "blur/registry.h"
#include "image/image_file.h"
#include "image/memory_budget.h"
#include "util/error.h"

namespace blurlab::app {
namespace {

// A texel of the run's largest input format: the source and destination textures' share of its memory.
int texture_bytes_per_texel(const std::vector<gl::Format>& formats) {
  int bytes = 0;
  for (gl::Format f : formats) bytes = std::max(bytes, gl::info(f).bytes_per_texel);
  return bytes;
}

// The largest intermediates per texel of a W x H image, over the run's variants and their settings
// (VariantInfo::intermediate_bytes; at most one rgba32f texture, 16, for the others), rounded up.
int intermediate_bytes_per_texel(const cli::Options& o, std::span<const VariantInfo* const> variants,
                                 const std::vector<gl::Format>& formats, glm::ivec2 size) {
  int bytes = 16;
  const double texels = std::max(1.0, static_cast<double>(size.x) * size.y);
  for (const VariantInfo* v : variants) {
    if (!v->intermediate_bytes) continue;
    for (gl::Format f : formats)
      for (const BlurSettings& s : o.settings_list(*v, f))
        bytes = std::max(bytes, static_cast<int>(std::ceil(v->intermediate_bytes(resolve(*v, s, size), size) / texels)));
  }
  return bytes;
}

}  // namespace

RunInput prepare_run_input(const cli::Options& o, glm::ivec2 default_size, std::ostream& out) {
  const MemoryBound memory = memory_bound();
  // One double-precision reference per kernel and border; an approximation's check also keeps its
  // CPU model's output and the exact Gaussian of the sigma it declares (bench::Input), two more.
  const std::span<const VariantInfo* const> selected = o.variants.empty() ? variants() : std::span(o.variants);
  const bool approximations = std::any_of(selected.begin(), selected.end(), [](const VariantInfo* v) { return is_approximation(*v); });
  const size_t kernels = (o.kernel_list().size() + (approximations ? 2 : 0)) * o.borders.size();
  RunInput input;
  input.input_formats = o.input_formats;
  if (!o.image.empty()) {
    LoadedImage loaded = load_image(o.image, [&](const ImageFileInfo& file) {
      // rgba8 would keep 8 of a 16-bit file's bits; rgba16f keeps 11 significant bits.
      if (file.bits_per_channel == 16 && !o.input_formats_given) input.input_formats = {gl::Format::rgba16f};
      const RunMemoryPlan plan{true,
                               file.file_bytes,
                               file.decoder_bytes_per_texel,
                               texture_bytes_per_texel(input.input_formats),
                               kernels,
                               intermediate_bytes_per_texel(o, selected, input.input_formats, {file.width, file.height})};
      if (const auto problem = run_memory_problem(file.width, file.height, plan, memory))
        throw Error("cannot load --image '" + o.image + "': " + *problem);
    }, "--image");
    out << "image: " << single_line(o.image) << ", " << loaded.image.width << "x" << loaded.image.height << " " << describe(loaded.info);
    if (loaded.info.bits_per_channel == 16)
      out << (input.input_formats == std::vector<gl::Format>{gl::Format::rgba8}
                  ? "; rgba8 keeps 8 bits per channel (--input-format rgba16f keeps 11 significant bits)"
                  : "; rgba16f keeps 11 significant bits per channel");
    out << "\n";
    input.image = std::move(loaded.image);
  } else {
    for (glm::ivec2 size : o.sizes.empty() ? std::vector<glm::ivec2>{default_size} : o.sizes)
      if (const auto problem = run_memory_problem(size.x, size.y,
                                                  {false, 0, 0, texture_bytes_per_texel(input.input_formats), kernels,
                                                   intermediate_bytes_per_texel(o, selected, input.input_formats, size)},
                                                  memory))
        throw UsageError("--size " + *problem);
  }
  if (!o.output.empty() && input.input_formats.front() != gl::Format::rgba8)
    input.output_bits = max_bits(output_format(o.output, "--output"));
  return input;
}

}  // namespace blurlab::app
