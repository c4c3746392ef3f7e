#include "sweep_progress.h"

#include "util/strings.h"

namespace blurlab::app {

bool same_progress_item(const bench::Job& a, const bench::Job& b) {
  return a.variant == b.variant && a.size == b.size && a.input_format == b.input_format;
}

size_t progress_items(const std::vector<bench::Job>& jobs) {
  size_t items = 0;
  for (size_t i = 0; i < jobs.size(); ++i) items += i == 0 || !same_progress_item(jobs[i - 1], jobs[i]);
  return items;
}

std::string progress_item_text(const bench::Job& job) {
  return std::string(job.variant->name) + " (" + size_text(job.size) + " " + std::string(gl::name(job.input_format)) + ")";
}

}  // namespace blurlab::app
