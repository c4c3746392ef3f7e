#pragma once
// What must not outlive the run that made it: temporary files (an output is written to one beside
// its target, then renamed over it), temporary directories (a new output directory staged whole,
// or a child process's private workspace) and child process groups. Each is listed in a
// process-wide registry while it exists; a handler for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE
// and SIGXFSZ kills every listed process group, removes every listed file and directory (with
// what it holds) and re-raises the signal, so an interrupted run dies as it would have, minus its
// temporaries and children. (The handler is installed with the first entry, for the signals
// whose disposition is still the default: an ignored SIGHUP stays ignored, and a program that
// ignores SIGPIPE and SIGXFSZ gets errors from write() instead, EPIPE and EFBIG.)
#include <sys/types.h>

#include <filesystem>
#include <string_view>

namespace blurlab {

// Whether `name` (a plain file name) is one TemporaryFile or TemporaryDirectory gives: what a run
// killed before it could remove its temporaries (SIGKILL, a power cut) leaves behind.
bool is_temporary_name(std::string_view name);

class TemporaryFile {
 public:
  // A new empty file in `dir` with a short unique name (".blurlab-XXXXXXXX.tmp"), created with
  // mode 0666 less the umask. Throws std::system_error with the reason.
  explicit TemporaryFile(const std::filesystem::path& dir);
  ~TemporaryFile();  // removes the file unless it was renamed into place
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes all of `content`, flushes it to the disk and closes the file. Throws std::system_error.
  void write_and_close(std::string_view content);
  // Gives the file the permission bits `mode` (an existing target's, so replacing keeps them).
  void set_mode(unsigned mode);
  // Renames the file over `target`; from then on it is no longer temporary. Throws std::system_error.
  void rename_to(const std::filesystem::path& target);

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  int slot_ = -1;     // in the registry; -1 once renamed or removed
};

class TemporaryDirectory {
 public:
  // A new empty directory in `parent` (".blurlab-XXXXXXXX.tmp") with the permission bits `mode`
  // less the umask: 0777 for an output directory, 0700 for a private one. Throws std::system_error.
  explicit TemporaryDirectory(const std::filesystem::path& parent, unsigned mode = 0777);
  ~TemporaryDirectory();  // removes it and everything in it, unless it was renamed into place
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes a new file NAME (a plain name) in it: whole, flushed to the disk. Throws std::system_error.
  void write_file(std::string_view name, std::string_view content);
  // Renames the directory to `target` (which must not exist, or be an empty directory); from then
  // on it is no longer temporary. Throws std::system_error.
  void rename_to(const std::filesystem::path& target);

 private:
  std::filesystem::path path_;
  int slot_ = -1;
};

// A child process group (its leader's pid) the handler kills with SIGKILL, and waits for, before
// it removes the temporaries the child may be writing into. Listed from construction to destruction.
class ChildGroupListing {
 public:
  explicit ChildGroupListing(pid_t group);
  ~ChildGroupListing();
  ChildGroupListing(const ChildGroupListing&) = delete;
  ChildGroupListing& operator=(const ChildGroupListing&) = delete;

 private:
  int slot_ = -1;
};

// How many temporary files and directories exist now in this process (for tests).
int live_temporary_files();

}  // namespace blurlab
