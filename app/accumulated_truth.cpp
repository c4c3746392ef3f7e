#include "accumulated_truth.h"

#include <algorithm>

namespace blurlab::app {

bool AccumulatedTruth::pending(uint64_t configuration) const {
  return mean_ && configuration_ == configuration && mean_->views() < static_cast<int>(views_.size());
}

std::string AccumulatedTruth::add_views(const EffectInfo& effect, const EffectSettings& settings, glm::ivec2 size, uint64_t configuration,
                                        double time, bool all_left) {
  if (!mean_) mean_.emplace(scene_, programs_);
  if (configuration_ != configuration || mean_->size() != size) {
    views_ = effect.ground_truth_views(settings.values, size);
    mean_->clear(size);
    configuration_ = configuration;
    picture_ = gl::Texture(size.x, size.y, gl::Format::rgba8, "ground truth so far");
  }
  const int total = static_cast<int>(views_.size());
  const int until = all_left ? total : std::min(total, mean_->views() + kViewsPerFrame);
  for (int i = mean_->views(); i < until; ++i) mean_->add(time, views_[static_cast<size_t>(i)]);
  mean_->present(picture_);
  if (mean_->views() == total) return "ground truth: " + std::to_string(total) + " views averaged; D shows the picture against it";
  return "ground truth: " + std::to_string(mean_->views()) + " of " + std::to_string(total) +
         " views of the scene averaged (shown until done; time stands still)";
}

std::optional<AccumulatedTruth::Complete> AccumulatedTruth::complete(uint64_t configuration) const {
  if (!mean_ || configuration_ != configuration || pending(configuration)) return std::nullopt;
  return Complete{views_, mean_->download_mean()};
}

}  // namespace blurlab::app
