#pragma once
// Reading input files that may be hostile, and writing output files whole or not at all, never
// by replacing something that is not a file. What is at an output's target decides how:
//   nothing, or a regular file  a temporary file beside it (util/temp_files.h), renamed over it
//   a symbolic link             the same for the file it points to: the link stays a link
//   a character device, a FIFO  written through (/dev/null, /dev/stdout, a terminal), errors reported
//   anything else               refused: a directory, a block device, a socket, a link to nothing
// A failure leaves no new file and the old one, if any, untouched.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blurlab {

// Reads a regular file whole. Anything else (a directory, FIFO, device, socket) is refused
// before it is opened, so /dev/zero or a FIFO cannot hang the program or fill memory; a file
// larger than max_bytes is refused without being read, and no more than max_bytes are ever read
// (files in /proc say they are empty and are not). `check_head`, when given, sees the first
// kFileHeadBytes bytes (fewer if the file is shorter) before the rest is read and may throw: a
// large file of the wrong kind is refused after a few bytes.
// Throws blurlab::Error with one line: "cannot read WHAT 'PATH': REASON".
inline constexpr size_t kFileHeadBytes = 64;
std::string read_regular_file(const std::filesystem::path& path, uint64_t max_bytes, std::string_view what,
                              const std::function<void(std::string_view head)>& check_head = {});

// Throws blurlab::Error with one line naming `what` (e.g. "--csv") and `path` when the target
// could not be written as above: called before the work whose result it will hold.
void check_output_target(const std::filesystem::path& path, std::string_view what);

// The regular file write_file_atomically() would replace for `path` (links followed; it may not
// exist yet), or nullopt for a device or FIFO it would write through. Throws blurlab::Error like
// check_output_target().
std::optional<std::filesystem::path> file_to_replace(const std::filesystem::path& path, std::string_view what);

// Throws blurlab::Error when two of `outputs` (path, option) name the same file or directory, also
// through links or as hard links of one file: "--csv 'x.png' is the same file as --output 'x.png'".
// Devices and FIFOs, written through in turn, may take several outputs.
void check_distinct_outputs(const std::vector<std::pair<std::filesystem::path, std::string>>& outputs);

// An exclusive lock (flock) on a directory for a read-merge-write of a file in it that other runs
// may write at the same time (--tune-file): held from construction to destruction. Waits at most
// `timeout_s` for another holder, then throws blurlab::Error naming `what` and the directory.
class DirectoryLock {
 public:
  DirectoryLock(const std::filesystem::path& dir, std::string_view what, double timeout_s = 60);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_ = -1;
};

// An output directory (--report, --export) is a directory to write into (a link to one is
// followed), or does not exist and its parent is a directory to write into. Throws blurlab::Error
// "WHAT 'PATH': REASON" otherwise (a file, a link to nothing, a directory that cannot be written
// or searched), and when one of `files` in it could not be written (check_output_target).
void check_output_directory(const std::filesystem::path& dir, std::string_view what, const std::vector<std::string>& files = {});

// Throws blurlab::Error with one line: "cannot write WHAT 'PATH': REASON" (`what` names the option
// the file came from, e.g. "--csv"; may be empty). While a StagedOutputs is open on this thread,
// the file is only staged (see below).
void write_file_atomically(const std::filesystem::path& path, std::string_view content, std::string_view what = {});

// DIR/NAME (NAME a plain file name) as write_file_atomically() writes it, DIR made when missing
// (check_output_directory()'s rules). Under a StagedOutputs a missing DIR is a temporary directory
// beside it until commit() renames it into place, so a new directory appears whole or not at all.
void write_file_into(const std::filesystem::path& dir, std::string_view name, std::string_view content, std::string_view what);

// Throws blurlab::Error ("cannot write to standard output: REASON") when something printed on
// stdout could not be written: a pipe whose reader is gone (SIGPIPE ignored: EPIPE), a redirected
// file past its size limit or disk. Called before a run commits its files.
void check_standard_output();

// The outputs of one run, put in place together when it succeeded. While a StagedOutputs lives,
// write_file_atomically() and write_file_into() on its thread write each file to its temporary
// (errors surface there, as usual) but do not rename it; commit() renames them all (and writes
// those that go to devices), and destruction without commit() removes them. So a run that fails,
// throws or is interrupted by a signal leaves none of its outputs and no temporary files.
class StagedOutputs {
 public:
  StagedOutputs();
  ~StagedOutputs();
  StagedOutputs(const StagedOutputs&) = delete;
  StagedOutputs& operator=(const StagedOutputs&) = delete;

  // Puts every staged file in place, in the order staged, and closes the stage. Throws
  // blurlab::Error naming the file that failed and the files already in place, if any.
  void commit();
  size_t size() const;

  struct Staged;

 private:
  std::vector<std::unique_ptr<Staged>> staged_;
  StagedOutputs* outer_;  // the stage this one hides, restored when it closes
  bool open_ = true;
  friend void write_file_atomically(const std::filesystem::path&, std::string_view, std::string_view);
  friend void write_file_into(const std::filesystem::path&, std::string_view, std::string_view, std::string_view);
};

}  // namespace blurlab
