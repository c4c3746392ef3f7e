#include "image/test_chart.h"

#include <cmath>

namespace blurlab {

namespace {

void put(Image& im, int x, int y, int r, int g, int b, int a) {
  im.at(x, y, 0) = r / 255.0f;
  im.at(x, y, 1) = g / 255.0f;
  im.at(x, y, 2) = b / 255.0f;
  im.at(x, y, 3) = a / 255.0f;
}

}  // namespace

uint32_t chart_hash(uint32_t x) {  // lowbias32
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}

Image test_chart() {
  Image im(kTestChartWidth, kTestChartHeight);
  for (int y = 0; y < kTestChartHeight; ++y)
    for (int x = 0; x < kTestChartWidth; ++x) {
      int r = 40, g = 40, b = 48, a = 255;
      if (y < 24) {  // grey ramp, then R, G, B ramps
        const int v = x * 255 / (kTestChartWidth - 1);
        const int band = y / 6;
        r = band == 0 || band == 1 ? v : 0;
        g = band == 0 || band == 2 ? v : 0;
        b = band == 0 || band == 3 ? v : 0;
      } else if (y < 48) {  // alpha ramp over white
        r = g = b = 255;
        a = x * 255 / (kTestChartWidth - 1);
      } else if (y < 120 && x < 160) {  // checkers of period 1, 2, 4, 8 texels
        const int period = 1 << (x / 40);
        const bool on = ((x / period) + (y / period)) % 2 == 0;
        r = g = b = on ? 255 : 0;
      } else if (y < 120) {  // vertical and horizontal 1-texel lines, 6 apart
        const bool line = (x % 6 == 0 && y < 84) || (y % 6 == 0 && y >= 84);
        r = line ? 255 : 10;
        g = line ? 220 : 10;
        b = line ? 40 : 10;
      } else if (y < 184 && x < 160) {  // Siemens star: 24 hard-edged spokes
        const double angle = std::atan2(y - 152.0, x - 80.0);
        const bool on = static_cast<int>(std::floor((angle + M_PI) / (2 * M_PI) * 24)) % 2 == 0;
        r = on ? 250 : 5;
        g = on ? 60 : 5;
        b = on ? 200 : 90;
      } else if (y < 184) {  // colour patches with hard edges, alpha varies by patch
        const int patch = (x - 160) / 32 + ((y - 120) / 32) * 5;
        r = (patch * 97) % 256;
        g = (patch * 57 + 80) % 256;
        b = (patch * 193 + 30) % 256;
        a = 255 - (patch % 4) * 60;
      } else {  // seeded noise, every channel independent
        const uint32_t h = chart_hash(static_cast<uint32_t>(y * kTestChartWidth + x));
        r = h & 0xff;
        g = (h >> 8) & 0xff;
        b = (h >> 16) & 0xff;
        a = 128 + ((h >> 24) & 0x7f);
      }
      put(im, x, y, r, g, b, a);
    }
  return im;
}

}  // namespace blurlab
