#include "util/error.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <new>
#include <system_error>

namespace blurlab {

std::string single_line(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string line;
  line.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') line += "\\n";
    else if (c == '\r') line += "\\r";
    else if (c == '\t') line += "\\t";
    else if (c == 0x1b) line += "\\e";
    else if (c < 0x20 || c == 0x7f) line += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
             static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      const auto c1 = static_cast<unsigned char>(text[++i]);  // U+0080..U+009F: terminals obey these too
      line += std::string("\\u00") + kHex[c1 >> 4] + kHex[c1 & 15];
    } else {
      line += static_cast<char>(c);
    }
  }
  return line;
}

std::streamsize EscapingStreambuf::xsputn(const char* text, std::streamsize count) {
  std::string piece = held_c2_ ? "\xc2" : "";
  piece.append(text, static_cast<size_t>(count));
  held_c2_ = !piece.empty() && static_cast<unsigned char>(piece.back()) == 0xc2;
  if (held_c2_) piece.pop_back();  // what follows decides how it is shown
  for (size_t start = 0; start <= piece.size();) {
    const size_t end = std::min(piece.find('\n', start), piece.size());
    const std::string line = single_line(std::string_view(piece).substr(start, end - start));
    if (target_->sputn(line.data(), static_cast<std::streamsize>(line.size())) != static_cast<std::streamsize>(line.size())) return 0;
    if (end < piece.size() && target_->sputc('\n') == traits_type::eof()) return 0;
    start = end + 1;
  }
  return count;
}

EscapingStreambuf::int_type EscapingStreambuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

int EscapingStreambuf::sync() {
  if (held_c2_) {  // nothing followed: a byte that is not a control, shown as it is
    held_c2_ = false;
    if (target_->sputc('\xc2') == traits_type::eof()) return -1;
  }
  return target_->pubsync();
}

EscapedStdout::EscapedStdout() : original_(std::cout.rdbuf()), filter_(original_) { std::cout.rdbuf(&filter_); }

EscapedStdout::~EscapedStdout() {
  std::cout.flush();
  std::cout.rdbuf(original_);
}

void print_error(std::string_view message) {
  const std::string line = "blurlab: " + single_line(message) + "\n";
  // One write(2), not stdio: the line stays whole next to other threads' output.
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // stderr is gone: nowhere left to say it
    done += static_cast<size_t>(n);
  }
}

Failure failure_of(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    return {e.exit_code(), e.what()};
  } catch (const std::filesystem::filesystem_error& e) {
    // what() is "filesystem error: OPERATION: REASON [PATH]"; say it the way blurlab's own errors do.
    std::string what = e.what();
    const std::string prefix = "filesystem error: ";
    if (what.rfind(prefix, 0) == 0) what.erase(0, prefix.size());
    if (const size_t bracket = what.find(" ["); bracket != std::string::npos) what.erase(bracket);
    return {1, e.path1().empty() ? what : "'" + e.path1().string() + "': " + what};
  } catch (const std::bad_alloc&) {
    return {1, "out of memory"};
  } catch (const std::length_error& e) {
    return {1, std::string("out of memory: more than a container can hold (") + e.what() + ")"};
  } catch (const std::runtime_error& e) {  // std::system_error, std::ios_base::failure, ...
    return {1, e.what()};
  } catch (const std::exception& e) {
    return {1, std::string("internal error: ") + e.what()};
  } catch (...) {
    return {1, "internal error: an unknown exception"};
  }
}

}  // namespace blurlab
