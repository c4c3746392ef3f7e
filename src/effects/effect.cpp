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

EffectFidelity picture_fidelity(const Image& output, const ReferenceImage& truth) {
  if (output.width != truth.width || output.height != truth.height) throw Error("picture_fidelity: the images differ in size");
  EffectFidelity f;
  double sum = 0.0;
  size_t count = 0;
  for (int y = 0; y < output.height; ++y)
    for (int x = 0; x < output.width; ++x)
      for (int c = 0; c < 3; ++c) {
        const double shipped = std::round(static_cast<double>(output.at(x, y, c)) * 255.0);
        const double expected = to_unorm8(truth.at(x, y, c));
        const double d = std::abs(shipped - expected);
        f.max_lsb = std::max(f.max_lsb, d);
        sum += d * d;
        ++count;
      }
  f.rms_lsb = count ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
  f.psnr_db = f.rms_lsb > 0.0 ? 20.0 * std::log10(255.0 / f.rms_lsb) : INFINITY;
  return f;
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
