#include "util/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "util/error.h"
#include "util/strings.h"

namespace blurlab {

namespace {

std::string not_regular(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a directory";
  if (S_ISFIFO(mode)) return "it is a FIFO, not a regular file";
  if (S_ISCHR(mode)) return "it is a character device, not a regular file";
  if (S_ISBLK(mode)) return "it is a block device, not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  return "it is not a regular file";
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

}  // namespace

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
    return failure("it holds " + size + "; blurlab reads at most " + format_bytes(max_bytes));
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

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  const std::string name = path.string();
  std::error_code ec;
  if (path.empty()) throw Error("cannot write '': no file name");
  if (std::filesystem::is_directory(path, ec)) throw Error("cannot write '" + name + "': it is a directory");
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir, ec)) throw Error("cannot write '" + name + "': no such directory '" + dir.string() + "'");
  const std::filesystem::path temp = dir / ("." + path.filename().string() + "." + std::to_string(::getpid()) + ".partial");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write '" + name + "': " + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      const std::string why = std::strerror(errno);
      out.close();
      std::filesystem::remove(temp, ec);
      throw Error("cannot write '" + name + "': " + why);
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw Error("cannot write '" + name + "': " + ec.message());
  }
}

void check_writable(const std::filesystem::path& path, std::string_view option) {
  if (path.empty()) return;
  const std::string name = path.string();
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(std::string(option) + " '" + name + "' is a directory");
  if (!std::filesystem::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0)
    throw Error(std::string(option) + " '" + name + "': cannot write into '" + dir.string() + "'");
}

}  // namespace blurlab
