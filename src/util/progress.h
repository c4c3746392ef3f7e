#pragma once
// A progress bar for long sweeps, on a terminal only (not in logs or pipes): one line on stderr,
// redrawn in place, erased at the end.
#include <cstddef>
#include <string>

namespace blurlab {

class Progress {
 public:
  explicit Progress(size_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void step(const std::string& what);

 private:
  size_t total_, done_ = 0;
  bool enabled_, shown_ = false;
};

}  // namespace blurlab
