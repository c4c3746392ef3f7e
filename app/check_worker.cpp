#include "check_worker.h"

#include <chrono>

#include "blur/kernel.h"

namespace blurlab::app {

void CheckWorker::start(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size, Image input, Image output,
                        std::optional<Image> second, uint64_t configuration) {
  auto job = std::make_unique<Job>();
  job->label = std::string(variant.name) + " " + describe(variant, resolved);
  const double peak = peak_magnitude(input);
  job->tolerance = tolerance_for(variant, resolved, size, peak);
  job->configuration = configuration;
  job->result = std::async(std::launch::async, [input = std::move(input), output = std::move(output), second = std::move(second),
                                                &variant, resolved, tolerance = job->tolerance, peak] {
    Computed computed;
    computed.reference = expected_output(variant, resolved, input);
    computed.result = compare_to_reference(output, computed.reference, tolerance);
    if (variant.approximation.choose) {
      const double sigma = variant.approximation.choose(resolved).sigma;
      // The exact Gaussian of that sigma (a variable-radius approximation: the exact per-pixel kernel).
      ReferenceImage gaussian = fidelity_reference(variant, resolved, input);
      computed.fidelity = measure_fidelity(output, gaussian, resolved.input_format, peak, sigma);
      computed.gaussian = std::move(gaussian);
    }
    if (second) {
      // The two outputs against each other: the same measure, with the first as the "reference".
      ReferenceImage first{output.width, output.height, std::vector<double>(output.texels.begin(), output.texels.end())};
      computed.second = compare_to_reference(*second, first, tolerance);
    }
    return computed;
  });
  job_ = std::move(job);
}

std::optional<CheckOutcome> CheckWorker::collect(uint64_t configuration) {
  if (!job_ || job_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
  Computed computed = job_->result.get();
  const std::unique_ptr<Job> job = std::move(job_);
  if (job->configuration != configuration) return std::nullopt;
  return CheckOutcome{CheckLine{computed.result, job->tolerance, job->label, computed.fidelity}, std::move(computed.reference),
                      std::move(computed.gaussian), computed.second};
}

void CheckWorker::wait() const {
  if (job_) job_->result.wait();
}

}  // namespace blurlab::app
