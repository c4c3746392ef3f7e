#include "report/results_files.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "blur/registry.h"
#include "util/error.h"

namespace blurlab::report {

namespace {

using nlohmann::json;

// Rows written before roles were: the registry says what the variant is.
bool is_approximation_row(const json& row, const VariantInfo& variant) {
  const std::string role = row.value("role", "");
  return role.empty() ? is_approximation(variant) : role == "approximation";
}

std::optional<ResultsRow> results_row(const json& row) {
  const json& settings = row.at("settings");
  const VariantInfo* variant = find_variant(row.at("variant").get<std::string>());
  if (!variant || !is_blur(*variant) || !row.value("supported", false) || !settings.contains("kernel") || !row.contains("x_copy"))
    return std::nullopt;
  const json& total = row.at("spans").at("total");
  const auto type = parse_kernel_type(settings.at("kernel").get<std::string>());
  if (!type) return std::nullopt;
  ResultsRow r;
  r.variant = variant->name;
  r.size = {row.at("size").at("width").get<int>(), row.at("size").at("height").get<int>()};
  r.input_format = settings.value("input_format", "rgba8");
  r.linear = settings.value("linear", false);
  r.kernel = {*type, settings.at("radius").get<int>(), *type == KernelType::Gauss ? settings.at("sigma").get<double>() : 0.0};
  r.border = settings.value("border", "clamp");
  r.radius_map = variant->variable_radius ? settings.value("radius_map", "") : "";
  r.median_ms = total.at("median_ms").get<double>();
  r.spread_ms = total.value("spread_ms", 0.0);
  r.x_copy = row.at("x_copy").get<double>();
  r.check_ok = !row.contains("error") || row.at("error").value("ok", true);
  r.approximation = is_approximation_row(row, *variant);
  if (row.contains("fidelity") && row.at("fidelity").contains("psnr_db")) r.psnr_db = row.at("fidelity").at("psnr_db").get<double>();
  if (row.contains("made_by")) {
    r.commit = row.at("made_by").value("commit", "");
    r.code = row.at("made_by").value("code", "");
  }
  if (settings.contains("knobs"))
    for (const auto& [knob, value] : settings.at("knobs").items()) r.knobs.emplace_back(knob, value.get<std::string>());
  r.tuned = settings.value("tuned", false);
  return r;
}

}  // namespace

std::string_view code_digest(std::string_view variant) {
  for (const auto& [name, digest] : variant_code_digests())
    if (name == variant) return digest;
  return {};
}

std::optional<std::string> older_than_code(const ResultsRow& row) {
  const VariantInfo* variant = find_variant(row.variant);
  if (!variant) return "a variant the program no longer has";
  if (row.code.empty()) return "made before blurlab recorded the code that made a row";
  if (row.code != code_digest(row.variant))
    return "made by older code of " + row.variant + (row.commit.empty() ? "" : " (commit " + row.commit + ")");
  if (row.tuned) return "made with tuned knobs";
  std::string changed;
  for (const Knob& k : variant->knobs) {
    const std::string today = k.text(k.default_value(row.kernel.radius, row.size));
    const auto it = std::find_if(row.knobs.begin(), row.knobs.end(), [&](const auto& kv) { return kv.first == k.name; });
    const std::string ran = it == row.knobs.end() ? "none" : it->second;
    if (ran != today) changed += (changed.empty() ? "" : ", ") + std::string(k.name) + " " + ran + " (default " + today + ")";
  }
  if (!changed.empty()) return "made with knobs other than the defaults: " + changed;
  return std::nullopt;
}

ResultsFile parse_results_file(std::string name, std::string_view text) {
  ResultsFile file;
  file.name = std::move(name);
  try {
    const json doc = json::parse(text);
    file.renderer = doc.at("gl").at("renderer").get<std::string>();
    file.software = doc.at("gl").value("software", false);
    for (const json& row : doc.at("results"))
      if (auto r = results_row(row)) file.rows.push_back(std::move(*r));
  } catch (const json::exception& e) {
    throw Error("the results file " + file.name + " is not a blurlab results file (" + e.what() + ")");
  }
  return file;
}

const std::vector<ResultsFile>& embedded_results_files() {
  static const std::vector<ResultsFile> files = [] {
    std::vector<ResultsFile> parsed;
    for (const auto& [name, text] : embedded_results_texts()) parsed.push_back(parse_results_file(std::string(name), text));
    return parsed;
  }();
  return files;
}

}  // namespace blurlab::report
