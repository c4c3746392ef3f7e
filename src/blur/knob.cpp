#include "blur/knob.h"

#include <algorithm>

#include "util/strings.h"

namespace blurlab {

Knob with_defaults_by_radius(Knob knob, std::vector<std::pair<int, KnobValue>> defaults) {
  knob.default_by_radius = std::move(defaults);
  return knob;
}

KnobValue Knob::default_value(int radius, std::optional<glm::ivec2> size) const {
  KnobValue value = candidates.front();
  for (const auto& [from_radius, v] : default_by_radius)
    if (radius >= from_radius) value = v;
  if (size)
    for (const auto& [from_side, v] : default_by_side)
      if (std::max(size->x, size->y) >= from_side) value = v;
  return value;
}

std::string Knob::text(KnobValue v) const {
  switch (type) {
    case KnobType::Integer: return std::to_string(v.x);
    case KnobType::Size: return std::to_string(v.x) + "x" + std::to_string(v.y);
    case KnobType::Choice:
      for (const KnobChoice& c : choices)
        if (c.value == v.x) return std::string(c.label);
      return "?" + std::to_string(v.x);
  }
  return "?";
}

std::string Knob::form() const {
  switch (type) {
    case KnobType::Integer: return "N";
    case KnobType::Size: return "WxH";
    case KnobType::Choice: {
      std::string form;
      for (const KnobChoice& c : choices) form += (form.empty() ? "" : "|") + std::string(c.label);
      return form;
    }
  }
  return "?";
}

std::optional<std::string> Knob::invalid(KnobValue v) const {
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  switch (type) {
    case KnobType::Integer:
      if (v.x < min || v.x > max) return "is out of range " + range;
      if (v.y != 0) return "is not a single number";
      return std::nullopt;
    case KnobType::Size:
      if (v.x < min || v.x > max || v.y < min || v.y > max) return "is out of range " + range + " on a side";
      return std::nullopt;
    case KnobType::Choice:
      for (const KnobChoice& c : choices)
        if (c.value == v.x && v.y == 0) return std::nullopt;
      return "is not " + form();
  }
  return "is not a value";
}

std::optional<KnobValue> Knob::parse(std::string_view item, std::string* why) const {
  auto fail = [&](std::string reason) -> std::optional<KnobValue> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  const std::string_view t = trim(item);
  KnobValue v;
  switch (type) {
    case KnobType::Integer: {
      bool beyond = false;
      const auto n = parse_int(t, &beyond);
      if (!n && !beyond) return fail("is not a whole number");
      if (!n || *n < min || *n > max) return fail("is out of range " + std::to_string(min) + ".." + std::to_string(max));
      v.x = static_cast<int>(*n);
      break;
    }
    case KnobType::Size: {
      // "N" alone is a row of N (workgroups of Nx1).
      bool beyond = false;
      if (const auto n = parse_int(t, &beyond); n || beyond) {
        if (!n || *n < min || *n > max) return fail("is out of range " + std::to_string(min) + ".." + std::to_string(max));
        v = {static_cast<int>(*n), 1};
        break;
      }
      const auto wh = parse_size(t, &beyond);
      if (!wh) {
        // Name the actual mistake where the form is right but a side is not positive.
        const auto parts = split(t, 'x');
        if (parts.size() == 2)
          for (const auto& p : parts)
            if (const auto side = parse_int(p); side && *side <= 0) return fail("must have positive sides");
        if (beyond) return fail("is larger than " + std::to_string(max) + " on a side");
        return fail("is not WxH or N");
      }
      if (wh->first > max || wh->second > max) return fail("is larger than " + std::to_string(max) + " on a side");
      if (wh->first < min || wh->second < min) return fail("is smaller than " + std::to_string(min) + " on a side");
      v = {wh->first, wh->second};
      break;
    }
    case KnobType::Choice:
      for (const KnobChoice& c : choices)
        if (t == c.label) return KnobValue{c.value, 0};
      return fail("is not " + form());
  }
  return v;
}

std::vector<std::pair<std::string, std::string>> Knob::defines(KnobValue v) const {
  if (define.empty()) return {};
  const std::string d(define);
  if (type == KnobType::Size) return {{d + "_X", std::to_string(v.x)}, {d + "_Y", std::to_string(v.y)}};
  return {{d, std::to_string(v.x)}};
}

bool Knob::same_definition(const Knob& o) const {
  if (name != o.name || help != o.help || define != o.define || type != o.type || min != o.min || max != o.max ||
      choices.size() != o.choices.size())
    return false;
  for (size_t i = 0; i < choices.size(); ++i)
    if (choices[i].label != o.choices[i].label || choices[i].value != o.choices[i].value) return false;
  return true;
}

std::vector<KnobValue> integer_values(const std::vector<int>& values) {
  std::vector<KnobValue> list;
  for (int v : values) list.push_back({v, 0});
  return list;
}

namespace knobs {

Knob workgroup(std::vector<glm::ivec2> candidates) {
  std::vector<KnobValue> sizes;
  for (glm::ivec2 c : candidates) sizes.push_back(knob_size(c));
  return {.name = kWorkgroup,
          .help = "Compute workgroup size in invocations (WxH, or N for Nx1)",
          .define = "WG",
          .type = KnobType::Size,
          .min = 1,
          .max = 1024,
          .candidates = sizes};
}

Knob segment(std::vector<int> candidates) {
  return {.name = kSegment,
          .help = "Walk length: texels (rows) one invocation (workgroup) covers along a line before a fresh warm-up",
          .define = "SEGMENT",
          .min = 1,
          .max = 16384,
          .candidates = integer_values(candidates)};
}

Knob lines(std::vector<int> candidates) {
  return {.name = kLines,
          .help = "Lines a workgroup takes side by side: rows of a transposing pass's tile (neighbouring invocations take "
                  "neighbouring rows), or an FFT pass's line segments (shared memory grows with them)",
          .define = "LINES",
          .min = 1,
          .max = 64,
          .candidates = integer_values(candidates)};
}

Knob weights(std::vector<int> candidates) {
  return {.name = "weights",
          .help = "Weights from the uniform block, or baked into the shader as constants (a program per kernel)",
          .define = "WEIGHTS_CONST",
          .type = KnobType::Choice,
          .choices = {{"uniform", 0}, {"constant", 1}},
          .candidates = integer_values(candidates)};
}

}  // namespace knobs

}  // namespace blurlab
