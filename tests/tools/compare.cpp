// blurlab-compare ACTUAL.png GOLDEN.png --tolerance N [--diff DIFF.png]
// Checks an image written by blurlab against a golden PNG made by the CPU reference. On failure
// it writes an amplified difference image (32x per LSB; default ACTUAL.diff.png) and prints
// where both images are. Exit: 0 match, 1 differs, 2 usage or unreadable file.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "image/image_file.h"
#include "util/error.h"

int main(int argc, char** argv) {
  CLI::App app{"Compare a blurlab output with a golden image"};
  std::string actual_path, golden_path, diff_path;
  int tolerance = 0;
  app.add_option("actual", actual_path, "Image to check")->required();
  app.add_option("golden", golden_path, "Golden image (CPU reference)")->required();
  app.add_option("--tolerance", tolerance, "Largest allowed difference per channel, in LSB")->required()->check(CLI::Range(0, 255));
  app.add_option("--diff", diff_path, "Where to write the amplified difference on failure");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::printf("%s", app.help().c_str());
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "blurlab-compare: %s\n", e.what());
    return 2;
  }
  if (diff_path.empty()) diff_path = actual_path.substr(0, actual_path.rfind(".png")) + ".diff.png";

  try {
    const blurlab::Image actual = blurlab::load_image(actual_path).image, golden = blurlab::load_image(golden_path).image;
    if (actual.width != golden.width || actual.height != golden.height) {
      std::fprintf(stderr, "FAIL: %s is %dx%d but the golden %s is %dx%d\n", actual_path.c_str(), actual.width, actual.height,
                   golden_path.c_str(), golden.width, golden.height);
      return 1;
    }
    const auto a = blurlab::to_rgba8(actual), g = blurlab::to_rgba8(golden);
    std::array<int, 4> worst{};
    int worst_x = 0, worst_y = 0, worst_value = -1;
    blurlab::Image diff(actual.width, actual.height);
    for (size_t i = 0; i < a.size(); ++i) {
      const int d = std::abs(int(a[i]) - int(g[i]));
      const int c = static_cast<int>(i % 4);
      worst[static_cast<size_t>(c)] = std::max(worst[static_cast<size_t>(c)], d);
      if (d > worst_value) {
        worst_value = d;
        worst_x = static_cast<int>((i / 4) % static_cast<size_t>(actual.width));
        worst_y = static_cast<int>((i / 4) / static_cast<size_t>(actual.width));
      }
      diff.texels[i] = c == 3 ? 1.0f : std::min(1.0f, d * 32.0f / 255.0f);  // opaque, so RGB shows
    }
    const int largest = *std::max_element(worst.begin(), worst.end());
    if (largest <= tolerance) {
      std::printf("ok: %s matches %s (largest difference %d LSB, tolerance %d)\n", actual_path.c_str(), golden_path.c_str(), largest,
                  tolerance);
      return 0;
    }
    blurlab::save_image(diff, diff_path);
    std::fprintf(stderr,
                 "FAIL: %s differs from %s by up to %d LSB (R %d G %d B %d A %d; tolerance %d) at (%d,%d)\n"
                 "  actual: %s\n  difference x32: %s\n",
                 actual_path.c_str(), golden_path.c_str(), largest, worst[0], worst[1], worst[2], worst[3], tolerance, worst_x, worst_y,
                 actual_path.c_str(), diff_path.c_str());
    return 1;
  } catch (const blurlab::Error& e) {
    std::fprintf(stderr, "blurlab-compare: %s\n", e.what());
    return 2;
  }
}
