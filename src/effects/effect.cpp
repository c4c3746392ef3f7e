// The rules of effect.h that need no GL: parameters resolved, fidelity measured.
#include "effects/effect.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace blurlab {

bool EffectCheck::ok() const { return first_failure() == nullptr; }

const StageCheck* EffectCheck::first_failure() const {
  for (const StageCheck& s : stages)
    if (!s.result.ok) return &s;
  return nullptr;
}

GroundTruths::Truth GroundTruths::get(const std::string& key, const std::function<std::vector<ReferenceImage>()>& make) {
  auto it = truths_.find(key);
  if (it == truths_.end()) it = truths_.emplace(key, std::make_shared<const std::vector<ReferenceImage>>(make())).first;
  return it->second;
}

const EffectParameter* find_parameter(const EffectInfo& effect, std::string_view name) {
  for (const EffectParameter& p : effect.parameters)
    if (p.name == name) return &p;
  return nullptr;
}

EffectValues resolve_effect(const EffectInfo& effect, const EffectValues& given) {
  for (const auto& [name, value] : given)
    if (!find_parameter(effect, name))
      throw UsageError("--" + name + " is not a parameter of the " + std::string(effect.name) + " effect");
  EffectValues values;
  for (const EffectParameter& p : effect.parameters) {
    const auto it = given.find(p.name);
    values[std::string(p.name)] = it != given.end() ? it->second : std::string(p.default_value);
  }
  return values;
}

SceneCamera effect_camera(const EffectInfo& effect, const EffectValues& values, glm::ivec2 size) {
  return effect.camera ? effect.camera(values, size) : SceneCamera{};
}

namespace {

// Max, RMS and PSNR of the shipped frame against the truth in 8-bit steps of the rounded truth,
// over R, G and B of the pixels `mask` holds (nullptr: all of them); the count of pixels.
size_t lsb_errors(const Image& output, const ReferenceImage& truth, const std::vector<uint8_t>* mask, double& max_lsb, double& rms_lsb,
                  double& psnr_db) {
  if (output.width != truth.width || output.height != truth.height) throw Error("picture_fidelity: the images differ in size");
  if (mask && mask->size() != static_cast<size_t>(output.width) * output.height) throw Error("region_fidelity: the mask is not the frame's size");
  double sum = 0.0, largest = 0.0;
  size_t pixels = 0;
  for (int y = 0; y < output.height; ++y)
    for (int x = 0; x < output.width; ++x) {
      if (mask && !(*mask)[static_cast<size_t>(y) * output.width + x]) continue;
      ++pixels;
      for (int c = 0; c < 3; ++c) {
        const double shipped = std::round(static_cast<double>(output.at(x, y, c)) * 255.0);
        const double expected = to_unorm8(truth.at(x, y, c));
        const double d = std::abs(shipped - expected);
        largest = std::max(largest, d);
        sum += d * d;
      }
    }
  max_lsb = largest;
  rms_lsb = pixels ? std::sqrt(sum / static_cast<double>(3 * pixels)) : 0.0;
  psnr_db = rms_lsb > 0.0 ? 20.0 * std::log10(255.0 / rms_lsb) : INFINITY;
  return pixels;
}

}  // namespace

EffectFidelity picture_fidelity(const Image& output, const ReferenceImage& truth) {
  EffectFidelity f;
  lsb_errors(output, truth, nullptr, f.max_lsb, f.rms_lsb, f.psnr_db);
  return f;
}

void region_fidelity(const Image& output, const ReferenceImage& truth, const std::vector<uint8_t>& mask, std::string region,
                     EffectFidelity& f) {
  f.region = std::move(region);
  f.region_pixels = lsb_errors(output, truth, &mask, f.region_max_lsb, f.region_rms_lsb, f.region_psnr_db);
}

void layer_fidelity(const ReferenceImage& layer, const ReferenceImage& truth, EffectFidelity& f) {
  if (layer.width != truth.width || layer.height != truth.height) throw Error("layer_fidelity: the images differ in size");
  double max_difference = 0.0, max_truth = 0.0, sum_difference = 0.0, sum_truth = 0.0;
  for (int y = 0; y < truth.height; ++y)
    for (int x = 0; x < truth.width; ++x)
      for (int c = 0; c < 3; ++c) {
        const double t = truth.at(x, y, c), d = std::abs(layer.at(x, y, c) - t);
        max_difference = std::max(max_difference, std::isfinite(d) ? d : INFINITY);
        max_truth = std::max(max_truth, std::abs(t));
        sum_difference += d * d;
        sum_truth += t * t;
      }
  f.layer_max_relative = max_truth > 0.0 ? max_difference / max_truth : max_difference;
  f.layer_rms_relative = sum_truth > 0.0 ? std::sqrt(sum_difference / sum_truth) : std::sqrt(sum_difference);
}

}  // namespace blurlab
