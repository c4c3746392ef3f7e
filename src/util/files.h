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

// Throws UsageError before any work when an output would write over, or remove, what the run reads:
// one of `inputs` (files: --image, --tuned, a --radius-map file), compared by identity (device and
// inode: links resolved, hard links too), or a file in or below one of `input_directories`
// (--shader-dir). `outputs` are files (the file a link leads to is the one replaced) and `folders`
// output folders (every file in one may be replaced or removed). An output file or folder inside an
// output folder is refused too: the folder would then hold more than its own output.
using NamedPaths = std::vector<std::pair<std::filesystem::path, std::string>>;
void check_outputs_spare_inputs(const NamedPaths& outputs, const NamedPaths& folders, const NamedPaths& inputs,
                                const NamedPaths& input_directories);

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

// An output folder (--report, --export) holds the files of one output of its kind and nothing else:
// an existing one is replaced file by file, so what it held must be known before the run. An
// earlier output says what it wrote in its index (recipe.json, report.md), which `listed` reads.
struct OutputFolderKind {
  std::string option;  // "--export": messages name it
  std::string name;    // "export": what an earlier one is called in messages
  std::string index;   // the file that lists the others: "recipe.json"; none: only an empty folder is written into
  // The other files an earlier output of this kind wrote (plain names), from its index's text;
  // throws blurlab::Error when the text is no such index.
  std::function<std::vector<std::string>(std::string_view index_text)> listed;
};

// An output folder is a directory to write into (a link to one is followed: the user named it), or
// does not exist and its parent is a directory to write into. An existing one must be empty, or
// hold an earlier output of its kind and nothing else: its index and the files it lists, each a
// regular file. A link, FIFO, device or directory in it, or a file no earlier output of ours wrote,
// is refused before any work (a link planted there had its target replaced, outside the folder;
// an earlier export's shaders stayed beside a new recipe). Throws blurlab::Error "OPTION 'PATH':
// REASON". Returns the earlier output's files (its index first), which the new one replaces.
std::vector<std::string> check_output_directory(const std::filesystem::path& dir, const OutputFolderKind& kind);

// After a run wrote its files into `dir` (write_file_into): the files of the earlier output there
// that it did not write again are removed at the commit, so the folder holds the new output alone.
void remove_earlier_output(const std::filesystem::path& dir, const OutputFolderKind& kind, const std::vector<std::string>& written);

// Throws blurlab::Error with one line: "cannot write WHAT 'PATH': REASON" (`what` names the option
// the file came from, e.g. "--csv"; may be empty). While a StagedOutputs is open on this thread,
// the file is only staged (see below).
void write_file_atomically(const std::filesystem::path& path, std::string_view content, std::string_view what = {});

// DIR/NAME (NAME a plain file name) written whole, DIR made when missing. Under a StagedOutputs a
// missing DIR is a temporary directory beside it until commit() renames it into place, so a new
// directory appears whole or not at all. In an existing DIR the file is created, or replaces a
// regular file of that name (check_output_directory() allowed only its kind's own): the name itself,
// never what a link there points to, and never written through (a link, a FIFO, a device there is
// refused).
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
  friend void remove_earlier_output(const std::filesystem::path&, const OutputFolderKind&, const std::vector<std::string>&);
};

}  // namespace blurlab
