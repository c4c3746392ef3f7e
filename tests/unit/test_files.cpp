// Output files (util/files.h) and the temporaries behind them (util/temp_files.h): whole or not
// at all, never replacing what is not a file, nothing left behind, also when a signal ends the run.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <thread>

#include "fixtures/immutable.h"
#include "util/error.h"
#include "util/files.h"
#include "util/strings.h"
#include "util/temp_files.h"

namespace blurlab {
namespace {

namespace fs = std::filesystem;
using test_fixtures::set_immutable;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("blurlab_files_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (immutable_) set_immutable(*immutable_, false);
    fs::remove_all(dir_);
    EXPECT_EQ(live_temporary_files(), 0);
  }

  fs::path dir_;
  std::optional<fs::path> immutable_;

  std::vector<std::string> entries() const {  // every name in the directory, temporaries included
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // A character device like /dev/null (1,3) or /dev/full (1,7) inside the sandbox; false where
  // this process may not make device nodes.
  bool make_char_device(const fs::path& p, unsigned minor) { return ::mknod(p.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0; }
  static std::string error_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
  }
};

TEST_F(Files, NewAndReplacedFilesAreWholeAndNoTemporaryStays) {
  write_file_atomically(dir_ / "a.csv", "first");
  EXPECT_EQ(read(dir_ / "a.csv"), "first");
  fs::permissions(dir_ / "a.csv", fs::perms(0640));
  write_file_atomically(dir_ / "a.csv", "second");
  EXPECT_EQ(read(dir_ / "a.csv"), "second");
  EXPECT_EQ(fs::status(dir_ / "a.csv").permissions() & fs::perms::all, fs::perms(0640)) << "replacing keeps the mode";
  EXPECT_EQ(entries(), std::vector<std::string>{"a.csv"});
}

TEST_F(Files, LongestNameWorksBecauseTheTemporaryNameIsShort) {
  const std::string longest(255, 'n');
  write_file_atomically(dir_ / longest, "x");
  EXPECT_EQ(read(dir_ / longest), "x");
  const std::string message = error_of([&] { check_output_target(dir_ / (longest + "n"), "--csv"); });
  EXPECT_NE(message.find("256 bytes long"), std::string::npos) << message;
  EXPECT_NE(message.find("at most 255"), std::string::npos) << message;
}

TEST_F(Files, SymlinkStaysALinkAndItsFileIsReplaced) {
  fs::create_directories(dir_ / "real");
  write_file_atomically(dir_ / "real" / "report.csv", "old");
  fs::create_symlink("real/report.csv", dir_ / "link.csv");
  write_file_atomically(dir_ / "link.csv", "new");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
  EXPECT_EQ(read(dir_ / "real" / "report.csv"), "new");
  EXPECT_EQ(entries(), (std::vector<std::string>{"link.csv", "real"}));
  fs::create_symlink("nowhere.csv", dir_ / "dangling.csv");
  EXPECT_NE(error_of([&] { write_file_atomically(dir_ / "dangling.csv", "x"); }).find("does not exist"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "nowhere.csv"));
}

TEST_F(Files, DirectoriesAndMissingDirectoriesAreRefused) {
  fs::create_directories(dir_ / "adir");
  EXPECT_NE(error_of([&] { write_file_atomically(dir_ / "adir", "x"); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { check_output_target(dir_ / "no" / "x.csv", "--csv"); }).find("cannot write into"), std::string::npos);
  EXPECT_NE(error_of([&] { check_output_target("", "--csv"); }).find("no file name"), std::string::npos);
  EXPECT_EQ(entries(), std::vector<std::string>{"adir"});
}

TEST_F(Files, CharacterDevicesAreWrittenThroughNeverReplaced) {
  // Only copies, in the sandbox: were this code wrong, the real /dev/null would be replaced (root may).
  check_output_target("/dev/null", "--csv");  // only looks
  if (!make_char_device(dir_ / "null", 3) || !make_char_device(dir_ / "full", 7)) GTEST_SKIP() << "mknod not permitted here";
  write_file_atomically(dir_ / "null", "x");
  EXPECT_TRUE(fs::is_character_file(dir_ / "null"));
  EXPECT_NE(error_of([&] { write_file_atomically(dir_ / "full", "x"); }).find("No space left on device"), std::string::npos);
  EXPECT_TRUE(fs::is_character_file(dir_ / "full"));
  EXPECT_EQ(entries(), (std::vector<std::string>{"full", "null"}));
}

TEST_F(Files, BlockDevicesAreRefused) {
  if (::mknod((dir_ / "disk").c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0) GTEST_SKIP() << "mknod not permitted here";
  EXPECT_NE(error_of([&] { check_output_target(dir_ / "disk", "--output"); }).find("block device"), std::string::npos);
  EXPECT_NE(error_of([&] { write_file_atomically(dir_ / "disk", "x"); }).find("block device"), std::string::npos);
  EXPECT_TRUE(fs::is_block_file(dir_ / "disk"));
}

TEST_F(Files, FifoWithoutReaderFailsAtOnceAndWithReaderGetsTheContent) {
  ASSERT_EQ(::mkfifo((dir_ / "pipe").c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { write_file_atomically(dir_ / "pipe", "x"); }).find("no process is reading"), std::string::npos);
  std::string received;
  std::thread reader([&] { received = read(dir_ / "pipe"); });
  // The reader may not have opened its end yet: then the write fails as above; try again.
  for (int attempt = 0;; ++attempt) {
    try {
      write_file_atomically(dir_ / "pipe", "through the pipe");
      break;
    } catch (const Error&) {
      ASSERT_LT(attempt, 500);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(dir_ / "pipe"));
}

TEST_F(Files, StdoutThatIsARegularFileIsRefusedNotReplaced) {
  // /dev/stdout -> /proc/self/fd/1 -> the file a shell redirected stdout into: renaming over it
  // would take the file away from the shell.
  const fs::path file = dir_ / "stdout.txt";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  const fs::path via_proc = "/proc/self/fd/" + std::to_string(fd);
  EXPECT_NE(error_of([&] { check_output_target(via_proc, "--csv"); }).find("through /proc"), std::string::npos);
  ::close(fd);
  EXPECT_EQ(entries(), std::vector<std::string>{"stdout.txt"});
}

TEST_F(Files, StdoutThatIsAPipeIsWrittenThrough) {
  // /dev/stdout -> /proc/self/fd/1 -> pipe:[N], a link to no path: stat() follows it, a walk cannot.
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  write_file_atomically("/proc/self/fd/" + std::to_string(ends[1]), "down the pipe");
  ::close(ends[1]);
  char buffer[64] = {};
  EXPECT_EQ(::read(ends[0], buffer, sizeof buffer - 1), 13);
  EXPECT_STREQ(buffer, "down the pipe");
  ::close(ends[0]);
}

TEST_F(Files, ImmutableTargetSaysWhyNotSuccess) {
  write_file_atomically(dir_ / "frozen.csv", "old");
  if (!set_immutable(dir_ / "frozen.csv", true)) GTEST_SKIP() << "cannot set the immutable attribute here (chattr +i)";
  immutable_ = dir_ / "frozen.csv";
  for (const std::string& message : {error_of([&] { check_output_target(dir_ / "frozen.csv", "--csv"); }),
                                     error_of([&] { write_file_atomically(dir_ / "frozen.csv", "new"); })}) {
    EXPECT_NE(message.find("Operation not permitted"), std::string::npos) << message;
    EXPECT_EQ(message.find(": Success"), std::string::npos) << message;
  }
  EXPECT_EQ(read(dir_ / "frozen.csv"), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"frozen.csv"});
}

TEST_F(Files, StagedFilesAppearOnlyAtCommit) {
  write_file_atomically(dir_ / "b.json", "old");
  {
    StagedOutputs outputs;
    write_file_atomically(dir_ / "a.csv", "a");
    write_file_atomically(dir_ / "b.json", "b");
    EXPECT_EQ(outputs.size(), 2u);
    EXPECT_EQ(read(dir_ / "b.json"), "old");
    EXPECT_FALSE(fs::exists(dir_ / "a.csv"));
    EXPECT_EQ(live_temporary_files(), 2);
    outputs.commit();
  }
  EXPECT_EQ(read(dir_ / "a.csv"), "a");
  EXPECT_EQ(read(dir_ / "b.json"), "b");
  EXPECT_EQ(entries(), (std::vector<std::string>{"a.csv", "b.json"}));
  // After the stage closed, writes are immediate again.
  write_file_atomically(dir_ / "c.txt", "c");
  EXPECT_EQ(read(dir_ / "c.txt"), "c");
}

TEST_F(Files, UncommittedStageLeavesNothing) {
  write_file_atomically(dir_ / "keep.csv", "old");
  try {
    StagedOutputs outputs;
    write_file_atomically(dir_ / "out.png", "png");
    write_file_atomically(dir_ / "keep.csv", "new");
    throw Error("the run failed");
  } catch (const Error&) {
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"keep.csv"});
  EXPECT_EQ(read(dir_ / "keep.csv"), "old");
}

TEST_F(Files, DeviceFailureAtCommitComesBeforeAnyRename) {
  if (!make_char_device(dir_ / "full", 7)) GTEST_SKIP() << "mknod not permitted here";
  StagedOutputs outputs;
  write_file_atomically(dir_ / "out.png", "png");  // staged first, renamed last
  write_file_atomically(dir_ / "full", "csv");
  const std::string message = error_of([&] { outputs.commit(); });
  EXPECT_NE(message.find("No space left on device"), std::string::npos) << message;
  EXPECT_EQ(message.find("already written"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(dir_ / "out.png"));
}

TEST_F(Files, PartialCommitSaysWhatWasWritten) {
  if (!make_char_device(dir_ / "null", 3)) GTEST_SKIP() << "mknod not permitted here";
  write_file_atomically(dir_ / "frozen.csv", "old");
  StagedOutputs outputs;
  write_file_atomically(dir_ / "null", "to the device");
  write_file_atomically(dir_ / "frozen.csv", "new");
  // Made immutable after staging: the rename at commit fails, after the device was written.
  if (!set_immutable(dir_ / "frozen.csv", true)) GTEST_SKIP() << "cannot set the immutable attribute here (chattr +i)";
  immutable_ = dir_ / "frozen.csv";
  const std::string message = error_of([&] { outputs.commit(); });
  EXPECT_NE(message.find("frozen.csv': Operation not permitted (already written: "), std::string::npos) << message;
  EXPECT_EQ(read(dir_ / "frozen.csv"), "old");
}

TEST_F(Files, NewDirectoryAppearsWholeAtCommit) {
  {
    StagedOutputs outputs;
    write_file_into(dir_ / "page", "report.md", "md", "--report");
    write_file_into(dir_ / "page/", "report.csv", "csv", "--report");  // the same directory, however it is spelled
    ASSERT_EQ(entries().size(), 1u);
    EXPECT_EQ(entries().front().rfind(".blurlab-", 0), 0u) << "staged in a temporary directory beside it";
    EXPECT_EQ(live_temporary_files(), 1);
    outputs.commit();
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"page"});
  EXPECT_EQ(read(dir_ / "page" / "report.md"), "md");
  EXPECT_EQ(read(dir_ / "page" / "report.csv"), "csv");
  // Into the directory that now exists: each file beside its target, put in place at the commit.
  {
    StagedOutputs outputs;
    write_file_into(dir_ / "page", "report.md", "md 2", "--report");
    EXPECT_EQ(read(dir_ / "page" / "report.md"), "md");
    outputs.commit();
  }
  EXPECT_EQ(read(dir_ / "page" / "report.md"), "md 2");
}

TEST_F(Files, UncommittedDirectoryLeavesNothing) {
  fs::create_directories(dir_ / "old");
  {
    StagedOutputs outputs;
    write_file_into(dir_ / "new", "a.txt", "a", "--export");
    write_file_into(dir_ / "old", "b.txt", "b", "--report");
    write_file_atomically(dir_ / "c.csv", "c", "--csv");
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"old"});
  EXPECT_TRUE(fs::is_empty(dir_ / "old"));
}

// A kind of output folder for the tests: index.txt lists the other files, one per line.
const OutputFolderKind kListed{"--export", "export", "index.txt", [](std::string_view text) {
  if (text.rfind("index\n", 0) != 0) throw Error("no \"index\" line");
  std::vector<std::string> names;
  for (const std::string& line : split(text.substr(6), '\n'))
    if (!line.empty()) names.push_back(line);
  return names;
}};

TEST_F(Files, OutputDirectoriesAreCheckedWithTheirFiles) {
  std::ofstream(dir_ / "file") << "x";
  fs::create_symlink("nowhere", dir_ / "dangling");
  fs::create_directories(dir_ / "page" / "report.md");
  EXPECT_EQ(error_of([&] { check_output_directory(dir_ / "file", kListed); }),
            "--export '" + (dir_ / "file").string() + "': it is a regular file, not a directory");
  EXPECT_EQ(error_of([&] { check_output_directory(dir_ / "dangling", kListed); }),
            "--export '" + (dir_ / "dangling").string() + "': it is a symbolic link to 'nowhere', which does not exist");
  EXPECT_NE(error_of([&] { check_output_directory(dir_ / "no" / "page", kListed); }).find("cannot create it in '"), std::string::npos);
  EXPECT_EQ(error_of([&] { check_output_directory(dir_ / "page", kListed); }),
            "--export '" + (dir_ / "page" / "report.md").string() +
                "': it is a directory, not a file an earlier export wrote; blurlab writes into an empty folder or over its own earlier export");
  EXPECT_TRUE(check_output_directory(dir_ / "new", kListed).empty());
  // A file where the new directory goes, made after the check: the commit fails and says so.
  StagedOutputs outputs;
  write_file_into(dir_ / "late", "a.txt", "a", "--export");
  std::ofstream(dir_ / "late") << "x";
  EXPECT_NE(error_of([&] { outputs.commit(); }).find("cannot write --export '" + (dir_ / "late").string() + "': "), std::string::npos);
}

// An output folder holds one output: a link planted in it had the file it points to replaced (outside
// the folder), and an earlier export's shaders stayed beside a new recipe.
TEST_F(Files, AnOutputFolderHoldsItsOwnOutputAlone) {
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  std::ofstream(dir_ / "outside.txt") << "precious";
  const std::string rule = "; blurlab writes into an empty folder or over its own earlier export";
  // Anything but an earlier output of its kind is refused before any work, without being followed.
  fs::create_symlink("../outside.txt", out / "index.txt");
  EXPECT_EQ(error_of([&] { check_output_directory(out, kListed); }),
            "--export '" + (out / "index.txt").string() + "': it is a symbolic link, not a file an earlier export wrote" + rule);
  fs::remove(out / "index.txt");
  ASSERT_EQ(::mkfifo((out / "a.txt").c_str(), 0600), 0);
  EXPECT_EQ(error_of([&] { check_output_directory(out, kListed); }),
            "--export '" + (out / "a.txt").string() + "': it is a FIFO, not a file an earlier export wrote" + rule);
  fs::remove(out / "a.txt");
  std::ofstream(out / "notes.txt") << "mine";
  EXPECT_EQ(error_of([&] { check_output_directory(out, kListed); }),
            "--export '" + out.string() + "': it holds 'notes.txt' and no index.txt of an earlier export" + rule);
  std::ofstream(out / "index.txt") << "not an index";
  EXPECT_EQ(error_of([&] { check_output_directory(out, kListed); }),
            "--export '" + (out / "index.txt").string() + "': it is not the index.txt of an earlier export (no \"index\" line)" + rule);
  std::ofstream(out / "index.txt") << "index\n../outside.txt\n";
  EXPECT_NE(error_of([&] { check_output_directory(out, kListed); }).find("(it lists '../outside.txt', which is no file of its folder)"),
            std::string::npos);
  std::ofstream(out / "index.txt") << "index\nold.txt\n";
  EXPECT_EQ(error_of([&] { check_output_directory(out, kListed); }),
            "--export '" + (out / "notes.txt").string() + "': the earlier export there does not list it in its index.txt" + rule);
  // An earlier output and nothing else: replaced, and what it had that the new one has not goes.
  fs::rename(out / "notes.txt", out / "old.txt");
  EXPECT_EQ(check_output_directory(out, kListed), (std::vector<std::string>{"index.txt", "old.txt"}));
  {
    StagedOutputs outputs;
    remove_earlier_output(out, kListed, {"index.txt", "new.txt"});
    write_file_into(out, "new.txt", "new", "--export");
    write_file_into(out, "index.txt", "index\nnew.txt\n", "--export");
    // A link planted after the check and before the commit: the name is replaced, never its target.
    fs::create_symlink("../outside.txt", out / "new.txt");
    EXPECT_TRUE(fs::exists(out / "old.txt")) << "removed before the commit";
    outputs.commit();
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"index.txt", "new.txt"}));
  EXPECT_FALSE(fs::is_symlink(out / "new.txt"));
  EXPECT_EQ(read(out / "new.txt"), "new");
  EXPECT_EQ(read(dir_ / "outside.txt"), "precious");
  // A link in an existing folder when the file is staged is refused there too.
  fs::create_symlink("../outside.txt", out / "linked.txt");
  StagedOutputs outputs;
  EXPECT_EQ(error_of([&] { write_file_into(out, "linked.txt", "x", "--export"); }),
            "cannot write --export '" + (out / "linked.txt").string() + "': it is a symbolic link (in an output folder blurlab replaces only files)");
  EXPECT_EQ(read(dir_ / "outside.txt"), "precious");
}

