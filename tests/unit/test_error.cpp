// Error messages: one line whatever the input holds, and a reason instead of "internal error"
// for run-time failures that are not blurlab's own exceptions.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>
#include <new>
#include <system_error>

#include "util/error.h"

namespace blurlab {
namespace {

TEST(SingleLine, ControlCharactersAreShownNotObeyed) {
  EXPECT_EQ(single_line("plain 'name.csv' ok"), "plain 'name.csv' ok");
  EXPECT_EQ(single_line("a\nb"), "a\\nb");
  EXPECT_EQ(single_line("a\r\tb"), "a\\r\\tb");
  EXPECT_EQ(single_line("\x1b[31mred"), "\\e[31mred");
  EXPECT_EQ(single_line(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(single_line("del\x7f"), "del\\x7f");
  EXPECT_EQ(single_line("csi\xc2\x9b" "2J"), "csi\\u009b2J");     // C1 control in UTF-8
  EXPECT_EQ(single_line("gr\xc3\xbc\xc3\x9f"), "gr\xc3\xbc\xc3\x9f");  // other UTF-8 stays
  // A byte 0x80..0x9f outside any UTF-8 character is an 8-bit C1 control (0x9b: CSI); inside one it
  // is a character's byte, and other bytes outside one (Latin-1 text) stay.
  EXPECT_EQ(single_line("csi\x9b" "2J"), "csi\\x9b2J");
  EXPECT_EQ(single_line("\xe2\x82\xac \xe2\x82"), "\xe2\x82\xac \xe2\\x82");  // the euro sign, then one cut short
  EXPECT_EQ(single_line("caf\xe9 \xc2"), "caf\xe9 \xc2");
  EXPECT_EQ(single_line("\xed\xa0\x80"), "\xed\xa0\\x80");  // a surrogate is no UTF-8 character
}

TEST(SingleLine, IsIdempotentAndEveryErrorIsOneLine) {
  for (const char* text : {"a\nb", "\x1b[31m", "back\\slash", "csi\xc2\x9b", "raw\x9b"})
    EXPECT_EQ(single_line(single_line(text)), single_line(text)) << text;
  // An Error quoting a value from a file carries one line whoever reads what() (a test, a fuzzer).
  EXPECT_STREQ(Error("kernel 'n\n' is not box or gauss").what(), "kernel 'n\\n' is not box or gauss");
  EXPECT_STREQ(UsageError("--out 'a\rb'").what(), "--out 'a\\rb'");
}

TEST(EscapingStreambuf, EveryLineOfAStreamIsShownAsSingleLineShowsIt) {
  std::ostringstream target;
  EscapingStreambuf filter(target.rdbuf());
  std::ostream out(&filter);
  out << "wrote x\x1b[2J.csv\n" << "tab\there" << '\n';
  out << "csi\xc2";  // a C1 control split across two writes is still one
  out << "\x9b" "2J\ngr\xc3\xbc\xc2";
  out << "\xe2\x82";  // a character split across writes: shown whole, not as bytes outside one
  out << "\xac";
  out.flush();  // a 0xC2 that no continuation byte follows stays as it is
  EXPECT_EQ(target.str(), "wrote x\\e[2J.csv\ntab\\there\ncsi\\u009b2J\ngr\xc3\xbc\xc2\xe2\x82\xac");
}

TEST(EscapingStreambuf, MainInstallsItOnStdout) {
  std::ostringstream target;
  std::streambuf* original = std::cout.rdbuf(target.rdbuf());
  {
    const EscapedStdout escaped;
    std::cout << "name\r\n";
  }
  std::cout.rdbuf(original);
  EXPECT_EQ(target.str(), "name\\r\n");
}

Failure failure_from(const std::function<void()>& thrower) {
  try {
    thrower();
  } catch (...) {
    return failure_of(std::current_exception());
  }
  return {0, "nothing thrown"};
}

TEST(FailureOf, OwnErrorsKeepTheirCodeAndMessage) {
  const Failure usage = failure_from([] { throw UsageError("--radius '200' is out of range 0..128"); });
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_EQ(usage.message, "--radius '200' is out of range 0..128");
  EXPECT_EQ(failure_from([] { throw Error("cannot read 'x'"); }).exit_code, 1);
}

TEST(FailureOf, RunTimeFailuresHaveAReasonNotInternalError) {
  const Failure fs_error = failure_from([] {
    throw std::filesystem::filesystem_error("cannot get file size", "/proc/self/mem", std::make_error_code(std::errc::invalid_argument));
  });
  EXPECT_EQ(fs_error.exit_code, 1);
  EXPECT_EQ(fs_error.message, "'/proc/self/mem': cannot get file size: Invalid argument");
  EXPECT_EQ(failure_from([] { throw std::bad_alloc(); }).message, "out of memory");
  EXPECT_EQ(failure_from([] { throw std::system_error(std::make_error_code(std::errc::io_error), "read"); }).message,
            "read: Input/output error");
  for (const Failure& f : {fs_error, failure_from([] { throw std::bad_alloc(); }),
                           failure_from([] { std::vector<int> v; v.reserve(v.max_size() + 1); })}) {
    EXPECT_EQ(f.exit_code, 1);
    EXPECT_EQ(f.message.find("internal error"), std::string::npos) << f.message;
  }
}

TEST(FailureOf, BugsAreStillInternalErrors) {
  EXPECT_EQ(failure_from([] { throw std::logic_error("unreachable"); }).message, "internal error: unreachable");
  EXPECT_EQ(failure_from([] { throw 42; }).message, "internal error: an unknown exception");
}

}  // namespace
}  // namespace blurlab
