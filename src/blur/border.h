#pragma once
// Border modes: what a blur reads where a tap falls outside the image. The image is extended by
// the mode, then convolved (OpenCV's definition), so the result is defined for every mode and
// every radius, radii larger than the image included. Along one axis of the image "abc":
//   clamp       aaa|abc|ccc   OpenCV BORDER_REPLICATE    GL CLAMP_TO_EDGE
//   reflect     cba|abc|cba   OpenCV BORDER_REFLECT      GL MIRRORED_REPEAT
//   reflect101  cb|abc|ba      OpenCV BORDER_REFLECT_101  (OpenCV's default; no GL wrap mode)
//   wrap        abc|abc|abc   OpenCV BORDER_WRAP         GL REPEAT
//   constant    000|abc|000   OpenCV BORDER_CONSTANT     GL CLAMP_TO_BORDER (with its value)
// Past the far edge the index reflects again, as OpenCV's borderInterpolate does, so every index
// mode is periodic: 2n for reflect, 2n - 2 for reflect101 (n > 1; a 1-texel axis is that texel),
// n for wrap. In 2D the index modes map x and y independently, and constant gives the value where
// either lies outside. The mode changes what is blurred, like the kernel: it is a setting
// (BlurSettings::border), each shader is compiled for one mode (BORDER, glsl/blur_common.glsl).
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "gl/format.h"

namespace blurlab {

enum class BorderMode { Clamp, Reflect, Reflect101, Wrap, Constant };
inline constexpr std::array kBorderModes{BorderMode::Clamp, BorderMode::Reflect, BorderMode::Reflect101,
                                         BorderMode::Wrap, BorderMode::Constant};
std::string_view name(BorderMode mode);  // "clamp", "reflect", "reflect101", "wrap", "constant"
std::optional<BorderMode> parse_border_mode(std::string_view text);
// The shader's name of the mode: the value of the BORDER define ("BORDER_WRAP").
std::string_view define_name(BorderMode mode);

using Rgba = std::array<float, 4>;

struct Border {
  BorderMode mode = BorderMode::Clamp;
  // Constant mode: the RGBA value outside the image, transparent black unless given. resolve()
  // rounds it to what a texel of the input format holds (and zeroes it for the other modes).
  Rgba value{};

  bool operator==(const Border&) const = default;
};

// The largest constant component the command line takes: the largest finite rgba16f value.
inline constexpr float kMaxBorderValue = 65504.0f;

// The texel index that index p reads along an axis of n > 0 texels, for the index modes (every
// mode but Constant, which reads no texel outside). Any p, repeated reflections included.
int border_index(BorderMode mode, long long p, int n);

// The constant as a texel of `format` holds it: rgba8 rounds each component to the nearest k/255
// (components outside [0, 1] are left as they are, so unsupported_reason() can refuse them with
// the number), rgba16f to the nearest half-float, rgba32f keeps the float.
Rgba texel_value(const Rgba& value, gl::Format format);

// "R,G,B,A": four numbers in [0, kMaxBorderValue]. nullopt, with the reason in `why`, otherwise.
std::optional<Rgba> parse_border_value(std::string_view text, std::string* why = nullptr);
// "0.5,0,0,1": the value as --border-value takes it.
std::string value_text(const Rgba& value);
// "wrap", or "constant(0.5,0,0,1)" with the value.
std::string describe(const Border& border);

}  // namespace blurlab
