#pragma once
// The progress of a long sweep, on stderr. On a terminal: a bar redrawn in place on one line,
// erased before anything else is printed (clear()). Elsewhere (a pipe, a log): a line per item (a
// variant of a sweep), so a piped run of minutes is not silent. Each line says how many items
// there are, the time so far and, once a step has finished, an estimate of the time left from
// the steps done (a sweep's runs; the rest are assumed to take as long on average). The lines of
// the first `quiet_s` seconds are held back: a short run (a refusal, a failed check) says nothing
// but its result, and an error stays the one line on stderr; once the run passes `quiet_s`, the
// held lines come out first, so no line is missing. Within a long item (a variant --tune tries
// knob after knob of), tick() adds a line every kTickSeconds with what it is at. A run of one item
// says nothing when piped.
#include <chrono>
#include <cstddef>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace blurlab {

class Progress {
 public:
  // `steps` calls of step() and `items` of item() to come. `terminal`: whether `out` is one
  // (default: whether stderr is a terminal). `seconds`: the time since the run began (default:
  // the steady clock's since construction).
  Progress(size_t steps, size_t items, std::ostream& out = std::cerr, std::optional<bool> terminal = std::nullopt,
           double quiet_s = kQuietSeconds, std::function<double()> seconds = {});
  static constexpr double kQuietSeconds = 2.0;
  static constexpr double kTickSeconds = 15.0;
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void step(const std::string& what);  // the next step (a run of the sweep): the bar, on a terminal
  void item(const std::string& what);  // the next item: "[3/26] what: 12 s so far, about 1 min left" when piped
  void tick(const std::string& what);  // progress within a step (a knob setting tried)
  void clear();                        // erases the bar, so the next line starts at the left edge

  // "12 s", "1 min 30 s", "14 min": a duration as the progress lines give it.
  static std::string duration_text(double seconds);

 private:
  double elapsed() const;
  std::string timing_text(size_t steps_done) const;  // "12 s so far, about 1 min left"
  void print_line(const std::string& line);
  void release_held();

  std::ostream& out_;
  size_t steps_, items_, steps_done_ = 0, items_done_ = 0, ticks_ = 0;
  bool bar_, lines_, piped_, shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double quiet_s_;
  std::function<double()> seconds_;
  std::vector<std::string> held_;  // lines of the quiet period
  std::string item_;               // the current item's line head, "[3/26] what"
  std::string step_;               // the current step, for the bar
  double last_line_s_ = 0.0;
};

}  // namespace blurlab
