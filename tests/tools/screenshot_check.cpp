// blurlab-screenshot-check: facts about window screenshots, for tests/window_test.cmake. Each
// command prints its numbers (8-bit steps) and exits 0 when the fact holds, 1 when not, 2 on
// usage or unreadable files.
//   frame BLURRED UNBLURRED BARE      three shots of one paused frame: the blurred one (overlay
//                                     shown) is not uniform; without the overlay it differs from the
//                                     unblurred scene; the overlay changes the top-left corner only
//   same A B --max-lsb N --max-mean M the pictures agree: no channel differs by more than N, and
//        [--region X0 Y0 X1 Y1]       the mean difference is at most M (within the rectangle only)
//   differ A B --min-mean M           the pictures differ by at least M on average
//   inside WITH BARE X0 Y0 X1 Y1      every pixel that differs between WITH and BARE lies in the
//                                     rectangle (the overlay panel the program reported)
//   colour IMG X0 Y0 X1 Y1 --rgb R G B at least N pixels of the rectangle within 12 steps of the
//          --min-pixels N             colour in every channel (a plot's line)
//   difference IMG --min-black F      a difference view of a correct variant: no red (errors beyond
//                                     the tolerance), and at least a fraction F of pixels black
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "image/image_file.h"
#include "util/error.h"

namespace {

using blurlab::Image;

struct Region {
  int x0, y0, x1, y1;
};

int byte(const Image& im, int x, int y, int c) { return blurlab::to_unorm8(im.at(x, y, c)); }

double mean_abs_difference(const Image& a, const Image& b, Region r) {
  double sum = 0.0;
  long count = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x)
      for (int c = 0; c < 3; ++c, ++count) sum += std::abs(byte(a, x, y, c) - byte(b, x, y, c));
  return count ? sum / static_cast<double>(count) : 0.0;
}

int max_abs_difference(const Image& a, const Image& b, Region r) {
  int largest = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x)
      for (int c = 0; c < 3; ++c) largest = std::max(largest, std::abs(byte(a, x, y, c) - byte(b, x, y, c)));
  return largest;
}

double deviation(const Image& a) {
  double sum = 0.0, sq = 0.0;
  const double n = static_cast<double>(a.texel_count()) * 3;
  for (size_t i = 0; i < a.texels.size(); ++i)
    if (i % 4 != 3) {
      sum += a.texels[i];
      sq += static_cast<double>(a.texels[i]) * a.texels[i];
    }
  return 255.0 * std::sqrt(std::max(0.0, sq / n - (sum / n) * (sum / n)));
}

void same_size(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height)
    throw blurlab::Error("the screenshots differ in size: " + std::to_string(a.width) + "x" + std::to_string(a.height) + " and " +
                         std::to_string(b.width) + "x" + std::to_string(b.height));
}

int frame(const Image& blurred, const Image& unblurred, const Image& bare) {
  same_size(blurred, bare);
  same_size(unblurred, bare);
  const int w = bare.width, h = bare.height;
  const Region all{0, 0, w, h}, panel{20, 20, 200, 120}, far_corner{w - w / 4, h - h / 4, w, h};
  const double spread = deviation(blurred);
  const double blur_change = mean_abs_difference(bare, unblurred, all);
  const double overlay_change = mean_abs_difference(blurred, bare, panel);
  const double elsewhere = mean_abs_difference(blurred, bare, far_corner);
  std::printf("deviation %.1f, blur changes the frame by %.2f, overlay changes its panel by %.1f and the far corner by %.2f\n", spread,
              blur_change, overlay_change, elsewhere);
  bool ok = true;
  if (spread < 5.0) ok = false, std::fprintf(stderr, "FAIL: the frame is (nearly) uniform\n");
  if (blur_change < 1.0) ok = false, std::fprintf(stderr, "FAIL: the blurred frame equals the unblurred scene\n");
  if (overlay_change < 10.0) ok = false, std::fprintf(stderr, "FAIL: no overlay panel in the top-left corner\n");
  if (elsewhere > 0.5) ok = false, std::fprintf(stderr, "FAIL: the overlay (or the frame) changed the far corner\n");
  return ok ? 0 : 1;
}

