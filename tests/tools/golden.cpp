// blurlab-golden IN.png OUT.png --kernel box|gauss [--radius R] [--sigma S] [--linear] [--border MODE]
//                [--border-value R,G,B,A] [--variant NAME] [--radius-map FILE|ramp|band|circle]
// blurlab-golden IN.png --tolerance --variant NAME --kernel gauss ...
// Writes the golden image for a blur of IN: the CPU reference in double precision, rounded once
// to RGBA8. With --linear, as blurlab --linear does it: sRGB decoded to linear light, blurred,
// encoded back, all in double precision. With --variant, an approximation's CPU model of its own
// algorithm (its defaults, rgba8 input). Goldens never come from GPU output. The constant border
// is rounded to a texel of the format blurlab blurs IN in (rgba8; rgba16f for a 16-bit file or
// --linear, where the constant is a linear-light value), as blurlab does. --tolerance prints,
// instead, the tolerance in LSB the variant's check states for that blur of IN (an
// approximation's depends on its passes). With --radius-map, the blur varies per pixel as
// blurlab's does (blur/radius_map.h): the per-pixel reference (reference_variable_blur), or with
// --variant a variable-radius approximation's model of that map.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "blur/check.h"
#include "blur/kernel.h"
#include "blur/linear_light.h"
#include "blur/radius_map.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "image/image_file.h"
#include "util/error.h"

int main(int argc, char** argv) {
  CLI::App app{"Make a golden image with the CPU reference blur"};
  std::string in, out, kernel_name = "gauss", variant_name, border_name = "clamp", border_value = "0,0,0,0", radius_map;
  std::optional<int> radius;
  std::optional<double> sigma;
  bool print_tolerance = false, linear = false;
  app.add_option("input", in)->required();
  app.add_option("output", out);
  app.add_option("--kernel", kernel_name);
  app.add_option("--radius", radius);
  app.add_option("--sigma", sigma);
  app.add_option("--variant", variant_name, "An approximation: its CPU model instead of the reference");
  app.add_flag("--tolerance", print_tolerance, "Print the variant's tolerance (LSB) for this blur instead");
  app.add_flag("--linear", linear);
  app.add_option("--border", border_name);
  app.add_option("--border-value", border_value);
  app.add_option("--radius-map", radius_map, "A per-pixel radius: a grey PNG or ramp, band, circle");
  try {
    app.parse(argc, argv);
    const auto type = blurlab::parse_kernel_type(kernel_name);
    if (!type) throw blurlab::UsageError("--kernel must be box or gauss");
    const blurlab::VariantInfo* variant = variant_name.empty() ? nullptr : blurlab::find_variant(variant_name);
    if (!variant_name.empty() && !variant) throw blurlab::UsageError("unknown variant '" + variant_name + "'");
    if (variant && !blurlab::is_approximation(*variant))
      throw blurlab::UsageError(variant_name + " is exact: its golden is the reference's (no --variant)");
    if (print_tolerance && !variant) throw blurlab::UsageError("--tolerance goes with --variant");
    if (linear && variant) throw blurlab::UsageError("--linear goes without --variant (the models blur rgba8 input)");
    if (!print_tolerance && out.empty()) throw blurlab::UsageError("no output file");
    const auto mode = blurlab::parse_border_mode(border_name);
    if (!mode) throw blurlab::UsageError("--border '" + border_name + "' is not a border mode");
    std::string why;
    const auto value = blurlab::parse_border_value(border_value, &why);
    if (!value) throw blurlab::UsageError("--border-value '" + border_value + "' " + why);
    const blurlab::LoadedImage loaded = blurlab::load_image(in);
    const bool half = linear || loaded.info.bits_per_channel == 16;
    const blurlab::gl::Format format = half ? blurlab::gl::Format::rgba16f : blurlab::gl::Format::rgba8;
    blurlab::BlurSettings settings;
    settings.kernel = blurlab::make_kernel(*type, radius, sigma);
    settings.border = blurlab::Border{*mode};
    if (*mode == blurlab::BorderMode::Constant) settings.border.value = blurlab::texel_value(*value, format);
    if (!radius_map.empty()) {
      if (linear) throw blurlab::UsageError("--radius-map goes without --linear");
      if (variant && !variant->variable_radius) throw blurlab::UsageError(variant_name + " blurs with one radius: no --radius-map");
      settings.radius_map = blurlab::radius_map_from_option(radius_map);
    }
    const blurlab::Image& image = loaded.image;
    if (print_tolerance) {
      const blurlab::BlurSettings resolved = blurlab::resolve(*variant, settings);
      std::printf("%d\n", blurlab::tolerance_for(*variant, resolved, {image.width, image.height}, 1.0).lsb_limit);
      return 0;
    }
    const auto weights = blurlab::kernel_weights(settings.kernel);
    const auto reference = variant ? blurlab::expected_output(*variant, blurlab::resolve(*variant, settings), image)
                           : settings.radius_map
                               ? blurlab::reference_variable_blur(
                                     image, blurlab::radius_levels(settings.radius_map.get(), {image.width, image.height}, settings.kernel.radius),
                                     settings.kernel, settings.border)
                           : linear
                               ? blurlab::encode_srgb(blurlab::reference_blur(blurlab::decode_srgb(image), weights, settings.border))
                               : blurlab::reference_blur(image, weights, settings.border);
    blurlab::save_image(blurlab::from_rgba8(blurlab::to_rgba8(reference).data(), image.width, image.height), out);
    return 0;
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const blurlab::Error& e) {
    std::fprintf(stderr, "blurlab-golden: %s\n", e.what());
    return e.exit_code();
  }
}
