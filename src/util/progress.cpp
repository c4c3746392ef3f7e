#include "util/progress.h"

#include <unistd.h>

#include <cmath>

namespace blurlab {

namespace {
constexpr size_t kBarWidth = 30, kWhatWidth = 60;
constexpr size_t kLineWidth = kBarWidth + 2 + 12 + kWhatWidth + 40;  // what a bar line can take
std::string ordinal(size_t n) {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}
}  // namespace

Progress::Progress(size_t steps, size_t items, std::ostream& out, std::optional<bool> terminal, double quiet_s,
                   std::function<double()> seconds)
    : out_(out), steps_(steps), items_(items), quiet_s_(quiet_s), seconds_(std::move(seconds)) {
  const bool tty = terminal.value_or(::isatty(STDERR_FILENO) != 0);
  bar_ = tty && steps > 1;
  lines_ = !tty && items > 1;
  piped_ = !tty;
}

Progress::~Progress() { clear(); }

double Progress::elapsed() const {
  return seconds_ ? seconds_() : std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return std::to_string(s) + " s";
  if (s < 600) return std::to_string(s / 60) + " min" + (s % 60 ? " " + std::to_string(s % 60) + " s" : "");
  return std::to_string((s + 30) / 60) + " min";
}

// The estimate counts steps when there are any (a sweep's runs), else items.
std::string Progress::timing_text(size_t done) const {
  const double t = elapsed();
  const size_t total = steps_ > 0 ? steps_ : items_;
  std::string text = duration_text(t) + " so far";
  if (done > 0 && total > done) text += ", about " + duration_text(t / static_cast<double>(done) * static_cast<double>(total - done)) + " left";
  return text;
}

void Progress::clear() {
  if (!shown_) return;
  out_ << "\r" << std::string(kLineWidth, ' ') << "\r" << std::flush;
  shown_ = false;
}

void Progress::print_line(const std::string& line) {
  out_ << line << "\n" << std::flush;
  last_line_s_ = elapsed();
}

void Progress::release_held() {
  if (held_.empty() || elapsed() < quiet_s_) return;
  for (const std::string& line : held_) out_ << line << "\n";
  held_.clear();
  out_ << std::flush;
  last_line_s_ = elapsed();
}

void Progress::step(const std::string& what) {
  ++steps_done_;
  ticks_ = 0;
  step_ = what;
  if (lines_) release_held();
  if (!bar_) return;
  const size_t filled = kBarWidth * (steps_done_ - 1) / steps_;
  out_ << "\r[" << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] " << steps_done_ << "/" << steps_ << " "
       << what.substr(0, kWhatWidth) << ", " << timing_text(steps_done_ - 1) << "    " << std::flush;
  shown_ = true;
}

void Progress::item(const std::string& what) {
  ++items_done_;
  const std::string total = std::to_string(items_);
  std::string done = std::to_string(items_done_);
  done.insert(0, total.size() - std::min(total.size(), done.size()), ' ');
  item_ = "[" + done + "/" + total + "] " + what;
  if (!lines_) return;
  // The item's first step starts after it: the steps before it are done.
  const std::string line = item_ + ": " + timing_text(steps_ > 0 ? steps_done_ : items_done_ - 1);
  if (elapsed() < quiet_s_) {
    held_.push_back(line);
    return;
  }
  release_held();
  print_line(line);
}

void Progress::tick(const std::string& what) {
  ++ticks_;
  const size_t done = steps_done_ > 0 ? steps_done_ - 1 : 0;  // the step ticking is not done
  if (bar_) {
    const size_t filled = kBarWidth * done / std::max<size_t>(steps_, 1);
    out_ << "\r[" << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] " << steps_done_ << "/" << steps_ << " "
         << (step_ + ", " + what).substr(0, kWhatWidth) << ", " << timing_text(done) << "    " << std::flush;
    shown_ = true;
    return;
  }
  if (!piped_) return;
  if (lines_) release_held();
  if (!held_.empty() || elapsed() < quiet_s_ || elapsed() - last_line_s_ < kTickSeconds) return;
  print_line((item_.empty() ? step_ : item_) + ": " + what + " (the " + std::to_string(ticks_) + ordinal(ticks_) + " tried), " +
             timing_text(done));
}

}  // namespace blurlab