int same(const Image& a, const Image& b, int max_lsb, double max_mean, std::optional<Region> region) {
  same_size(a, b);
  const Region r = region ? Region{std::clamp(region->x0, 0, a.width), std::clamp(region->y0, 0, a.height),
                                   std::clamp(region->x1, 0, a.width), std::clamp(region->y1, 0, a.height)}
                          : Region{0, 0, a.width, a.height};
  if (r.x1 <= r.x0 || r.y1 <= r.y0) throw blurlab::Error("the region is empty");
  const int largest = max_abs_difference(a, b, r);
  const double mean = mean_abs_difference(a, b, r);
  std::printf("largest difference %d, mean %.4f (allowed %d, %.4f)\n", largest, mean, max_lsb, max_mean);
  if (largest <= max_lsb && mean <= max_mean) return 0;
  std::fprintf(stderr, "FAIL: the pictures differ by up to %d (mean %.4f)\n", largest, mean);
  return 1;
}

int differ(const Image& a, const Image& b, double min_mean) {
  same_size(a, b);
  const double mean = mean_abs_difference(a, b, {0, 0, a.width, a.height});
  std::printf("mean difference %.3f (at least %.3f wanted)\n", mean, min_mean);
  if (mean >= min_mean) return 0;
  std::fprintf(stderr, "FAIL: the pictures differ by only %.3f on average\n", mean);
  return 1;
}

int inside(const Image& with, const Image& bare, Region r) {
  same_size(with, bare);
  Region box{with.width, with.height, -1, -1};
  long changed = 0;
  for (int y = 0; y < with.height; ++y)
    for (int x = 0; x < with.width; ++x)
      for (int c = 0; c < 3; ++c)
        if (byte(with, x, y, c) != byte(bare, x, y, c)) {
          box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
          ++changed;
          break;
        }
  if (changed == 0) {
    std::fprintf(stderr, "FAIL: the two screenshots are the same (no overlay drawn?)\n");
    return 1;
  }
  std::printf("%ld pixels differ, within %d,%d-%d,%d; the reported panel is %d,%d-%d,%d\n", changed, box.x0, box.y0, box.x1, box.y1,
              r.x0, r.y0, r.x1, r.y1);
  // Pixel centres: a rectangle's last covered pixel is x1 - 1; one pixel of antialiasing slack.
  if (box.x0 >= r.x0 - 1 && box.y0 >= r.y0 - 1 && box.x1 <= r.x1 && box.y1 <= r.y1) return 0;
  std::fprintf(stderr, "FAIL: the overlay drew outside the panel it reported\n");
  return 1;
}

int colour(const Image& im, Region r, const std::vector<int>& rgb, long min_pixels) {
  long found = 0;
  for (int y = std::max(0, r.y0); y < std::min(im.height, r.y1); ++y)
    for (int x = std::max(0, r.x0); x < std::min(im.width, r.x1); ++x) {
      bool near = true;
      for (int c = 0; c < 3; ++c) near = near && std::abs(byte(im, x, y, c) - rgb[static_cast<size_t>(c)]) <= 12;
      found += near;
    }
  std::printf("%ld pixels of %d,%d,%d in %d,%d-%d,%d (at least %ld wanted)\n", found, rgb[0], rgb[1], rgb[2], r.x0, r.y0, r.x1, r.y1,
              min_pixels);
  if (found >= min_pixels) return 0;
  std::fprintf(stderr, "FAIL: only %ld pixels of that colour there\n", found);
  return 1;
}

