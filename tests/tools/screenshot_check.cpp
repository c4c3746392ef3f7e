// blurlab-screenshot-check BLURRED.png UNBLURRED.png NO_OVERLAY.png
// Checks three window screenshots of the same paused frame: the blurred one (overlay shown) is
// not uniform; without the overlay it differs from the unblurred scene (the blur is drawn); and
// the overlay changes the top-left corner, where the panel is, but not the far corner.
#include <cmath>
#include <cstdio>

#include "image/image_file.h"
#include "util/error.h"

namespace {

struct Region {
  int x0, y0, x1, y1;
};

double mean_abs_difference(const blurlab::Image& a, const blurlab::Image& b, Region r) {
  double sum = 0.0;
  long count = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x)
      for (int c = 0; c < 3; ++c, ++count) sum += std::abs(a.at(x, y, c) - b.at(x, y, c));
  return count ? 255.0 * sum / static_cast<double>(count) : 0.0;
}

double deviation(const blurlab::Image& a) {
  double sum = 0.0, sq = 0.0;
  const double n = static_cast<double>(a.texel_count()) * 3;
  for (size_t i = 0; i < a.texels.size(); ++i)
    if (i % 4 != 3) {
      sum += a.texels[i];
      sq += static_cast<double>(a.texels[i]) * a.texels[i];
    }
  return 255.0 * std::sqrt(std::max(0.0, sq / n - (sum / n) * (sum / n)));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: blurlab-screenshot-check BLURRED.png UNBLURRED.png NO_OVERLAY.png\n");
    return 2;
  }
  try {
    const blurlab::Image blurred = blurlab::load_image(argv[1]).image, unblurred = blurlab::load_image(argv[2]).image,
                        bare = blurlab::load_image(argv[3]).image;
    if (blurred.width != bare.width || blurred.height != bare.height || unblurred.width != bare.width ||
        unblurred.height != bare.height) {
      std::fprintf(stderr, "FAIL: the screenshots differ in size\n");
      return 1;
    }
    const int w = bare.width, h = bare.height;
    const Region all{0, 0, w, h}, panel{20, 20, 200, 120}, far_corner{w - w / 4, h - h / 4, w, h};
    const double spread = deviation(blurred);
    const double blur_change = mean_abs_difference(bare, unblurred, all);
    const double overlay_change = mean_abs_difference(blurred, bare, panel);
    const double elsewhere = mean_abs_difference(blurred, bare, far_corner);
    std::printf("deviation %.1f, blur changes the frame by %.2f, overlay changes its panel by %.1f and the far corner by %.2f (8-bit steps)\n",
                spread, blur_change, overlay_change, elsewhere);
    bool ok = true;
    if (spread < 5.0) ok = false, std::fprintf(stderr, "FAIL: the frame is (nearly) uniform\n");
    if (blur_change < 1.0) ok = false, std::fprintf(stderr, "FAIL: the blurred frame equals the unblurred scene\n");
    if (overlay_change < 10.0) ok = false, std::fprintf(stderr, "FAIL: no overlay panel in the top-left corner\n");
    if (elsewhere > 0.5) ok = false, std::fprintf(stderr, "FAIL: the overlay (or the frame) changed the far corner\n");
    return ok ? 0 : 1;
  } catch (const blurlab::Error& e) {
    std::fprintf(stderr, "blurlab-screenshot-check: %s\n", e.what());
    return 2;
  }
}
