#pragma once
// The progress lines of a piped sweep: one per variant at a size and input format.
#include <cstddef>
#include <string>
#include <vector>

#include "bench/sweep.h"

namespace blurlab::app {

bool same_progress_item(const bench::Job& a, const bench::Job& b);
size_t progress_items(const std::vector<bench::Job>& jobs);
std::string progress_item_text(const bench::Job& job);

}  // namespace blurlab::app
