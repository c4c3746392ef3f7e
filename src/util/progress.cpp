#include "util/progress.h"

#include <unistd.h>

namespace blurlab {

namespace {
constexpr size_t kBarWidth = 30, kWhatWidth = 60;
constexpr size_t kLineWidth = kBarWidth + 2 + 12 + kWhatWidth + 4;  // what a bar line can take
}  // namespace

Progress::Progress(size_t steps, size_t items, std::ostream& out, std::optional<bool> terminal, double quiet_s)
    : out_(out), steps_(steps), items_(items), quiet_s_(quiet_s) {
  const bool tty = terminal.value_or(::isatty(STDERR_FILENO) != 0);
  bar_ = tty && steps > 1;
  lines_ = !tty && items > 1;
}

Progress::~Progress() { clear(); }

void Progress::clear() {
  if (!shown_) return;
  out_ << "\r" << std::string(kLineWidth, ' ') << "\r" << std::flush;
  shown_ = false;
}

void Progress::step(const std::string& what) {
  ++steps_done_;
  if (!bar_) return;
  const size_t filled = kBarWidth * (steps_done_ - 1) / steps_;
  out_ << "\r[" << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] " << steps_done_ << "/" << steps_ << " "
       << what.substr(0, kWhatWidth) << "    " << std::flush;
  shown_ = true;
}

void Progress::item(const std::string& what) {
  ++items_done_;
  if (!lines_ || std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() < quiet_s_) return;
  const std::string total = std::to_string(items_);
  std::string done = std::to_string(items_done_);
  done.insert(0, total.size() - std::min(total.size(), done.size()), ' ');
  out_ << "[" << done << "/" << total << "] " << what << "\n" << std::flush;
}

}  // namespace blurlab
