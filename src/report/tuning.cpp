#include "report/tuning.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "blur/registry.h"
#include "util/error.h"
#include "util/files.h"
#include "util/json_text.h"

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

// Reads one entry; throws blurlab::Error (its message without the file's name: the caller adds
// it) on the first value the command line would refuse, quoting the value as the file has it.
TunedEntry from_json(const json& j) {
  auto field = [&](const char* key) -> const json& {
    if (!j.is_object() || !j.contains(key)) throw Error(std::string("no \"") + key + "\"");
    return j.at(key);
  };
  auto text = [&](const char* key) {
    const json& v = field(key);
    if (!v.is_string()) throw Error(std::string("\"") + key + "\" " + json_value_text(v) + " is not a string");
    return v.get<std::string>();
  };
  auto integer = [&](const char* key, long long min, long long max) {
    const json& v = field(key);
    if (!v.is_number_integer()) throw Error(std::string("\"") + key + "\" " + json_value_text(v) + " is not a whole number");
    // 18446744073709551615 is unsigned in JSON: read as signed it would be -1.
    const bool in_range = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(max) && static_cast<long long>(v.get<uint64_t>()) >= min
                                                 : v.get<long long>() >= min && v.get<long long>() <= max;
    if (!in_range)
      throw Error(std::string("\"") + key + "\" " + json_value_text(v) + " is out of range " + std::to_string(min) + ".." + std::to_string(max));
    return static_cast<int>(v.get<long long>());
  };
  auto milliseconds = [&](const char* key) {
    const json& v = field(key);
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0.0)
      throw Error(std::string("\"") + key + "\" " + json_value_text(v) + " is not a time in ms");
    return v.get<double>();
  };

  TunedEntry e;
  e.renderer = text("renderer");
  e.variant = text("variant");
  const VariantInfo* variant = find_variant(e.variant);
  if (!variant) throw Error("unknown variant '" + e.variant + "'");
  // As --size: 1..65536 per side (the device's texture limit is checked when it runs).
  e.size = {integer("width", 1, 65536), integer("height", 1, 65536)};
  const std::string format = text("input_format");
  const auto f = gl::parse_format(format);
  if (!f || *f == gl::Format::rgba32f) throw Error("input_format '" + format + "' is not one of rgba8, rgba16f");
  e.input_format = *f;
  const std::string kernel = text("kernel");
  const auto k = parse_kernel_type(kernel);
  if (!k) throw Error("kernel '" + kernel + "' is not box or gauss");
  e.kernel = *k;
  e.radius = integer("radius", 0, kMaxRadius);
  const json& knobs = field("knobs");
  if (!knobs.is_object()) throw Error("\"knobs\" " + json_value_text(knobs) + " is not an object");
  for (const auto& [name, value] : knobs.items()) {
    const Knob* knob = find_knob(*variant, name);
    if (!knob) throw Error(e.variant + " has no knob '" + name + "'");
    if (!value.is_string()) throw Error("knob '" + name + "' " + json_value_text(value) + " is not a string");
    std::string why;
    const auto v = knob->parse(value.get<std::string>(), &why);
    if (!v) throw Error("knob " + name + " '" + value.get<std::string>() + "' " + why);
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
    throw Error(origin + " is not a blurlab tuning file (not JSON: " + json_error_text(e) + ")");
  }
  if (!doc.is_object() || !doc.contains("entries") || !doc.at("entries").is_array())
    throw Error(origin + " is not a blurlab tuning file (no \"entries\" list)");
  TuningTable table;
  size_t index = 0;
  for (const json& entry : doc.at("entries")) {
    try {
      table.entries_.push_back(from_json(entry));
    } catch (const Error& e) {  // one line already, NULs and all made visible: what() keeps all of it
      throw Error(origin + ", entry " + std::to_string(index) + ": " + e.what());
    }
    ++index;
  }
  return table;
}

TuningTable TuningTable::load(const std::filesystem::path& path, std::string_view option) {
  return parse(read_regular_file(path, kMaxFileBytes, option), std::string(option) + " '" + path.string() + "'");
}

void TuningTable::save(const std::filesystem::path& path, std::string_view option) const {
  json doc;
  doc["tool"] = "blurlab --tune";
  doc["entries"] = json::array();
  for (const TunedEntry& e : entries_) doc["entries"].push_back(to_json(e));
  write_file_atomically(path, doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n", option);  // a GL_RENDERER's invalid UTF-8 as U+FFFD
}

void TuningTable::check_target(const std::filesystem::path& path, std::string_view option) {
  if (const auto file = file_to_replace(path, option); file && std::filesystem::exists(*file)) load(*file, option);
}

void TuningTable::merge_into(const std::filesystem::path& path, std::string_view option) const {
  const auto file = file_to_replace(path, option);
  StagedOutputs own;  // this write is the run's commit of the file: in place before the lock goes
  if (!file) {  // a device (/dev/null, /dev/stdout): nothing to merge with
    save(path, option);
    own.commit();
    return;
  }
  // From the read to the rename: a run that saves at the same time waits, then merges with this.
  const DirectoryLock lock(file->has_parent_path() ? file->parent_path() : std::filesystem::path("."), option);
  TuningTable merged = std::filesystem::exists(*file) ? load(*file, option) : TuningTable();
  for (const TunedEntry& e : entries_) merged.put(e);
  merged.save(path, option);
  own.commit();
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
