#include "report/tuning.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "blur/registry.h"
#include "util/error.h"
#include "util/files.h"

namespace blurlab::report {

namespace {

using nlohmann::json;

// A tuning file holds a few hundred entries of a few hundred bytes; anything far larger is not one.
constexpr size_t kMaxFileBytes = 16u << 20;

json to_json(const TunedEntry& e) {
  const VariantInfo* v = find_variant(e.variant);
  json knobs = json::object();
  for (const auto& [name, value] : e.knobs) knobs[name] = v && find_knob(*v, name) ? find_knob(*v, name)->text(value) : "?";
  return {{"renderer", e.renderer},  {"variant", e.variant},       {"width", e.size.x},     {"height", e.size.y},
          {"input_format", gl::name(e.input_format)}, {"kernel", name(e.kernel)}, {"radius", e.radius},
          {"knobs", knobs},          {"median_ms", e.median_ms},   {"default_ms", e.default_ms}};
}

// Reads one entry; throws a message (without the file's name) on the first value the command
// line would refuse.
TunedEntry from_json(const json& j) {
  auto field = [&](const char* key) -> const json& {
    if (!j.is_object() || !j.contains(key)) throw std::runtime_error(std::string("no \"") + key + "\"");
    return j.at(key);
  };
  auto text = [&](const char* key) {
    const json& v = field(key);
    if (!v.is_string()) throw std::runtime_error(std::string("\"") + key + "\" is not a string");
    return v.get<std::string>();
  };
  auto integer = [&](const char* key, long long min, long long max) {
    const json& v = field(key);
    if (!v.is_number_integer()) throw std::runtime_error(std::string("\"") + key + "\" is not a whole number");
    const long long n = v.get<long long>();
    if (n < min || n > max)
      throw std::runtime_error(std::string("\"") + key + "\" " + std::to_string(n) + " is out of range " + std::to_string(min) + ".." +
                               std::to_string(max));
    return static_cast<int>(n);
  };
  auto milliseconds = [&](const char* key) {
    const json& v = field(key);
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0.0)
      throw std::runtime_error(std::string("\"") + key + "\" is not a time in ms");
    return v.get<double>();
  };

  TunedEntry e;
  e.renderer = text("renderer");
  e.variant = text("variant");
  const VariantInfo* variant = find_variant(e.variant);
  if (!variant) throw std::runtime_error("unknown variant '" + e.variant + "'");
  // As --size: 1..65536 per side (the device's texture limit is checked when it runs).
  e.size = {integer("width", 1, 65536), integer("height", 1, 65536)};
  const std::string format = text("input_format");
  const auto f = gl::parse_format(format);
  if (!f || *f == gl::Format::rgba32f) throw std::runtime_error("input_format '" + format + "' is not one of rgba8, rgba16f");
  e.input_format = *f;
  const std::string kernel = text("kernel");
  const auto k = parse_kernel_type(kernel);
  if (!k) throw std::runtime_error("kernel '" + kernel + "' is not box or gauss");
  e.kernel = *k;
  e.radius = integer("radius", 0, kMaxRadius);
  const json& knobs = field("knobs");
  if (!knobs.is_object()) throw std::runtime_error("\"knobs\" is not an object");
  for (const auto& [name, value] : knobs.items()) {
    const Knob* knob = find_knob(*variant, name);
    if (!knob) throw std::runtime_error(e.variant + " has no knob '" + name + "'");
    if (!value.is_string()) throw std::runtime_error("knob '" + name + "' is not a string");
    std::string why;
    const auto v = knob->parse(value.get<std::string>(), &why);
    if (!v) throw std::runtime_error("knob " + name + " '" + value.get<std::string>() + "' " + why);
    e.knobs[name] = *v;
  }
  e.median_ms = milliseconds("median_ms");
  e.default_ms = milliseconds("default_ms");
  return e;
}

}  // namespace

TuningTable TuningTable::parse(std::string_view text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw Error("'" + origin + "' is not a blurlab tuning file (" + std::string(e.what()).substr(0, 120) + ")");
  }
  if (!doc.is_object() || !doc.contains("entries") || !doc.at("entries").is_array())
    throw Error("'" + origin + "' is not a blurlab tuning file (no \"entries\" list)");
  TuningTable table;
  size_t index = 0;
  for (const json& entry : doc.at("entries")) {
    try {
      table.entries_.push_back(from_json(entry));
    } catch (const std::exception& e) {
      throw Error("tuning file '" + origin + "', entry " + std::to_string(index) + ": " + e.what());
    }
    ++index;
  }
  return table;
}

TuningTable TuningTable::load(const std::filesystem::path& path) {
  return parse(read_regular_file(path, kMaxFileBytes, "the tuning file"), path.string());
}

void TuningTable::save(const std::filesystem::path& path) const {
  json doc;
  doc["tool"] = "blurlab --tune";
  doc["entries"] = json::array();
  for (const TunedEntry& e : entries_) doc["entries"].push_back(to_json(e));
  write_file_atomically(path, doc.dump(1) + "\n");
}

void TuningTable::put(const TunedEntry& entry) {
  for (TunedEntry& e : entries_)
    if (e.renderer == entry.renderer && e.variant == entry.variant && e.size == entry.size &&
        e.input_format == entry.input_format && e.kernel == entry.kernel && e.radius == entry.radius) {
      e = entry;
      return;
    }
  entries_.push_back(entry);
}

std::optional<TunedEntry> TuningTable::find(const std::string& renderer, const std::string& variant, glm::ivec2 size,
                                            gl::Format input_format, KernelType kernel, int radius) const {
  std::optional<TunedEntry> best;
  for (const TunedEntry& e : entries_) {
    if (e.renderer != renderer || e.variant != variant || e.size != size || e.input_format != input_format || e.kernel != kernel)
      continue;
    if (!best || std::abs(e.radius - radius) < std::abs(best->radius - radius)) best = e;
  }
  return best;
}

BlurSettings with_tuned_knobs(BlurSettings s, const TunedEntry& e) {
  for (const auto& [name, value] : e.knobs) s.knobs[name] = value;
  return s;
}

}  // namespace blurlab::report
