#include "util/files.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <system_error>
#include <thread>

#include "util/error.h"
#include "util/strings.h"
#include "util/temp_files.h"

namespace blurlab {

namespace fs = std::filesystem;

namespace {

// "a FIFO", "a character device", ...: what stat() says a name is.
std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

std::string not_regular(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a directory";
  return "it is " + kind_of(mode) + ", not a regular file";
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// How a target is written, or why it cannot be.
struct Target {
  enum class Kind { Replace, WriteThrough } kind = Kind::Replace;
  fs::path path;                // Replace: the file to replace (links resolved); WriteThrough: as given
  std::optional<unsigned> mode; // Replace of an existing file: its permission bits, kept
  std::string refusal;          // non-empty: it cannot be written, and why
};

Target refused(std::string why) {
  Target t;
  t.refusal = std::move(why);
  return t;
}

bool under_proc(const fs::path& dir) {
  std::error_code ec;
  const fs::path real = fs::canonical(dir.empty() ? fs::path(".") : dir, ec);
  return !ec && (real == "/proc" || real.string().rfind("/proc/", 0) == 0);
}

std::string read_only(mode_t mode) {
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode & 07777));
  return std::string("it is read-only (mode ") + octal + ")";
}

bool is_plain_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos && name.find('\0') == std::string_view::npos;
}

// The directory a new file would go into must exist and take it.
std::string directory_refusal(const fs::path& file) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return "cannot write into " + quoted(dir) + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return "cannot write into " + quoted(dir) + ": not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return "cannot write into " + quoted(dir) + ": " + std::strerror(errno);
  return {};
}

// Said before lstat() would answer a bare "File name too long".
std::string length_refusal(const fs::path& file) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const size_t length = file.filename().string().size();
  if (name_max > 0 && length > static_cast<size_t>(name_max))
    return "the file name is " + std::to_string(length) + " bytes long; " + quoted(dir) + " allows at most " + std::to_string(name_max);
  if (file.string().size() >= PATH_MAX)
    return "the path is " + std::to_string(file.string().size()) + " bytes long; at most " + std::to_string(PATH_MAX - 1);
  return {};
}

Target classify(const fs::path& given) {
  if (given.empty()) return refused("no file name");
  if (const std::string why = length_refusal(given); !why.empty()) return refused(why);
  struct stat st {};
  if (::stat(given.c_str(), &st) != 0) {  // follows links, /proc's too (/dev/stdout -> pipe:[...])
    const int error = errno;
    if (error != ENOENT) return refused(std::strerror(error));
    if (::lstat(given.c_str(), &st) == 0) {
      std::error_code ec;
      return refused("it is a symbolic link to " + quoted(fs::read_symlink(given, ec)) + ", which does not exist");
    }
    if (const std::string why = directory_refusal(given); !why.empty()) return refused(why);
    Target t;
    t.path = given;
    return t;
  }
  if (S_ISDIR(st.st_mode)) return refused("it is a directory");
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    if (::access(given.c_str(), W_OK) != 0) return refused(std::strerror(errno));
    Target t;
    t.kind = Target::Kind::WriteThrough;
    t.path = given;
    return t;
  }
  if (!S_ISREG(st.st_mode))
    return refused(std::string("it is ") + (S_ISBLK(st.st_mode) ? "a block device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file") +
                   " (blurlab writes files, character devices and FIFOs)");
  // A regular file: follow the links one at a time to the file itself, which is replaced; the links stay.
  fs::path path = given;
  bool through_proc = false;
  for (int hops = 0; ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode); ++hops) {
    std::error_code ec;
    const fs::path next = fs::read_symlink(path, ec);
    if (ec || hops == 40) return refused(ec ? ec.message() : std::strerror(ELOOP));
    through_proc = through_proc || under_proc(path.parent_path());
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  if (through_proc)  // /dev/stdout -> /proc/self/fd/1 -> a file the shell opened: replacing it would cut the shell off
    return refused("it leads through /proc to a file a process has open; name the file itself");
  // By its mode, not only access(): root may write anything, and replaced read-only files.
  if ((st.st_mode & 0222) == 0) return refused(read_only(st.st_mode));
  if (::access(path.c_str(), W_OK) != 0) return refused(std::strerror(errno));  // not ours to write, or immutable (EPERM)
  if (const std::string why = directory_refusal(path); !why.empty()) return refused(why);
  Target t;
  t.path = path;
  t.mode = st.st_mode & 07777;
  return t;
}