TEST_F(Files, ReadOnlyFilesAreRefusedAlsoAsRoot) {
  // access() lets root write anything: a read-only file was replaced although it is refused.
  std::ofstream(dir_ / "kept.csv") << "old";
  fs::permissions(dir_ / "kept.csv", fs::perms(0444));
  EXPECT_EQ(error_of([&] { write_file_atomically(dir_ / "kept.csv", "new", "--csv"); }),
            "cannot write --csv '" + (dir_ / "kept.csv").string() + "': it is read-only (mode 0444)");
  EXPECT_EQ(error_of([&] { check_output_target(dir_ / "kept.csv", "--csv"); }), "--csv '" + (dir_ / "kept.csv").string() + "': it is read-only (mode 0444)");
  EXPECT_EQ(read(dir_ / "kept.csv"), "old");
}

TEST_F(Files, OutputsNeverReplaceWhatTheRunReads) {
  std::ofstream(dir_ / "in.png") << "image";
  std::ofstream(dir_ / "elsewhere.glsl") << "shader";
  fs::create_symlink("in.png", dir_ / "alias.png");
  fs::create_hard_link(dir_ / "in.png", dir_ / "hard.png");
  fs::create_directories(dir_ / "glsl" / "sub");
  std::ofstream(dir_ / "glsl" / "sub" / "x.glsl") << "shader";
  fs::create_hard_link(dir_ / "glsl" / "sub" / "x.glsl", dir_ / "x_hard.glsl");
  fs::create_directories(dir_ / "exp");
  fs::create_hard_link(dir_ / "in.png", dir_ / "exp" / "recipe.json");
  const NamedPaths inputs{{dir_ / "in.png", "--image"}}, shader_dirs{{dir_ / "glsl", "--shader-dir"}};
  const auto refusal = [&](const NamedPaths& outputs, const NamedPaths& folders) {
    try {
      check_outputs_spare_inputs(outputs, folders, inputs, shader_dirs);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string image = "--image '" + (dir_ / "in.png").string() + "'";
  EXPECT_EQ(refusal({{dir_ / "in.png", "--output"}}, {}), "--output '" + (dir_ / "in.png").string() + "' is the same file as " + image +
                                                              ": an output never replaces a file the run reads");
  EXPECT_NE(refusal({{dir_ / "alias.png", "--output"}}, {}).find("is the same file as " + image), std::string::npos) << "through a link";
  EXPECT_NE(refusal({{dir_ / "hard.png", "--csv"}}, {}).find("is the same file as " + image), std::string::npos) << "a hard link";
  EXPECT_NE(refusal({{dir_ / "x_hard.glsl", "--csv"}}, {}).find("is the same file as --shader-dir file '" + (dir_ / "glsl" / "sub" / "x.glsl").string()),
            std::string::npos);
  EXPECT_EQ(refusal({{dir_ / "glsl" / "new.csv", "--csv"}}, {}),
            "--csv '" + (dir_ / "glsl" / "new.csv").string() + "' is inside --shader-dir '" + (dir_ / "glsl").string() +
                "': an output never goes among the files the run reads");
  EXPECT_NE(refusal({}, {{dir_ / "exp", "--export"}}).find("--export '" + (dir_ / "exp" / "recipe.json").string() + "' is the same file as " + image),
            std::string::npos) << "a file an output folder replaces";
  EXPECT_EQ(refusal({{dir_ / "page" / "r.csv", "--csv"}}, {{dir_ / "page", "--report"}}),
            "--csv '" + (dir_ / "page" / "r.csv").string() + "' is inside --report '" + (dir_ / "page").string() +
                "': an output folder holds its own output alone");
  EXPECT_EQ(refusal({{dir_ / "out.png", "--output"}, {dir_ / "elsewhere.glsl", "--csv"}}, {{dir_ / "page", "--report"}}), "");
}

TEST_F(Files, TwoOutputsNamingOneFileAreRefused) {
  std::ofstream(dir_ / "real.csv") << "x";
  fs::create_symlink("real.csv", dir_ / "link.csv");
  fs::create_hard_link(dir_ / "real.csv", dir_ / "hard.csv");
  fs::create_directories(dir_ / "page");
  const auto refusal = [&](const std::vector<std::pair<fs::path, std::string>>& outputs) {
    try {
      check_distinct_outputs(outputs);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refusal({{dir_ / "x.png", "--output"}, {dir_ / "x.png", "--csv"}}),
            "--csv '" + (dir_ / "x.png").string() + "' is the same file as --output '" + (dir_ / "x.png").string() +
                "': each output needs a file of its own");
  EXPECT_NE(refusal({{dir_ / "new.csv", "--csv"}, {dir_ / "page" / ".." / "new.csv", "--json"}}), "");
  EXPECT_NE(refusal({{dir_ / "real.csv", "--csv"}, {dir_ / "link.csv", "--json"}}), "") << "through a link";
  EXPECT_NE(refusal({{dir_ / "real.csv", "--csv"}, {dir_ / "hard.csv", "--json"}}), "") << "a hard link";
  EXPECT_NE(refusal({{dir_ / "page", "--report"}, {dir_ / "page/", "--export"}}), "");
  EXPECT_NE(refusal({{dir_ / "new", "--report"}, {dir_ / "new" / "report.csv", "--report"}, {dir_ / "new" / "report.csv", "--csv"}}), "");
  EXPECT_EQ(refusal({{dir_ / "a.csv", "--csv"}, {dir_ / "a.json", "--json"}, {"/dev/null", "--output"}, {"/dev/null", "--csv"}}), "")
      << "devices take several outputs in turn";
}

TEST_F(Files, DirectoryLockWaitsThenSaysWhy) {
  const int held = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);  // another holder (flock locks belong to the open file)
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of([&] { DirectoryLock lock(dir_, "--tune-file 't.json'", 0.3); }),
            "--tune-file 't.json': cannot lock '" + dir_.string() + "': another process held it for 0.3 s");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
  ::close(held);
  { DirectoryLock lock(dir_, "--tune-file", 0.3); }
  EXPECT_TRUE(fs::is_empty(dir_)) << "the lock leaves no file";
}

// A child process stages outputs, tells the parent, and waits to be killed by `signal_number`.
void interrupted_while_staged(const fs::path& dir, int signal_number) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    try {
      StagedOutputs outputs;
      write_file_atomically(dir / "out.png", "png");
      write_file_atomically(dir / "report.csv", "csv");
      write_file_into(dir / "page", "report.md", "md", "--report");
      (void)!::write(ready[1], "r", 1);
      for (;;) ::pause();
    } catch (...) {
    }
    ::_exit(3);
  }
  ::close(ready[1]);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ::close(ready[0]);
  size_t temporaries = 0;
  for (const auto& e : fs::directory_iterator(dir)) temporaries += e.path().filename().string().rfind(".blurlab-", 0) == 0;
  EXPECT_EQ(temporaries, 3u) << "the child should hold two temporary files and a temporary directory now";
  ::kill(child, signal_number);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the signal must still end the process";
  EXPECT_EQ(WTERMSIG(status), signal_number);
  EXPECT_TRUE(fs::is_empty(dir)) << "temporaries left behind";
}

