#include "ui/soak.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "util/error.h"
#include "util/strings.h"

namespace blurlab::ui {

uint32_t SoakDriver::next(uint32_t bound) {
  state_ ^= state_ >> 12;
  state_ ^= state_ << 25;
  state_ ^= state_ >> 27;
  return static_cast<uint32_t>(((state_ * 0x2545F4914F6CDD1DULL) >> 32) % bound);
}

std::vector<ScriptStep> SoakDriver::steps(uint64_t frame, int radius) {
  std::vector<ScriptStep> out;
  auto key = [&](Key k) { out.push_back(ScriptStep{frame, k, std::nullopt}); };
  auto resize = [&](glm::ivec2 size) { out.push_back(ScriptStep{frame, std::nullopt, size}); };
  if (restore_at_ != 0 && frame >= restore_at_) {
    restore_at_ = 0;
    resize({320 + static_cast<int>(next(kMaxSize.x - 320)), 200 + static_cast<int>(next(kMaxSize.y - 200))});
  }
  if (frame % 3 == 0) {
    static constexpr Key kKeys[] = {Key::Right, Key::Left, Key::Digit1, Key::Digit2, Key::Digit4, Key::ShiftDigit3, Key::Plus,
                                    Key::Minus, Key::G,    Key::F,      Key::L,      Key::D,      Key::B,      Key::Space,
                                    Key::C,     Key::Tab,  Key::Help,   Key::V,      Key::M,      Key::X};
    const Key k = kKeys[next(sizeof kKeys / sizeof kKeys[0])];
    if (k == Key::Plus && radius >= kMaxRadius)
      key(Key::Minus);
    else
      key(k);
  }
  if (frame % 20 == 10 && restore_at_ == 0) {
    switch (next(6)) {
      case 0:  // minimized for a while
        resize({0, 0});
        restore_at_ = frame + 5 + next(10);
        break;
      case 1: resize({1, 1}); break;
      default: resize({1 + static_cast<int>(next(kMaxSize.x)), 1 + static_cast<int>(next(kMaxSize.y))}); break;
    }
  }
  return out;
}

size_t resident_bytes() {
  malloc_trim(0);
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long pages = 0, resident = 0;
  const int read = std::fscanf(f, "%lu %lu", &pages, &resident);
  std::fclose(f);
  return read == 2 ? resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

bool SoakMonitor::frame(double elapsed, size_t variant, const std::vector<ScriptStep>& steps) {
  if (elapsed >= seconds_) return false;
  if (elapsed >= seconds_ * 0.2 && settled_ == 0) settled_ = resident_bytes();
  if (elapsed >= seconds_ * 0.1 * static_cast<double>(curve_.size() + 1)) curve_.push_back(resident_bytes());
  resizes_ += static_cast<size_t>(std::count_if(steps.begin(), steps.end(), [](const ScriptStep& s) { return s.resize.has_value(); }));
  peak_ = std::max(peak_, resident_bytes());
  visited_.insert(variant);
  return true;
}

int SoakMonitor::verdict(const Totals& t) const {
  const size_t end = resident_bytes();
  const double mib = 1.0 / (1 << 20);
  std::printf("soak: %.0f s, %llu frames, %zu variants visited, %zu resizes, %zu programs compiled (%zu cached)\n", seconds_,
              static_cast<unsigned long long>(t.frames), visited_.size(), resizes_, t.programs_compiled, t.programs_cached);
  std::printf("soak: timer queries %zu (bound %zu), resident memory %.1f MiB settled, %.1f MiB peak, %.1f MiB at the end "
              "(growth bound %.0f MiB)\n",
              t.timer_queries, kMaxQueries, settled_ * mib, peak_ * mib, end * mib, kMaxGrowth * mib);
  std::string curve;
  for (size_t rss : curve_) curve += " " + std::to_string(static_cast<int>(rss * mib));
  std::printf("soak: resident memory every tenth of the run (MiB):%s\n", curve.c_str());
  if (t.timer_queries > kMaxQueries) {
    print_error("soak: the timer-query pool grew to " + std::to_string(t.timer_queries) + " queries");
    return 1;
  }
  if (settled_ > 0 && end > settled_ + kMaxGrowth) {
    print_error("soak: memory grew by " + format_double((end - settled_) * mib, 4) + " MiB after settling");
    return 1;
  }
  return 0;
}

}  // namespace blurlab::ui
