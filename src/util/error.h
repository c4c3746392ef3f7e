#pragma once
// The two ways blurlab fails on purpose. Both carry one line for stderr; main() prints it
// and exits with the code: 2 for a usage mistake, 1 for something that went wrong at run time.
#include <exception>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>

namespace blurlab {

// `text` as one printable line: control characters (a newline in a file name, a terminal escape)
// become \n, \r, \t, \e or \xNN, C1 controls in UTF-8 \u0080..\u009f, and a byte 0x80..0x9f
// outside any UTF-8 character (an 8-bit C1 control: 0x9b is CSI to a terminal that reads bytes)
// \xNN. Other bytes stay. Idempotent: a backslash is printable, so a line already made single
// stays as it is.
std::string single_line(std::string_view text);

// Writes what it is given to `target` with single_line()'s rule applied to every line, the line
// breaks kept: a stream filter, so that everything the program prints on stdout ("wrote NAME", a
// value quoted in a table) is shown and never obeyed by a terminal, as on stderr.
class EscapingStreambuf : public std::streambuf {
 public:
  explicit EscapingStreambuf(std::streambuf* target) : target_(target) {}

 protected:
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  std::streambuf* target_;
  std::string held_;  // a UTF-8 character cut by the end of the last piece: its first bytes
};

// For the program's run (main()): std::cout through an EscapingStreambuf, restored at the end.
class EscapedStdout {
 public:
  EscapedStdout();
  ~EscapedStdout();
  EscapedStdout(const EscapedStdout&) = delete;
  EscapedStdout& operator=(const EscapedStdout&) = delete;

 private:
  std::streambuf* original_;
  EscapingStreambuf filter_;
};

// The message is made single_line() here, once, so a value quoted from a file or the command
// line (a kernel name "n\n" in a tuning file) cannot split it, whoever prints or tests it.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int exit_code = 1)
      : std::runtime_error(single_line(message)), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// Bad options or option values: exit code 2.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(message, 2) {}
};

// Writes "blurlab: MESSAGE\n" to stderr with MESSAGE made single_line(), in one write. Every
// error message the program prints goes through here, so each failure is exactly one line.
void print_error(std::string_view message);

// What ended a run: the exit code and the message for print_error(). blurlab::Error carries both;
// other exceptions that are run-time failures with a reason (a file system error, no memory) get
// exit code 1 and their reason; anything else (std::logic_error, unknown) is an internal error.
struct Failure {
  int exit_code;
  std::string message;
};
Failure failure_of(std::exception_ptr error);

}  // namespace blurlab
