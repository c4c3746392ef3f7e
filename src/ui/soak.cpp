#include "ui/soak.h"

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
    static constexpr Key kKeys[] = {Key::Right, Key::Left, Key::Digit1, Key::Digit2, Key::Digit4, Key::Digit7, Key::Plus,
                                    Key::Minus, Key::G,    Key::F,      Key::L,      Key::D,      Key::B,      Key::Space,
                                    Key::C,     Key::Tab,  Key::Help,   Key::V};
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

}  // namespace blurlab::ui