// `dir` without a final separator ("out/" -> "out"), so that its parent is what it seems.
fs::path without_trailing_separator(const fs::path& dir) { return dir.has_filename() || !dir.has_parent_path() || dir == dir.root_path() ? dir : dir.parent_path(); }

// Why `dir` cannot be an output directory, or "".
std::string directory_target_refusal(const fs::path& dir) {
  if (dir.empty()) return "no directory name";
  if (const std::string why = length_refusal(dir); !why.empty()) return why;
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {  // follows links: a link to a directory is that directory
    if (!S_ISDIR(st.st_mode)) return "it is " + kind_of(st.st_mode) + ", not a directory";
    // Both: without search (x) permission no file in it can be made, whatever write permission says.
    if (::access(dir.c_str(), W_OK | X_OK) != 0) return std::string("cannot write into it: ") + std::strerror(errno);
    return {};
  }
  const int error = errno;
  if (error != ENOENT) return std::strerror(error);
  if (::lstat(dir.c_str(), &st) == 0) {
    std::error_code ec;
    return "it is a symbolic link to " + quoted(fs::read_symlink(dir, ec)) + ", which does not exist";
  }
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  if (::stat(parent.c_str(), &st) != 0) return "cannot create it in " + quoted(parent) + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return "cannot create it in " + quoted(parent) + ": not a directory";
  if (::access(parent.c_str(), W_OK | X_OK) != 0) return "cannot create it in " + quoted(parent) + ": " + std::strerror(errno);
  return {};
}

std::string cannot_write(const fs::path& path, std::string_view what, const std::string& why) {
  return "cannot write " + (what.empty() ? std::string() : std::string(what) + " ") + quoted(path) + ": " + why;
}

// Writes into a character device or FIFO. Returns why it failed, or "".
std::string write_through(const fs::path& path, std::string_view content) {
  std::fflush(stdout);  // /dev/stdout may be this pipe or terminal: what was printed comes first
  // O_NONBLOCK: a FIFO nobody reads fails now (ENXIO) instead of waiting forever.
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    struct stat st {};
    // ENXIO means "no reader" only for a FIFO; a terminal or device gives it when nothing is behind it.
    if (error == ENXIO && ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode)) return "no process is reading from it";
    return std::strerror(error);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return why;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && errno != EINTR) return std::strerror(errno);
  return {};
}

thread_local StagedOutputs* current_stage = nullptr;

}  // namespace

struct StagedOutputs::Staged {
  fs::path name;                                  // as given, for messages
  std::string what;                               // the option it came from, for messages
  fs::path target;                                // where it goes
  std::unique_ptr<TemporaryFile> temp;            // Replace: written, waiting for its rename
  std::unique_ptr<TemporaryDirectory> directory;  // a new directory: filled, waiting for its rename
  std::string content;                            // WriteThrough: written at commit
  bool remove = false;                            // an earlier output's file the new one replaces by nothing
  // Commit order: devices first (they can fail, /dev/full, where a rename in the same directory
  // hardly can), then new directories, then files, then what goes, so a failure usually comes
  // before any rename, and nothing is removed before the new output is in place.
  int rank() const { return remove ? 3 : temp ? 2 : directory ? 1 : 0; }
};

