#include "util/temp_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <random>
#include <system_error>

namespace blurlab {

namespace {

// The registry, readable from a signal handler: fixed slots, lock-free atomics, no allocation.
// A slot is Free, Claimed (its path being written or erased: the handler skips it) or Live.
// 1024 slots of PATH_MAX bytes: 4 MiB of address space, touched only as far as slots are used.
enum SlotState : int { kFree, kClaimed, kLive };
constexpr int kSlots = 1024;
struct Slot {
  std::atomic<int> state{kFree};
  bool directory = false;
  char path[PATH_MAX];
};
std::array<Slot, kSlots> registry;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the registry");

constexpr int kChildSlots = 8;
std::array<std::atomic<pid_t>, kChildSlots> child_groups{};
static_assert(std::atomic<pid_t>::is_always_lock_free, "the signal handler reads the child groups");

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};

// Removes `name` (relative to the directory `at`) and, when it is a directory, what it holds, at
// most 8 levels deep. Async-signal-safe: no allocation, getdents64 into a buffer on the stack.
void remove_tree_at(int at, const char* name, int depth) {
  if (::unlinkat(at, name, 0) == 0 || errno != EISDIR) return;
  const int fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    alignas(struct dirent64) char buffer[2048];
    // Entries move while they are removed: read from the start again until a pass finds none.
    for (int pass = 0, found = 1; found > 0 && pass < 16; ++pass) {
      found = 0;
      ::lseek(fd, 0, SEEK_SET);
      for (ssize_t n; (n = ::getdents64(fd, buffer, sizeof buffer)) > 0;)
        for (ssize_t offset = 0; offset < n;) {
          const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + offset);
          offset += entry->d_reclen;
          const char* child = entry->d_name;
          if (child[0] == '.' && (child[1] == '\0' || (child[1] == '.' && child[2] == '\0'))) continue;
          ++found;
          if (depth < 8) remove_tree_at(fd, child, depth + 1);
          else ::unlinkat(fd, child, 0);
        }
    }
    ::close(fd);
  }
  ::unlinkat(at, name, AT_REMOVEDIR);
}

extern "C" void clean_up_and_reraise(int signal_number) {
  const int saved_errno = errno;
  // Children first: they may be writing into a temporary directory.
  for (auto& group : child_groups)
    if (const pid_t g = group.load(std::memory_order_acquire); g > 0) {
      ::kill(-g, SIGKILL);
      ::waitpid(g, nullptr, 0);
    }
  for (Slot& slot : registry)
    if (slot.state.load(std::memory_order_acquire) == kLive) {
      if (slot.directory) remove_tree_at(AT_FDCWD, slot.path, 0);
      else ::unlink(slot.path);
    }
  errno = saved_errno;
  // SA_RESETHAND restored the default action; the signal is blocked until this handler returns,
  // then delivered again and ends the process the way it would have without us.
  ::raise(signal_number);
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = clean_up_and_reraise;
    sigemptyset(&action.sa_mask);
    for (int s : kCleanupSignals) sigaddset(&action.sa_mask, s);  // one cleanup at a time
    action.sa_flags = SA_RESETHAND;
    for (int s : kCleanupSignals) {
      struct sigaction current {};
      if (::sigaction(s, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;  // someone else's, or ignored
      ::sigaction(s, &action, nullptr);
    }
  });
}

int claim_slot(const std::string& path, bool directory) {
  install_handlers_once();
  if (path.size() >= PATH_MAX) throw std::system_error(ENAMETOOLONG, std::generic_category());
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (registry[i].state.compare_exchange_strong(expected, kClaimed, std::memory_order_acq_rel)) {
      std::memcpy(registry[i].path, path.c_str(), path.size() + 1);
      registry[i].directory = directory;
      registry[i].state.store(kLive, std::memory_order_release);
      return i;
    }
  }
  throw std::system_error(EMFILE, std::generic_category(), "more than 1024 temporary files at once");
}

void release_slot(int slot) {
  registry[slot].state.store(kClaimed, std::memory_order_release);
  registry[slot].path[0] = '\0';
  registry[slot].state.store(kFree, std::memory_order_release);
}

constexpr std::string_view kTemporaryPrefix = ".blurlab-", kTemporarySuffix = ".tmp";
constexpr size_t kSuffixLength = 8;

