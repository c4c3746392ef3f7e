#pragma once
// The two ways blurlab fails on purpose. Both carry one line for stderr; main() prints it
// and exits with the code: 2 for a usage mistake, 1 for something that went wrong at run time.
#include <stdexcept>
#include <string>

namespace blurlab {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int exit_code = 1)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// Bad options or option values: exit code 2.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(message, 2) {}
};

}  // namespace blurlab