int difference(const Image& im, double min_black) {
  long black = 0, red = 0;
  int brightest = 0;
  for (int y = 0; y < im.height; ++y)
    for (int x = 0; x < im.width; ++x) {
      const int r = byte(im, x, y, 0), g = byte(im, x, y, 1), b = byte(im, x, y, 2);
      if (r == 0 && g == 0 && b == 0) ++black;
      if (r > 200 && g < 80 && b < 80) ++red;  // the present shader's "beyond the tolerance"
      if (r == g && g == b) brightest = std::max(brightest, r);
    }
  const double n = static_cast<double>(im.texel_count());
  std::printf("black %.1f%%, red %ld pixels, brightest grey %d\n", 100.0 * black / n, red, brightest);
  bool ok = true;
  if (red > 0) ok = false, std::fprintf(stderr, "FAIL: %ld pixels beyond the tolerance (red)\n", red);
  if (black < min_black * n) ok = false, std::fprintf(stderr, "FAIL: only %.1f%% black; %.1f%% wanted\n", 100.0 * black / n, 100.0 * min_black);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Facts about blurlab window screenshots"};
  app.require_subcommand(1);
  std::vector<std::string> files;
  int max_lsb = 0;
  double max_mean = 0.0, min_mean = 0.0, min_black = 0.0;
  std::vector<int> rect;
  CLI::App* frame_cmd = app.add_subcommand("frame", "blurred, unblurred and bare shots of one frame");
  frame_cmd->add_option("files", files)->expected(3)->required();
  CLI::App* same_cmd = app.add_subcommand("same", "the pictures agree");
  same_cmd->add_option("files", files)->expected(2)->required();
  same_cmd->add_option("--max-lsb", max_lsb)->required();
  same_cmd->add_option("--max-mean", max_mean)->required();
  same_cmd->add_option("--region", rect, "X0 Y0 X1 Y1")->expected(4);
  CLI::App* differ_cmd = app.add_subcommand("differ", "the pictures differ");
  differ_cmd->add_option("files", files)->expected(2)->required();
  differ_cmd->add_option("--min-mean", min_mean)->required();
  CLI::App* inside_cmd = app.add_subcommand("inside", "the overlay drew inside its panel");
  std::vector<std::string> inside_args;  // WITH BARE X0 Y0 X1 Y1
  inside_cmd->add_option("args", inside_args)->expected(6)->required();
  CLI::App* colour_cmd = app.add_subcommand("colour", "pixels of a colour in a rectangle");
  std::vector<std::string> colour_args;  // IMG X0 Y0 X1 Y1
  std::vector<int> rgb;
  long min_pixels = 0;
  colour_cmd->add_option("args", colour_args)->expected(5)->required();
  colour_cmd->add_option("--rgb", rgb)->expected(3)->required();
  colour_cmd->add_option("--min-pixels", min_pixels)->required();
  CLI::App* difference_cmd = app.add_subcommand("difference", "a difference view of a correct variant");
  difference_cmd->add_option("files", files)->expected(1)->required();
  difference_cmd->add_option("--min-black", min_black)->required();
  CLI11_PARSE(app, argc, argv);
  try {
    if (*inside_cmd) {
      files.assign(inside_args.begin(), inside_args.begin() + 2);
      for (size_t i = 2; i < 6; ++i) rect.push_back(std::stoi(inside_args[i]));
    }
    if (*colour_cmd) {
      files.assign(colour_args.begin(), colour_args.begin() + 1);
      for (size_t i = 1; i < 5; ++i) rect.push_back(std::stoi(colour_args[i]));
    }
    std::vector<Image> images;
    for (const std::string& f : files) images.push_back(blurlab::load_image(f).image);
    if (*frame_cmd) return frame(images[0], images[1], images[2]);
    if (*same_cmd)
      return same(images[0], images[1], max_lsb, max_mean,
                  rect.empty() ? std::nullopt : std::optional<Region>(Region{rect[0], rect[1], rect[2], rect[3]}));
    if (*differ_cmd) return differ(images[0], images[1], min_mean);
    if (*inside_cmd) return inside(images[0], images[1], {rect[0], rect[1], rect[2], rect[3]});
    if (*colour_cmd) return colour(images[0], {rect[0], rect[1], rect[2], rect[3]}, rgb, min_pixels);
    return difference(images[0], min_black);
  } catch (const blurlab::Error& e) {
    std::fprintf(stderr, "blurlab-screenshot-check: %s\n", e.what());
    return 2;
  }
}