std::string read_regular_file(const std::filesystem::path& path, uint64_t max_bytes, std::string_view what,
                              const std::function<void(std::string_view head)>& check_head) {
  const auto failure = [&](const std::string& why) {
    return Error("cannot read " + std::string(what) + " '" + path.string() + "': " + why);
  };
  // stat before open: opening some devices has effects of its own (a tape rewinds), and a FIFO
  // would block until a writer comes.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw failure(std::strerror(errno));
  if (!S_ISREG(info.st_mode)) throw failure(not_regular(info.st_mode));
  const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) throw failure(std::strerror(errno));
  // The name may point at something else by now: judge what was opened.
  if (::fstat(fd.get(), &info) != 0) throw failure(std::strerror(errno));
  if (!S_ISREG(info.st_mode)) throw failure(not_regular(info.st_mode));
  const auto too_large = [&](const std::string& size) {
    return failure("it holds " + size + "; at most " + format_bytes(max_bytes) + " is read");
  };
  if (static_cast<uint64_t>(info.st_size) > max_bytes) throw too_large(format_bytes(static_cast<uint64_t>(info.st_size)));

  // Reads until `bytes` is full (true: there may be more) or the file ends (false).
  std::string bytes;
  size_t filled = 0;
  const auto fill = [&] {
    while (filled < bytes.size()) {
      const ssize_t n = ::read(fd.get(), bytes.data() + filled, bytes.size() - filled);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw failure(std::strerror(errno));
      if (n == 0) return false;
      filled += static_cast<size_t>(n);
    }
    return true;
  };
  const uint64_t limit = max_bytes + 1;  // one byte more tells a file that grew past the limit
  bytes.resize(static_cast<size_t>(std::min<uint64_t>(kFileHeadBytes, limit)));
  bool more = fill();
  if (check_head) check_head(std::string_view(bytes.data(), std::min(filled, kFileHeadBytes)));
  // Room for the size stat reported (0 in /proc) and the end of file, then doubling, never
  // beyond the limit.
  const uint64_t first = std::max<uint64_t>(static_cast<uint64_t>(info.st_size) + 1, 64 * 1024);
  while (more && bytes.size() < limit) {
    bytes.resize(static_cast<size_t>(std::min(limit, std::max<uint64_t>(first, bytes.size() * 2))));
    more = fill();
  }
  if (filled > max_bytes) throw too_large("more than " + format_bytes(max_bytes));  // it grew, or /proc
  bytes.resize(filled);
  return bytes;
}

void check_output_target(const fs::path& path, std::string_view what) {
  const Target t = classify(path);
  if (!t.refusal.empty()) throw Error(std::string(what) + " " + quoted(path) + ": " + t.refusal);
}

std::optional<fs::path> file_to_replace(const fs::path& path, std::string_view what) {
  const Target t = classify(path);
  if (!t.refusal.empty()) throw Error(std::string(what) + " " + quoted(path) + ": " + t.refusal);
  if (t.kind == Target::Kind::WriteThrough) return std::nullopt;
  return t.path;
}

void check_distinct_outputs(const std::vector<std::pair<fs::path, std::string>>& outputs) {
  // What a name stands for: an existing file or directory by its inode (links and hard links
  // meet there), a new one by its absolute path with the links of its directories resolved.
  const auto identity = [](const fs::path& path) -> std::optional<std::string> {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
      if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return std::nullopt;  // written through
      return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    }
    std::error_code ec;
    const fs::path full = fs::weakly_canonical(fs::absolute(without_trailing_separator(path), ec), ec);
    return "path " + (ec ? path.lexically_normal().string() : full.string());
  };
  std::vector<std::pair<std::string, size_t>> seen;  // identity, index in outputs
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto id = identity(outputs[i].first);
    if (!id) continue;
    for (const auto& [other_id, j] : seen)
      if (other_id == *id)
        throw UsageError(outputs[i].second + " " + quoted(outputs[i].first) + " is the same file as " + outputs[j].second + " " +
                         quoted(outputs[j].first) + ": each output needs a file of its own");
    seen.emplace_back(*id, i);
  }
}

