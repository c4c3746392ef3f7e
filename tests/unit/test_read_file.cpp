// read_regular_file: what a hostile path cannot make it do (hang, fill memory, say "internal error").
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "util/error.h"
#include "util/files.h"

namespace blurlab {
namespace {

namespace fs = std::filesystem;

class ReadRegularFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("blurlab_read_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return dir_ / name;
  }
  // The one-line message read_regular_file throws, or "" when it reads.
  static std::string refusal(const fs::path& path, uint64_t max_bytes = 1 << 20) {
    try {
      read_regular_file(path, max_bytes, "the test file");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(ReadRegularFile, ReadsARegularFileWhole) {
  const std::string content(200000, 'x');
  EXPECT_EQ(read_regular_file(file("a", content), 1 << 20, "the test file"), content);
  EXPECT_EQ(read_regular_file(file("empty", ""), 10, "the test file"), "");
  EXPECT_EQ(read_regular_file(file("exact", "0123456789"), 10, "the test file"), "0123456789");
}

TEST_F(ReadRegularFile, RefusesWhatIsNotARegularFile) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  // Each would hang or read forever if opened and read like a file.
  EXPECT_EQ(refusal(dir_ / "fifo"), "cannot read the test file '" + (dir_ / "fifo").string() + "': it is a FIFO, not a regular file");
  EXPECT_NE(refusal("/dev/zero").find("character device"), std::string::npos);
  EXPECT_NE(refusal(dir_).find("is a directory"), std::string::npos);
  fs::create_symlink("/dev/zero", dir_ / "zero_link");
  EXPECT_NE(refusal(dir_ / "zero_link").find("character device"), std::string::npos);
  EXPECT_NE(refusal(dir_ / "missing").find("No such file"), std::string::npos);
}

TEST_F(ReadRegularFile, ProcFilesAreReadWithTheBoundAndTheirErrorsAreOneLine) {
  // /proc files say they are empty; the bound holds anyway.
  EXPECT_NE(read_regular_file("/proc/self/status", 1 << 20, "the test file").find("Name:"), std::string::npos);
  EXPECT_NE(refusal("/proc/self/status", 10).find("more than 10 bytes"), std::string::npos);
  // /proc/self/mem is a regular file whose first page cannot be read.
  EXPECT_EQ(refusal("/proc/self/mem"), "cannot read the test file '/proc/self/mem': Input/output error");
}

TEST_F(ReadRegularFile, LargerThanTheBoundIsRefusedBeforeReading) {
  const fs::path big = file("big", "");
  fs::resize_file(big, uint64_t{1} << 40);  // sparse: a terabyte on no disk
  const std::string message = refusal(big, 1000);
  EXPECT_NE(message.find("1.0 TiB"), std::string::npos) << message;
  EXPECT_NE(message.find("at most 1000 bytes"), std::string::npos) << message;
  EXPECT_NE(refusal(file("eleven", "01234567890"), 10), "");
}

TEST_F(ReadRegularFile, TheHeadIsCheckedBeforeTheRest) {
  // The check changes the file beyond the head: if the rest were already read, the change would
  // not show.
  const fs::path path = file("big", "HEAD" + std::string(100000, 'a'));
  std::string seen;
  const std::string content = read_regular_file(path, 1 << 20, "the test file", [&](std::string_view head) {
    seen = head;
    std::fstream(path, std::ios::in | std::ios::out | std::ios::binary).seekp(50000).put('Z');
  });
  EXPECT_EQ(seen, "HEAD" + std::string(kFileHeadBytes - 4, 'a'));
  EXPECT_EQ(content[50000], 'Z');
  // What the check throws stops the read; a short file shows all it has.
  EXPECT_THROW(read_regular_file(path, 1 << 20, "the test file", [](std::string_view) { throw Error("wrong kind"); }), Error);
  read_regular_file(file("short", "abc"), 10, "the test file", [&](std::string_view head) { seen = head; });
  EXPECT_EQ(seen, "abc");
}

}  // namespace
}  // namespace blurlab
