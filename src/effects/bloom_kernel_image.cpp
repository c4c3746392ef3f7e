// bloom's kernel image (psf image:FILE[@P%]): the PNG read and checked, resampled to the frame's
// pixels and normalised (effects/bloom.h: PsfImage), and the ground truth's convolution with it,
// black outside the frame, in double precision by FFTs (and by its definition, for their check).
#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <map>
#include <mutex>
#include <numbers>

#include "blur/check.h"
#include "blur/model.h"
#include "effects/bloom.h"
#include "image/image_file.h"
#include "image/memory_budget.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::bloom {

namespace {

std::string channel_name(int c) { return c == 0 ? "R" : c == 1 ? "G" : "B"; }

KernelImage read_kernel_image(const std::string& path) {
  const std::string what = "cannot read --psf image '" + path + "': ";
  const auto check = [&](const ImageFileInfo& info) {
    if (info.format != ImageFormat::png || (info.channels != 1 && info.channels != 3) ||
        (info.bits_per_channel != 8 && info.bits_per_channel != 16))
      throw Error(what + "a kernel image is an 8- or 16-bit grey or RGB PNG without alpha (this one: " + describe(info) + ")");
    // By its header, before any of it is decoded: the file, the decoder's buffers, the decoded
    // float RGBA (16 bytes a pixel) and the values kept in double (24).
    const uint64_t per_pixel = 16 + 24 + static_cast<uint64_t>(std::max(info.decoder_bytes_per_texel, 0));
    const uint64_t bytes = kFixedRunBytes + info.file_bytes + static_cast<uint64_t>(info.width) * static_cast<uint64_t>(info.height) * per_pixel;
    const MemoryBound bound = memory_bound();
    if (bytes > bound.bytes)
      throw Error(what + std::to_string(info.width) + "x" + std::to_string(info.height) + " needs about " + format_bytes(bytes) + " to read (" +
                  std::to_string(per_pixel) + " bytes a pixel), more than the bound of " + format_bytes(bound.bytes) + " (" + bound.source + ")");
  };
  // Read and decode errors (no file, a FIFO or device, empty, truncated, not a PNG) name the file
  // and the option themselves, in one line.
  const LoadedImage loaded = load_image(path, check, "--psf image");
  KernelImage k;
  k.path = path;
  k.width = loaded.image.width;
  k.height = loaded.image.height;
  k.channels = loaded.info.channels;
  k.bits = loaded.info.bits_per_channel;
  const double max_value = k.bits == 16 ? 65535.0 : 255.0;
  k.rgb.resize(loaded.image.texel_count() * 3);
  double total[3] = {0.0, 0.0, 0.0};
  for (size_t i = 0; i < loaded.image.texel_count(); ++i)
    for (int c = 0; c < 3; ++c) {
      // The decoder's k / max as a float holds k exactly enough to round back to it.
      const double v = std::round(static_cast<double>(loaded.image.texels[i * 4 + static_cast<size_t>(c)]) * max_value) / max_value;
      k.rgb[i * 3 + static_cast<size_t>(c)] = v;
      total[c] += v;
    }
  for (int c = 0; c < 3; ++c)
    if (!(total[c] > 0.0))
      throw Error(what + "its " + (k.channels == 1 ? std::string("values are") : channel_name(c) + " values are") + " all 0 (" +
                  std::to_string(k.width) + "x" + std::to_string(k.height) + "): a PSF with no light cannot be normalised");
  return k;
}

// The overlap of source pixels with one target pixel along an axis: the target pixel covers
// [a, b) in source pixels; pixel k covers [k, k + 1).
struct Overlap {
  int first = 0;
  std::vector<double> weights;
};
Overlap overlap(double a, double b, int n) {
  Overlap o;
  const int first = std::max(0, static_cast<int>(std::floor(a))), last = std::min(n - 1, static_cast<int>(std::ceil(b)) - 1);
  o.first = first;
  for (int k = first; k <= last; ++k) o.weights.push_back(std::max(0.0, std::min(b, k + 1.0) - std::max(a, static_cast<double>(k))));
  return o;
}

void normalise(FrameKernel& k, const std::string& what) {
  for (int c = 0; c < 3; ++c) {
    double total = 0.0;
    for (size_t i = static_cast<size_t>(c); i < k.rgb.size(); i += 3) total += k.rgb[i];
    if (!(total > 0.0)) throw UsageError(what + ": channel " + channel_name(c) + " holds no light on the frame's pixels");
    for (size_t i = static_cast<size_t>(c); i < k.rgb.size(); i += 3) k.rgb[i] /= total;
  }
}

using Complex = std::complex<double>;

// In-place radix-2 FFT of n (a power of two) values `stride` apart: sign -1 forward, +1 inverse
// (unscaled).
void fft(Complex* data, int n, int stride, double sign, std::vector<Complex>& line) {
  line.resize(static_cast<size_t>(n));
  for (int i = 0, j = 0; i < n; ++i) {  // bit-reversed order
    line[static_cast<size_t>(j)] = data[static_cast<size_t>(i) * stride];
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
  }
  for (int len = 2; len <= n; len <<= 1) {
    const double angle = sign * 2.0 * std::numbers::pi / len;
    for (int k = 0; k < len / 2; ++k) {
      const Complex w = std::polar(1.0, angle * k);
      for (int i = k; i < n; i += len) {
        const Complex u = line[static_cast<size_t>(i)], v = w * line[static_cast<size_t>(i + len / 2)];
        line[static_cast<size_t>(i)] = u + v;
        line[static_cast<size_t>(i + len / 2)] = u - v;
      }
    }
  }
  for (int i = 0; i < n; ++i) data[static_cast<size_t>(i) * stride] = line[static_cast<size_t>(i)];
}

// The 2D transform of a w x h grid; rows whose values are all zero are skipped forward (`rows`
// lists those holding any), and only `keep_rows` rows are transformed back.
void fft_2d(std::vector<Complex>& grid, int w, int h, double sign, const std::vector<int>& rows) {
  std::vector<Complex> line;
  if (sign < 0) {
    for (int y : rows) fft(&grid[static_cast<size_t>(y) * w], w, 1, sign, line);
    for (int x = 0; x < w; ++x) fft(&grid[static_cast<size_t>(x)], h, w, sign, line);
  } else {
    for (int x = 0; x < w; ++x) fft(&grid[static_cast<size_t>(x)], h, w, sign, line);
    for (int y : rows) fft(&grid[static_cast<size_t>(y) * w], w, 1, sign, line);
  }
}

int grid_side(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

std::shared_ptr<const KernelImage> load_kernel_image(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const KernelImage>> read;
  const std::lock_guard lock(mutex);
  auto& kept = read[path];
  if (!kept) kept = std::make_shared<const KernelImage>(read_kernel_image(path));
  return kept;
}

std::vector<std::string> shipped_kernel_psfs(const std::string& assets) {
  std::vector<std::string> psfs;
  for (const auto& [file, scale] : {std::pair{"psf_star.png", "50%"}, std::pair{"psf_disk.png", "10%"}}) {
    const std::filesystem::path path = std::filesystem::path(assets) / file;
    std::error_code error;
    if (std::filesystem::is_regular_file(path, error)) psfs.push_back("image:" + path.string() + "@" + scale);
  }
  return psfs;
}

FrameKernel frame_kernel(const PsfImage& image, glm::ivec2 size) {
  const KernelImage& file = *image.file;
  // f: frame pixels per image pixel.
  const double f = image.percent ? *image.percent / 100.0 * std::max(size.x, size.y) / std::max(file.width, file.height) : 1.0;
  FrameKernel k;
  // The odd grid that covers the image's extent w f around its centre.
  k.rx = std::max(0, static_cast<int>(std::ceil((file.width * f - 1.0) / 2.0 - 1e-9)));
  k.ry = std::max(0, static_cast<int>(std::ceil((file.height * f - 1.0) / 2.0 - 1e-9)));
  k.rgb.assign(static_cast<size_t>(k.width()) * k.height() * 3, 0.0);
  // Target pixel i (centre i - r from the origin) covers the image's [w/2 + (i - r - 1/2) / f, ... + 1/f).
  const auto axis = [&](int r, int n) {
    std::vector<Overlap> o;
    for (int i = 0; i < 2 * r + 1; ++i) o.push_back(overlap(n / 2.0 + (i - r - 0.5) / f, n / 2.0 + (i - r + 0.5) / f, n));
    return o;
  };
  const std::vector<Overlap> xs = axis(k.rx, file.width), ys = axis(k.ry, file.height);
  for (int y = 0; y < k.height(); ++y)
    for (size_t a = 0; a < ys[static_cast<size_t>(y)].weights.size(); ++a) {
      const int sy = ys[static_cast<size_t>(y)].first + static_cast<int>(a);
      const double wy = ys[static_cast<size_t>(y)].weights[a];
      for (int x = 0; x < k.width(); ++x)
        for (size_t b = 0; b < xs[static_cast<size_t>(x)].weights.size(); ++b) {
          const int sx = xs[static_cast<size_t>(x)].first + static_cast<int>(b);
          const double w = wy * xs[static_cast<size_t>(x)].weights[b];
          for (int c = 0; c < 3; ++c)
            k.rgb[(static_cast<size_t>(y) * k.width() + x) * 3 + static_cast<size_t>(c)] +=
                w * file.rgb[(static_cast<size_t>(sy) * file.width + sx) * 3 + static_cast<size_t>(c)];
        }
    }
  normalise(k, "--psf image '" + single_line(file.path) + "' at " + size_text(size));
  return k;
}

FrameKernel gaussian_frame_kernel(const std::vector<PsfTerm>& terms) {
  std::vector<std::vector<double>> weights;
  int r = 0;
  for (const PsfTerm& t : terms) {
    weights.push_back(kernel_weights(fidelity_kernel(t.sigma)));
    r = std::max(r, static_cast<int>(weights.back().size() / 2));
  }
  FrameKernel k;
  k.rx = k.ry = r;
  k.rgb.assign(static_cast<size_t>(k.width()) * k.height() * 3, 0.0);
  for (size_t t = 0; t < terms.size(); ++t) {
    const std::vector<double>& w = weights[t];
    const int tr = static_cast<int>(w.size() / 2);
    for (int y = -tr; y <= tr; ++y)
      for (int x = -tr; x <= tr; ++x)
        for (int c = 0; c < 3; ++c)
          k.rgb[(static_cast<size_t>(y + r) * k.width() + static_cast<size_t>(x + r)) * 3 + static_cast<size_t>(c)] +=
              terms[t].weight * w[static_cast<size_t>(x + tr)] * w[static_cast<size_t>(y + tr)];
  }
  return k;
}

FrameKernel psf_kernel(const Config& c, glm::ivec2 size) { return c.image ? frame_kernel(*c.image, size) : gaussian_frame_kernel(c.psf); }

ReferenceImage convolve_black(const ReferenceImage& light, const FrameKernel& kernel) {
  const int w = light.width, h = light.height;
  // Black beyond the frame: the output at x reads x - rx .. x + rx, so rx zeros past the frame's
  // last column keep the circular convolution from wrapping onto it (and ry rows).
  const int nx = grid_side(w + kernel.rx), ny = grid_side(h + kernel.ry);
  const size_t points = static_cast<size_t>(nx) * ny;
  std::vector<int> frame_rows, kernel_rows;
  for (int y = 0; y < h; ++y) frame_rows.push_back(y);
  for (int y = -kernel.ry; y <= kernel.ry; ++y) kernel_rows.push_back((y + ny) % ny);
  std::sort(kernel_rows.begin(), kernel_rows.end());
  kernel_rows.erase(std::unique(kernel_rows.begin(), kernel_rows.end()), kernel_rows.end());
  ReferenceImage out = model::blank(w, h);
  std::vector<Complex> spectrum, signal;
  const bool grey = [&] {
    for (size_t i = 0; i < kernel.rgb.size(); i += 3)
      if (kernel.rgb[i] != kernel.rgb[i + 1] || kernel.rgb[i] != kernel.rgb[i + 2]) return false;
    return true;
  }();
  for (int c = 0; c < 3; ++c) {
    if (c == 0 || !grey) {  // the kernel's spectrum, placed circularly around the origin
      spectrum.assign(points, Complex{});
      for (int y = -kernel.ry; y <= kernel.ry; ++y)
        for (int x = -kernel.rx; x <= kernel.rx; ++x)
          spectrum[static_cast<size_t>((y + ny) % ny) * nx + static_cast<size_t>((x + nx) % nx)] = kernel.at(x + kernel.rx, y + kernel.ry, c);
      fft_2d(spectrum, nx, ny, -1.0, kernel_rows);
    }
    signal.assign(points, Complex{});
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) signal[static_cast<size_t>(y) * nx + static_cast<size_t>(x)] = light.at(x, y, c);
    fft_2d(signal, nx, ny, -1.0, frame_rows);
    for (size_t i = 0; i < points; ++i) signal[i] *= spectrum[i];
    fft_2d(signal, nx, ny, 1.0, frame_rows);
    const double scale = 1.0 / static_cast<double>(points);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        out.texels[(static_cast<size_t>(y) * w + x) * 4 + static_cast<size_t>(c)] = signal[static_cast<size_t>(y) * nx + static_cast<size_t>(x)].real() * scale;
  }
  for (size_t i = 3; i < out.texels.size(); i += 4) out.texels[i] = 1.0;
  return out;
}

ReferenceImage convolve_black_direct(const ReferenceImage& light, const FrameKernel& kernel) {
  const int w = light.width, h = light.height;
  ReferenceImage out = model::blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        double sum = 0.0;
        for (int v = -kernel.ry; v <= kernel.ry; ++v)
          for (int u = -kernel.rx; u <= kernel.rx; ++u) {
            const int sx = x - u, sy = y - v;
            if (sx >= 0 && sx < w && sy >= 0 && sy < h) sum += kernel.at(u + kernel.rx, v + kernel.ry, c) * light.at(sx, sy, c);
          }
        out.texels[(static_cast<size_t>(y) * w + x) * 4 + static_cast<size_t>(c)] = sum;
      }
  for (size_t i = 3; i < out.texels.size(); i += 4) out.texels[i] = 1.0;
  return out;
}

}  // namespace blurlab::bloom
