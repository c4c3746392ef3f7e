// blurlab-golden IN.png OUT.png --kernel box|gauss [--radius R] [--sigma S] [--linear] [--border MODE]
//                [--border-value R,G,B,A]
// Writes the golden image for a blur of IN: the CPU reference in double precision, rounded once
// to RGBA8. With --linear, as blurlab --linear does it: sRGB decoded to linear light, blurred,
// encoded back, all in double precision. Goldens never come from GPU output. The constant border
// is rounded to a texel of the format blurlab blurs IN in (rgba8; rgba16f for a 16-bit file or
// --linear, where the constant is a linear-light value), as blurlab does.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "blur/kernel.h"
#include "blur/linear_light.h"
#include "blur/reference.h"
#include "image/image_file.h"
#include "util/error.h"

int main(int argc, char** argv) {
  CLI::App app{"Make a golden image with the CPU reference blur"};
  std::string in, out, kernel_name = "gauss", border_name = "clamp", border_value = "0,0,0,0";
  std::optional<int> radius;
  std::optional<double> sigma;
  bool linear = false;
  app.add_option("input", in)->required();
  app.add_option("output", out)->required();
  app.add_option("--kernel", kernel_name);
  app.add_option("--radius", radius);
  app.add_option("--sigma", sigma);
  app.add_flag("--linear", linear);
  app.add_option("--border", border_name);
  app.add_option("--border-value", border_value);
  try {
    app.parse(argc, argv);
    const auto type = blurlab::parse_kernel_type(kernel_name);
    if (!type) throw blurlab::UsageError("--kernel must be box or gauss");
    const blurlab::Kernel kernel = blurlab::make_kernel(*type, radius, sigma);
    const auto mode = blurlab::parse_border_mode(border_name);
    if (!mode) throw blurlab::UsageError("--border '" + border_name + "' is not a border mode");
    std::string why;
    const auto value = blurlab::parse_border_value(border_value, &why);
    if (!value) throw blurlab::UsageError("--border-value '" + border_value + "' " + why);
    const blurlab::LoadedImage loaded = blurlab::load_image(in);
    const bool half = linear || loaded.info.bits_per_channel == 16;
    const blurlab::gl::Format format = half ? blurlab::gl::Format::rgba16f : blurlab::gl::Format::rgba8;
    blurlab::Border border{*mode};
    if (*mode == blurlab::BorderMode::Constant) border.value = blurlab::texel_value(*value, format);
    const blurlab::Image& image = loaded.image;
    const auto weights = blurlab::kernel_weights(kernel);
    const auto reference = linear ? blurlab::encode_srgb(blurlab::reference_blur(blurlab::decode_srgb(image), weights, border))
                                  : blurlab::reference_blur(image, weights, border);
    blurlab::save_image(blurlab::from_rgba8(blurlab::to_rgba8(reference).data(), image.width, image.height), out);
    return 0;
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const blurlab::Error& e) {
    std::fprintf(stderr, "blurlab-golden: %s\n", e.what());
    return e.exit_code();
  }
}
