#include "report/tuning.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "util/error.h"
#include "util/files.h"

namespace blurlab::report {

namespace {

using nlohmann::json;

json to_json(const TunedEntry& e) {
  return {{"renderer", e.renderer},       {"variant", e.variant},       {"width", e.size.x},
          {"height", e.size.y},           {"input_format", gl::name(e.input_format)},
          {"kernel", name(e.kernel)},     {"radius", e.radius},         {"workgroup", {e.workgroup.x, e.workgroup.y}},
          {"unroll", e.unroll},           {"segment", e.segment},       {"cache_bits", e.cache_bits},
          {"median_ms", e.median_ms},     {"default_ms", e.default_ms}};
}

TunedEntry from_json(const json& j) {
  TunedEntry e;
  e.renderer = j.at("renderer").get<std::string>();
  e.variant = j.at("variant").get<std::string>();
  e.size = {j.at("width").get<int>(), j.at("height").get<int>()};
  const auto format = gl::parse_format(j.at("input_format").get<std::string>());
  const auto kernel = parse_kernel_type(j.at("kernel").get<std::string>());
  if (!format || !kernel) throw Error("bad format or kernel");
  e.input_format = *format;
  e.kernel = *kernel;
  e.radius = j.at("radius").get<int>();
  e.workgroup = {j.at("workgroup").at(0).get<int>(), j.at("workgroup").at(1).get<int>()};
  e.unroll = j.at("unroll").get<int>();
  e.segment = j.at("segment").get<int>();
  e.cache_bits = j.at("cache_bits").get<int>();
  e.median_ms = j.at("median_ms").get<double>();
  e.default_ms = j.at("default_ms").get<double>();
  return e;
}

}  // namespace

TuningTable TuningTable::load(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read the tuning file '" + path.string() + "'");
  TuningTable table;
  try {
    const json doc = json::parse(in);
    for (const json& entry : doc.at("entries")) table.entries_.push_back(from_json(entry));
  } catch (const std::exception& e) {
    throw Error("'" + path.string() + "' is not a blurlab tuning file (" + std::string(e.what()).substr(0, 120) + ")");
  }
  return table;
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

BlurSettings with_tuned_knobs(const VariantInfo& variant, BlurSettings s, const TunedEntry& e) {
  if (!variant.workgroups.empty()) s.workgroup = e.workgroup;
  if (!variant.unrolls.empty()) s.unroll = e.unroll;
  if (!variant.segments.empty()) s.segment = e.segment;
  if (!variant.cache_bits.empty()) s.cache_bits = e.cache_bits;
  return s;
}

}  // namespace blurlab::report