namespace {

struct Identity {
  dev_t device;
  ino_t inode;
  bool operator==(const Identity&) const = default;
};

// The file a name stands for (links followed), if it exists.
std::optional<Identity> identity_of(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return Identity{st.st_dev, st.st_ino};
}

// Where a name is, its directories' links resolved (it need not exist).
fs::path location_of(const fs::path& path) {
  std::error_code ec;
  const fs::path full = fs::weakly_canonical(fs::absolute(without_trailing_separator(path), ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : full;
}

bool is_inside(const fs::path& path, const fs::path& dir) {
  const auto [end, at] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
  return end == dir.end();
}

// An output folder holds a few dozen files; anything far larger is not an output of ours.
constexpr size_t kMaxFolderEntries = 4096;
constexpr uint64_t kMaxIndexBytes = 16 << 20;
// Reading a directory of inputs (--shader-dir) to learn its files' identities stops here.
constexpr size_t kMaxInputDirectoryEntries = 100000;

}  // namespace

void check_outputs_spare_inputs(const NamedPaths& outputs, const NamedPaths& folders, const NamedPaths& inputs,
                                const NamedPaths& input_directories) {
  // Every file the run may read, by identity: the input files and the files of the input directories.
  std::vector<std::pair<Identity, std::string>> read;  // identity, its name for messages
  for (const auto& [path, option] : inputs)
    if (const auto id = identity_of(path)) read.emplace_back(*id, option + " " + quoted(path));
  for (const auto& [dir, option] : input_directories) {
    std::error_code ec;
    size_t seen = 0;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end && seen < kMaxInputDirectoryEntries; it.increment(ec), ++seen)
      if (const auto id = identity_of(it->path())) read.emplace_back(*id, option + " file " + quoted(it->path()));
  }
  const auto refuse_if_read = [&](const fs::path& target, const std::string& output) {
    if (const auto id = identity_of(target))
      for (const auto& [input, name] : read)
        if (*id == input) throw UsageError(output + " is the same file as " + name + ": an output never replaces a file the run reads");
  };
  const auto refuse_if_inside = [&](const fs::path& path, const std::string& output, const fs::path* itself) {
    const fs::path where = location_of(path);
    for (const auto& [dir, option] : input_directories)
      if (is_inside(where, location_of(dir)))
        throw UsageError(output + " is inside " + option + " " + quoted(dir) + ": an output never goes among the files the run reads");
    for (const auto& [folder, option] : folders)
      if (&folder != itself && is_inside(where, location_of(folder)))
        throw UsageError(output + " is inside " + option + " " + quoted(folder) + ": an output folder holds its own output alone");
  };
  for (const auto& [path, option] : outputs) {
    const Target t = classify(path);  // the file a link leads to (a refused one is refused by its own check)
    if (t.kind == Target::Kind::WriteThrough) continue;  // a device or FIFO: nothing is replaced
    const fs::path target = t.refusal.empty() ? t.path : path;
    const std::string output = option + " " + quoted(path);
    refuse_if_read(target, output);
    refuse_if_inside(target, output, nullptr);
  }
  for (const auto& [folder, option] : folders) {
    refuse_if_inside(folder, option + " " + quoted(folder), &folder);
    std::error_code ec;
    size_t seen = 0;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end && seen < kMaxFolderEntries; it.increment(ec), ++seen)
      refuse_if_read(it->path(), option + " " + quoted(it->path()));
  }
}

DirectoryLock::DirectoryLock(const fs::path& dir, std::string_view what, double timeout_s) {
  const fs::path name = dir.empty() ? fs::path(".") : dir;
  fd_ = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw Error(std::string(what) + ": cannot lock " + quoted(name) + ": " + std::strerror(errno));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EINTR) continue;
    if (error != EWOULDBLOCK || std::chrono::steady_clock::now() > deadline) {
      ::close(fd_);
      throw Error(std::string(what) + ": cannot lock " + quoted(name) + ": " +
                  (error == EWOULDBLOCK ? "another process held it for " + format_double(timeout_s) + " s" : std::strerror(error)));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

namespace {

// The earlier output's files as its index lists them (the index first), each a plain name.
std::vector<std::string> earlier_output_files(const fs::path& dir, const OutputFolderKind& kind) {
  std::vector<std::string> files{kind.index};
  for (const std::string& name : kind.listed(read_regular_file(dir / kind.index, kMaxIndexBytes, kind.option))) {
    if (!is_plain_name(name)) throw Error("it lists '" + name + "', which is no file of its folder");
    if (std::find(files.begin(), files.end(), name) == files.end()) files.push_back(name);
  }
  return files;
}

}  // namespace

std::vector<std::string> check_output_directory(const fs::path& given, const OutputFolderKind& kind) {
  const fs::path dir = without_trailing_separator(given);
  const auto refusal = [&](const fs::path& path, const std::string& why) { return Error(kind.option + " " + quoted(path) + ": " + why); };
  if (const std::string why = directory_target_refusal(dir); !why.empty()) throw refusal(given, why);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return {};  // a new folder, made whole at the commit
  const std::string rule = "blurlab writes into an empty folder or over its own earlier " + kind.name;
  std::vector<std::string> entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(it->path().filename().string());
    if (entries.size() > kMaxFolderEntries)
      throw refusal(given, "it holds more than " + std::to_string(kMaxFolderEntries) + " entries; " + rule);
  }
  if (ec) throw refusal(given, ec.message());
  if (entries.empty()) return {};
  std::sort(entries.begin(), entries.end());
  // A temporary an earlier run could not remove (killed by SIGKILL, a power cut) is blurlab's own:
  // said so, rather than taken for a file of someone else's.
  for (const std::string& entry : entries)
    if (is_temporary_name(entry))
      throw refusal(dir / entry, "a temporary file of an earlier blurlab run that was killed before it could remove it (SIGKILL, a "
                                 "power cut): blurlab's own, safe to remove; " + rule);
  // Each entry as itself (lstat): a link is never followed, whatever it points to.
  for (const std::string& entry : entries) {
    struct stat es {};
    if (::lstat((dir / entry).c_str(), &es) != 0) throw refusal(dir / entry, std::strerror(errno));
    if (!S_ISREG(es.st_mode))
      throw refusal(dir / entry, (S_ISLNK(es.st_mode) ? std::string("it is a symbolic link") : "it is " + kind_of(es.st_mode)) +
                                     ", not a file an earlier " + kind.name + " wrote; " + rule);
  }
  // A kind without an index (program dumps) cannot tell its earlier files from others: an empty folder only.
  if (kind.index.empty()) throw refusal(given, "it holds " + quoted(fs::path(entries.front())) + "; blurlab writes " + kind.name + " into an empty folder");
  if (std::find(entries.begin(), entries.end(), kind.index) == entries.end())
    throw refusal(given, "it holds " + quoted(fs::path(entries.front())) + " and no " + kind.index + " of an earlier " + kind.name + "; " + rule);
  std::vector<std::string> earlier;
  try {
    earlier = earlier_output_files(dir, kind);
  } catch (const Error& e) {
    throw refusal(dir / kind.index, "it is not the " + kind.index + " of an earlier " + kind.name + " (" + e.what() + "); " + rule);
  }
  for (const std::string& entry : entries) {
    if (std::find(earlier.begin(), earlier.end(), entry) == earlier.end())
      throw refusal(dir / entry, "the earlier " + kind.name + " there does not list it in its " + kind.index + "; " + rule);
    // Each one is replaced or removed at the end of the run: one that cannot be (read-only,
    // immutable) is refused now, not after the timed run.
    check_output_target(dir / entry, kind.option);
  }
  return earlier;
}

