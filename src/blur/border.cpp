#include "blur/border.h"

#include <glm/gtc/packing.hpp>

#include "image/image.h"
#include "util/strings.h"

namespace blurlab {

namespace {

struct ModeName {
  BorderMode mode;
  std::string_view name, define;
};
constexpr ModeName kNames[] = {
    {BorderMode::Clamp, "clamp", "BORDER_CLAMP"},
    {BorderMode::Reflect, "reflect", "BORDER_REFLECT"},
    {BorderMode::Reflect101, "reflect101", "BORDER_REFLECT101"},
    {BorderMode::Wrap, "wrap", "BORDER_WRAP"},
    {BorderMode::Constant, "constant", "BORDER_CONSTANT"},
};

const ModeName& entry(BorderMode mode) {
  for (const ModeName& n : kNames)
    if (n.mode == mode) return n;
  return kNames[0];
}

// p modulo a positive period, in [0, period).
long long floor_mod(long long p, long long period) {
  const long long m = p % period;
  return m < 0 ? m + period : m;
}

}  // namespace

std::string_view name(BorderMode mode) { return entry(mode).name; }
std::string_view define_name(BorderMode mode) { return entry(mode).define; }

std::optional<BorderMode> parse_border_mode(std::string_view text) {
  for (const ModeName& n : kNames)
    if (text == n.name) return n.mode;
  return std::nullopt;
}

int border_index(BorderMode mode, long long p, int n) {
  if (p >= 0 && p < n) return static_cast<int>(p);
  switch (mode) {
    case BorderMode::Clamp:
    case BorderMode::Constant:  // no texel: callers read the value instead
      return p < 0 ? 0 : n - 1;
    case BorderMode::Wrap:
      return static_cast<int>(floor_mod(p, n));
    case BorderMode::Reflect: {
      const long long m = floor_mod(p, 2LL * n);  // one period: abc cba
      return static_cast<int>(m < n ? m : 2LL * n - 1 - m);
    }
    case BorderMode::Reflect101: {
      if (n == 1) return 0;
      const long long m = floor_mod(p, 2LL * n - 2);  // one period: abc b
      return static_cast<int>(m < n ? m : 2LL * n - 2 - m);
    }
  }
  return 0;
}

Rgba texel_value(const Rgba& value, gl::Format format) {
  Rgba held = value;
  for (float& v : held) {
    switch (format) {
      case gl::Format::rgba8:
        if (v >= 0.0f && v <= 1.0f) v = static_cast<float>(to_unorm8(v) / 255.0);
        break;
      case gl::Format::rgba16f:
        v = glm::unpackHalf1x16(glm::packHalf1x16(v));
        break;
      case gl::Format::rgba32f:
      case gl::Format::depth32f:
        break;
    }
  }
  return held;
}

std::optional<Rgba> parse_border_value(std::string_view text, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<Rgba> {
    if (why) *why = reason;
    return std::nullopt;
  };
  const std::vector<std::string> parts = split(text, ',');
  if (parts.size() != 4) return fail("is not R,G,B,A (four numbers)");
  Rgba value{};
  for (size_t i = 0; i < 4; ++i) {
    bool beyond = false;
    const auto v = parse_double(trim(parts[i]), &beyond);
    if (!v && !beyond) return fail("has '" + parts[i] + "', not a number");
    if (!v || !(*v >= 0.0 && *v <= kMaxBorderValue))
      return fail("has " + parts[i] + ", outside 0.." + format_double(kMaxBorderValue));
    value[i] = static_cast<float>(*v);
  }
  return value;
}

std::string value_text(const Rgba& value) {
  std::string text;
  for (float v : value) text += (text.empty() ? "" : ",") + format_double(v, 6);
  return text;
}

std::string describe(const Border& border) {
  if (border.mode != BorderMode::Constant) return std::string(name(border.mode));
  return "constant(" + value_text(border.value) + ")";
}

}  // namespace blurlab
