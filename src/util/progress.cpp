#include "util/progress.h"

#include <unistd.h>

#include <iostream>

namespace blurlab {

Progress::Progress(size_t total) : total_(total), enabled_(total > 1 && ::isatty(STDERR_FILENO)) {}

Progress::~Progress() {
  if (enabled_ && shown_) std::cerr << "\r" << std::string(100, ' ') << "\r" << std::flush;
}

void Progress::step(const std::string& what) {
  ++done_;
  if (!enabled_) return;
  const size_t width = 30, filled = width * (done_ - 1) / total_;
  std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done_ << "/" << total_ << " "
            << what.substr(0, 60) << "    " << std::flush;
  shown_ = true;
}

}  // namespace blurlab