void remove_earlier_output(const fs::path& given, const OutputFolderKind& kind, const std::vector<std::string>& written) {
  if (!current_stage) throw std::logic_error("remove_earlier_output: no StagedOutputs open");
  const fs::path dir = without_trailing_separator(given);
  struct stat st {};
  struct stat index {};
  if (::stat(dir.c_str(), &st) != 0 || ::lstat((dir / kind.index).c_str(), &index) != 0) return;  // a new or empty folder
  for (const std::string& name : earlier_output_files(dir, kind)) {
    if (std::find(written.begin(), written.end(), name) != written.end()) continue;
    auto staged = std::make_unique<StagedOutputs::Staged>();
    staged->name = dir / name;
    staged->what = kind.option;
    staged->target = dir / name;
    staged->remove = true;
    current_stage->staged_.push_back(std::move(staged));
  }
}

void write_file_atomically(const fs::path& path, std::string_view content, std::string_view what) {
  const Target t = classify(path);
  if (!t.refusal.empty()) throw Error(cannot_write(path, what, t.refusal));
  try {
    auto staged = std::make_unique<StagedOutputs::Staged>();
    staged->name = path;
    staged->what = what;
    staged->target = t.path;
    if (t.kind == Target::Kind::WriteThrough) {
      if (!current_stage) {
        if (const std::string why = write_through(t.path, content); !why.empty()) throw Error(cannot_write(path, what, why));
        return;
      }
      staged->content = content;
    } else {
      staged->temp = std::make_unique<TemporaryFile>(t.path.has_parent_path() ? t.path.parent_path() : fs::path("."));
      if (t.mode) staged->temp->set_mode(*t.mode);
      staged->temp->write_and_close(content);
      if (!current_stage) return staged->temp->rename_to(t.path);
    }
    current_stage->staged_.push_back(std::move(staged));
  } catch (const std::system_error& e) {
    throw Error(cannot_write(path, what, e.code().message()));
  }
}