std::string random_suffix() {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static thread_local std::mt19937_64 engine{std::random_device{}() ^ (static_cast<uint64_t>(::getpid()) << 32)};
  std::string suffix(kSuffixLength, ' ');
  for (char& c : suffix) c = kAlphabet[engine() % (sizeof kAlphabet - 1)];
  return suffix;
}

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

// Creates a uniquely named temporary in `dir` with `make` (which returns false with errno set),
// listed before it exists, so no signal can come between its creation and its listing. Returns
// the path and the registry slot.
template <typename Make>
std::pair<std::filesystem::path, int> create_listed(const std::filesystem::path& dir, bool directory, const Make& make) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::filesystem::path path = dir / (std::string(kTemporaryPrefix) + random_suffix() + std::string(kTemporarySuffix));
    const int slot = claim_slot(path.string(), directory);
    if (make(path)) return {std::move(path), slot};
    const int error = errno;
    release_slot(slot);
    if (error != EEXIST) throw std::system_error(error, std::generic_category());
  }
  throw std::system_error(EEXIST, std::generic_category(), "no unused temporary file name");
}

// Writes all of `content` to `fd`, flushes it to the disk and closes it. Throws std::system_error.
void write_all_and_close(int fd, std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw std::system_error(error, std::generic_category(), "write");
    }
    done += static_cast<size_t>(n);
  }
  // On the disk before the rename: a crash after it must not leave an empty file in its place.
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int error = errno;
    ::close(fd);
    throw std::system_error(error, std::generic_category(), "fsync");
  }
  if (::close(fd) != 0) fail("close");
}

}  // namespace

TemporaryFile::TemporaryFile(const std::filesystem::path& dir) {
  std::tie(path_, slot_) = create_listed(dir, false, [&](const std::filesystem::path& path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    return fd_ >= 0;
  });
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (slot_ >= 0) {
    ::unlink(path_.c_str());
    release_slot(slot_);
  }
}

void TemporaryFile::write_and_close(std::string_view content) {
  const int fd = fd_;
  fd_ = -1;
  write_all_and_close(fd, content);
}

void TemporaryFile::set_mode(unsigned mode) {
  if (::chmod(path_.c_str(), static_cast<mode_t>(mode)) != 0) fail("chmod");
}

void TemporaryFile::rename_to(const std::filesystem::path& target) {
  if (::rename(path_.c_str(), target.c_str()) != 0) fail("rename");
  release_slot(slot_);
  slot_ = -1;
}

TemporaryDirectory::TemporaryDirectory(const std::filesystem::path& parent, unsigned mode) {
  std::tie(path_, slot_) = create_listed(parent, true, [&](const std::filesystem::path& path) {
    return ::mkdir(path.c_str(), static_cast<mode_t>(mode)) == 0;
  });
}

TemporaryDirectory::~TemporaryDirectory() {
  if (slot_ < 0) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  release_slot(slot_);  // after the removal: a signal during it still finds the directory listed
}

void TemporaryDirectory::write_file(std::string_view name, std::string_view content) {
  const std::filesystem::path path = path_ / name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) fail("open");
  write_all_and_close(fd, content);
}

void TemporaryDirectory::rename_to(const std::filesystem::path& target) {
  if (::rename(path_.c_str(), target.c_str()) != 0) fail("rename");
  release_slot(slot_);
  slot_ = -1;
}

ChildGroupListing::ChildGroupListing(pid_t group) {
  install_handlers_once();
  for (int i = 0; i < kChildSlots; ++i) {
    pid_t expected = 0;
    if (child_groups[i].compare_exchange_strong(expected, group, std::memory_order_acq_rel)) {
      slot_ = i;
      return;
    }
  }
  throw std::system_error(EAGAIN, std::generic_category(), "more than 8 child processes at once");
}

ChildGroupListing::~ChildGroupListing() {
  if (slot_ >= 0) child_groups[slot_].store(0, std::memory_order_release);
}

int live_temporary_files() {
  int n = 0;
  for (const Slot& slot : registry) n += slot.state.load(std::memory_order_acquire) == kLive;
  return n;
}

bool is_temporary_name(std::string_view name) {
  if (name.size() != kTemporaryPrefix.size() + kSuffixLength + kTemporarySuffix.size() || name.substr(0, kTemporaryPrefix.size()) != kTemporaryPrefix ||
      name.substr(name.size() - kTemporarySuffix.size()) != kTemporarySuffix)
    return false;
  const std::string_view suffix = name.substr(kTemporaryPrefix.size(), kSuffixLength);
  return std::all_of(suffix.begin(), suffix.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace blurlab
