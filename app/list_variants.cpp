#include "list_variants.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "blur/registry.h"
#include "util/files.h"

namespace blurlab::app {

namespace {

// An exact variant's tolerance in LSB of rgba8 ("exact": 0), or "model" for an approximation,
// whose tolerance is against the CPU model of its algorithm and depends on the settings
// (blurlab-golden --tolerance prints it).
nlohmann::ordered_json listed_tolerance(const VariantInfo& v) {
  if (is_approximation(v)) return "model";
  if (v.tolerance_lsb == 0) return "exact";
  return v.tolerance_lsb;
}

std::string listed_tolerance_text(const VariantInfo& v) {
  const nlohmann::ordered_json t = listed_tolerance(v);
  return t.is_string() ? t.get<std::string>() : std::to_string(t.get<int>()) + " LSB";
}

nlohmann::ordered_json listed_variant_json(const VariantInfo& v) {
  nlohmann::ordered_json knobs = nlohmann::ordered_json::array();
  for (const Knob& k : v.knobs) {
    nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
    for (const KnobValue& value : k.candidates) candidates.push_back(k.text(value));
    knobs.push_back({{"name", k.name}, {"form", k.form()}, {"candidates", candidates}});
  }
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  if (v.kernels != KernelSupport::GaussOnly) kernels.push_back("box");
  if (v.kernels != KernelSupport::BoxOnly) kernels.push_back("gauss");
  return {{"name", v.name},       {"family", name(v.family)}, {"stage", name(v.stage)},
          {"role", name(v.role)}, {"tolerance", listed_tolerance(v)}, {"kernels", kernels},
          {"summary", v.summary}, {"knobs", knobs}};
}

}  // namespace

void write_listing_json(const nlohmann::ordered_json& document, const std::string& json_file) {
  const std::string text = document.dump(2) + "\n";
  if (json_file == "-")
    std::cout << text;
  else
    write_file_atomically(json_file, text, "--json");
}

void list_variants(const std::string& json_file) {
  if (!json_file.empty()) {
    nlohmann::ordered_json family_list = nlohmann::ordered_json::array(), listed = nlohmann::ordered_json::array();
    for (const FamilyInfo& f : families()) family_list.push_back({{"name", f.name}, {"description", f.description}});
    for (const VariantInfo* v : variants()) listed.push_back(listed_variant_json(*v));  // the registry's order: the window's keys
    write_listing_json({{"format", "blurlab-variants"}, {"version", 1}, {"families", family_list}, {"variants", listed}}, json_file);
    return;
  }
  for (const FamilyInfo& f : families()) {
    std::printf("%.*s: %.*s\n", static_cast<int>(f.name.size()), f.name.data(), static_cast<int>(f.description.size()), f.description.data());
    for (const VariantInfo* v : variants()) {
      if (v->family != f.family) continue;
      std::printf("  %-28s %-9s %-6s %-9s %.*s\n", std::string(v->name).c_str(), std::string(name(v->stage)).c_str(),
                  listed_tolerance_text(*v).c_str(), std::string(name(v->kernels)).c_str(), static_cast<int>(v->summary.size()),
                  v->summary.data());
    }
  }
}

}  // namespace blurlab::app
