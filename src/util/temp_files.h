#pragma once
// Temporary files that must not outlive the run that made them: an output is written to one
// beside its target, then renamed over it. Each TemporaryFile is listed in a process-wide
// registry while it exists; a handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT removes every
// listed file and re-raises the signal, so an interrupted run dies as it would have, minus its
// temporaries. (The handler is installed with the first temporary, for the signals whose
// disposition is still the default: an ignored SIGHUP stays ignored.)
#include <filesystem>
#include <string_view>

namespace blurlab {

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

// How many TemporaryFiles exist now in this process (for tests).
int live_temporary_files();

}  // namespace blurlab
