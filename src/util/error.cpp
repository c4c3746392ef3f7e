#include "util/error.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <new>
#include <system_error>

namespace blurlab {

namespace {

// The length of the well-formed UTF-8 sequence (RFC 3629: no overlong form, no surrogate, at most
// U+10FFFF) that starts `text`, or 0 if it starts with none; a sequence cut short by the end of
// `text` counts as none too.
size_t utf8_sequence(std::string_view text) {
  const auto at = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char c = at(0);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the second byte's range
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) length = 2;
  else if (c >= 0xe0 && c <= 0xef) length = 3, low = c == 0xe0 ? 0xa0 : 0x80, high = c == 0xed ? 0x9f : 0xbf;
  else if (c >= 0xf0 && c <= 0xf4) length = 4, low = c == 0xf0 ? 0x90 : 0x80, high = c == 0xf4 ? 0x8f : 0xbf;
  else return 0;
  if (text.size() < length || at(1) < low || at(1) > high) return 0;
  for (size_t i = 2; i < length; ++i)
    if (at(i) < 0x80 || at(i) > 0xbf) return 0;
  return length;
}

}  // namespace

std::string single_line(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string line;
  line.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t length = utf8_sequence(text.substr(i));
    if (c == '\n') line += "\\n";
    else if (c == '\r') line += "\\r";
    else if (c == '\t') line += "\\t";
    else if (c == 0x1b) line += "\\e";
    else if (c < 0x20 || c == 0x7f || (length == 0 && c <= 0x9f)) {
      // C0 controls, DEL, and a byte 0x80..0x9F outside any UTF-8 character: an 8-bit C1 control
      // (0x9B is CSI) to a terminal that reads bytes rather than UTF-8.
      line += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    } else if (length == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);  // U+0080..U+009F: terminals obey these too
      line += std::string("\\u00") + kHex[c1 >> 4] + kHex[c1 & 15];
    } else {
      // A character, or a byte 0xA0..0xFF outside one (Latin-1 text in a file name: no control).
      line.append(text.substr(i, std::max<size_t>(length, 1)));
    }
    i += std::max<size_t>(length, 1);
  }
  return line;
}

std::streamsize EscapingStreambuf::xsputn(const char* text, std::streamsize count) {
  std::string piece = held_;
  piece.append(text, static_cast<size_t>(count));
  // A UTF-8 character cut by the end of this write waits for the rest: what follows decides how
  // it is shown (a C1 control, a character, or bytes outside one).
  held_.clear();
  for (size_t back = 1; back <= 3 && back <= piece.size(); ++back) {
    const auto c = static_cast<unsigned char>(piece[piece.size() - back]);
    if ((c & 0xc0) == 0x80) continue;  // a continuation byte: look further back
    const size_t length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 1;
    if (c >= 0xc2 && c <= 0xf4 && length > back) {
      held_ = piece.substr(piece.size() - back);
      piece.resize(piece.size() - back);
    }
    break;
  }
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
  if (!held_.empty()) {  // nothing followed: bytes outside any character, shown as single_line() shows them
    const std::string rest = single_line(held_);
    held_.clear();
    if (target_->sputn(rest.data(), static_cast<std::streamsize>(rest.size())) != static_cast<std::streamsize>(rest.size())) return -1;
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