void write_file_into(const fs::path& given, std::string_view name, std::string_view content, std::string_view what) {
  if (name.empty() || name.find('/') != std::string_view::npos || name == "." || name == "..")
    throw std::logic_error("write_file_into: '" + std::string(name) + "' is not a plain file name");
  if (!current_stage) {  // one file, put in place at once
    StagedOutputs alone;
    write_file_into(given, name, content, what);
    alone.commit();
    return;
  }
  const fs::path dir = without_trailing_separator(given);
  try {
    for (const auto& s : current_stage->staged_)
      if (s->directory && s->name == dir) return s->directory->write_file(name, content);
    if (const std::string why = directory_target_refusal(dir); !why.empty()) throw Error(std::string(what) + " " + quoted(given) + ": " + why);
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
      // It exists (a directory): the file is created beside its name and renamed onto the name
      // itself at the commit, which replaces a regular file there and never follows a link.
      const fs::path path = dir / std::string(name);
      if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
          throw Error(cannot_write(path, what, (S_ISLNK(st.st_mode) ? std::string("it is a symbolic link") : "it is " + kind_of(st.st_mode)) +
                                                   " (in an output folder blurlab replaces only files)"));
        if ((st.st_mode & 0222) == 0) throw Error(cannot_write(path, what, read_only(st.st_mode)));
      }
      auto staged = std::make_unique<StagedOutputs::Staged>();
      staged->name = path;
      staged->what = what;
      staged->target = path;
      staged->temp = std::make_unique<TemporaryFile>(dir);
      staged->temp->write_and_close(content);
      current_stage->staged_.push_back(std::move(staged));
      return;
    }
    auto staged = std::make_unique<StagedOutputs::Staged>();
    staged->name = dir;
    staged->what = what;
    staged->target = dir;
    staged->directory = std::make_unique<TemporaryDirectory>(dir.has_parent_path() ? dir.parent_path() : fs::path("."));
    staged->directory->write_file(name, content);
    current_stage->staged_.push_back(std::move(staged));
  } catch (const std::system_error& e) {
    throw Error(cannot_write(dir / std::string(name), what, e.code().message()));
  }
}

void check_standard_output() {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return;
  // After a failed write stdio may hold nothing more to flush, and errno is gone: ask the descriptor.
  // A pipe whose reader is gone says so to poll(); a device answers a write of nothing with its
  // error (/dev/full: ENOSPC); a file says what its file system has left.
  std::string why = error != 0 ? std::strerror(error) : "";
  if (why.empty()) {
    struct pollfd fd {STDOUT_FILENO, POLLOUT, 0};
    struct stat st {};
    struct statvfs fs {};
    if (::poll(&fd, 1, 0) == 1 && (fd.revents & POLLERR)) why = std::strerror(EPIPE);
    else if (::write(STDOUT_FILENO, "", 0) < 0) why = std::strerror(errno);
    else if (::fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) && ::fstatvfs(STDOUT_FILENO, &fs) == 0 && fs.f_bavail == 0)
      why = std::strerror(ENOSPC);
    else why = "a write failed";
  }
  throw Error("cannot write to standard output: " + why);
}

StagedOutputs::StagedOutputs() : outer_(current_stage) { current_stage = this; }

StagedOutputs::~StagedOutputs() {
  if (open_) current_stage = outer_;
  // staged_ goes with its TemporaryFiles: whatever was not committed is removed.
}

size_t StagedOutputs::size() const { return staged_.size(); }

void StagedOutputs::commit() {
  if (!open_) throw std::logic_error("StagedOutputs::commit() called twice");
  open_ = false;
  current_stage = outer_;
  std::string done;
  for (const int rank : {0, 1, 2, 3})  // Staged::rank()
    for (const auto& s : staged_) {
      if (s->rank() != rank) continue;
      std::string why;
      try {
        struct stat st {};
        if (s->remove) {
          // Only a regular file of the earlier output goes; one already gone is gone.
          if (::lstat(s->target.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::unlink(s->target.c_str()) != 0 && errno != ENOENT)
            why = std::strerror(errno);
        } else if (s->temp)
          s->temp->rename_to(s->target);
        else if (s->directory)
          s->directory->rename_to(s->target);
        else
          why = write_through(s->target, s->content);
      } catch (const std::system_error& e) {
        why = e.code().message();
      }
      if (!why.empty()) throw Error(cannot_write(s->name, s->what, why + (done.empty() ? "" : " (already written: " + done + ")")));
      done += (done.empty() ? "" : ", ") + s->name.string();
    }
  staged_.clear();
}

}  // namespace blurlab
