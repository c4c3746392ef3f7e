#pragma once
// The progress of a long sweep, on stderr. On a terminal: a bar redrawn in place on one line,
// erased before anything else is printed (clear()). Elsewhere (a pipe, a log): a line per item (a
// variant of a sweep), so a piped run of minutes is not silent, from its first item that starts
// `quiet_s` seconds into the run: a short run (a refusal, a failed check) says nothing but its
// result, and an error stays the one line on stderr. A run of one item says nothing.
#include <chrono>
#include <cstddef>
#include <iostream>
#include <optional>
#include <string>

namespace blurlab {

class Progress {
 public:
  // `steps` calls of step() and `items` of item() to come. `terminal`: whether `out` is one
  // (default: whether stderr is a terminal).
  Progress(size_t steps, size_t items, std::ostream& out = std::cerr, std::optional<bool> terminal = std::nullopt,
           double quiet_s = kQuietSeconds);
  static constexpr double kQuietSeconds = 2.0;
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void step(const std::string& what);  // the next step: the bar, on a terminal
  void item(const std::string& what);  // the next item: "[3/26] what" on a line, when not a terminal
  void clear();                        // erases the bar, so the next line starts at the left edge

 private:
  std::ostream& out_;
  size_t steps_, items_, steps_done_ = 0, items_done_ = 0;
  bool bar_, lines_, shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double quiet_s_;
};

}  // namespace blurlab