TEST_F(Files, SigintRemovesTemporariesAndStillEndsTheProcess) { interrupted_while_staged(dir_, SIGINT); }
TEST_F(Files, SigtermRemovesTemporariesAndStillEndsTheProcess) { interrupted_while_staged(dir_, SIGTERM); }

TEST_F(Files, SighupAndSigquitToo) {
  interrupted_while_staged(dir_, SIGHUP);
  interrupted_while_staged(dir_, SIGQUIT);
}

TEST_F(Files, SigpipeAndSigxfszLeaveNoTemporaries) {
  // In a program that leaves them at their default action, they still end it, minus its temporaries.
  for (const int signal_number : {SIGPIPE, SIGXFSZ}) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // inherits this process's handlers, or installs them with its first temporary
      StagedOutputs outputs;
      write_file_atomically(dir_ / "out.png", "png");
      write_file_into(dir_ / "page", "report.md", "md", "--report");
      if (signal_number == SIGPIPE) {
        int ends[2];
        if (::pipe(ends) != 0) ::_exit(3);
        ::close(ends[0]);
        (void)!::write(ends[1], "x", 1);  // no reader: SIGPIPE
      } else {
        const rlimit limit{4, RLIM_INFINITY};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        write_file_atomically(dir_ / "big.csv", std::string(100, 'x'));  // past the limit: SIGXFSZ
      }
      ::_exit(3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), signal_number);
    EXPECT_TRUE(fs::is_empty(dir_)) << "temporaries left behind after signal " << signal_number;
  }
}

TEST_F(Files, WritesThatFailReturnTheirReasonWhenTheSignalsAreIgnored) {
  // As blurlab's main() sets them: EFBIG instead of SIGXFSZ, and the temporary goes.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4, RLIM_INFINITY};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write_file_atomically(dir_ / "big.csv", std::string(100, 'x'), "--csv");
    } catch (const Error& e) {
      ::_exit(std::string(e.what()) == "cannot write --csv '" + (dir_ / "big.csv").string() + "': File too large" ? 0 : 4);
    }
    ::_exit(5);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(Files, TemporaryRemovedWhenDropped) {
  {
    TemporaryFile temp(dir_);
    EXPECT_EQ(temp.path().filename().string().size(), std::string(".blurlab-XXXXXXXX.tmp").size());
    EXPECT_TRUE(fs::exists(temp.path()));
    EXPECT_EQ(live_temporary_files(), 1);
  }
  EXPECT_TRUE(fs::is_empty(dir_));
}

}  // namespace
}  // namespace blurlab
