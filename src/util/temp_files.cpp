#include "util/temp_files.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
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
enum SlotState : int { kFree, kClaimed, kLive };
constexpr int kSlots = 64;
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
std::array<Slot, kSlots> registry;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the registry");

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  const int saved_errno = errno;
  for (Slot& slot : registry)
    if (slot.state.load(std::memory_order_acquire) == kLive) ::unlink(slot.path);
  errno = saved_errno;
  // SA_RESETHAND restored the default action; the signal is blocked until this handler returns,
  // then delivered again and ends the process the way it would have without us.
  ::raise(signal_number);
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int s : kCleanupSignals) {
      struct sigaction current {};
      if (::sigaction(s, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;  // someone else's, or ignored
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESETHAND;
      ::sigaction(s, &action, nullptr);
    }
  });
}

int claim_slot(const std::string& path) {
  if (path.size() >= PATH_MAX) throw std::system_error(ENAMETOOLONG, std::generic_category());
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (registry[i].state.compare_exchange_strong(expected, kClaimed, std::memory_order_acq_rel)) {
      std::memcpy(registry[i].path, path.c_str(), path.size() + 1);
      registry[i].state.store(kLive, std::memory_order_release);
      return i;
    }
  }
  throw std::system_error(EMFILE, std::generic_category(), "more than 64 temporary files at once");
}

void release_slot(int slot) {
  registry[slot].state.store(kClaimed, std::memory_order_release);
  registry[slot].path[0] = '\0';
  registry[slot].state.store(kFree, std::memory_order_release);
}

std::string random_suffix() {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static thread_local std::mt19937_64 engine{std::random_device{}() ^ (static_cast<uint64_t>(::getpid()) << 32)};
  std::string suffix(8, ' ');
  for (char& c : suffix) c = kAlphabet[engine() % (sizeof kAlphabet - 1)];
  return suffix;
}

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

}  // namespace

TemporaryFile::TemporaryFile(const std::filesystem::path& dir) {
  install_handlers_once();
  for (int attempt = 0; attempt < 100; ++attempt) {
    path_ = dir / (".blurlab-" + random_suffix() + ".tmp");
    // Listed before it exists, so no signal can come between its creation and its listing.
    slot_ = claim_slot(path_.string());
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) return;
    const int error = errno;
    release_slot(slot_);
    slot_ = -1;
    if (error != EEXIST) throw std::system_error(error, std::generic_category());
  }
  throw std::system_error(EEXIST, std::generic_category(), "no unused temporary file name");
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (slot_ >= 0) {
    ::unlink(path_.c_str());
    release_slot(slot_);
  }
}

void TemporaryFile::write_and_close(std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd_, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write");
    done += static_cast<size_t>(n);
  }
  // On the disk before the rename: a crash after it must not leave an empty file in its place.
  if (::fsync(fd_) != 0 && errno != EINVAL) fail("fsync");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close");
}

void TemporaryFile::set_mode(unsigned mode) {
  if (::chmod(path_.c_str(), static_cast<mode_t>(mode)) != 0) fail("chmod");
}

void TemporaryFile::rename_to(const std::filesystem::path& target) {
  if (::rename(path_.c_str(), target.c_str()) != 0) fail("rename");
  release_slot(slot_);
  slot_ = -1;
}

int live_temporary_files() {
  int n = 0;
  for (const Slot& slot : registry) n += slot.state.load(std::memory_order_acquire) == kLive;
  return n;
}

}  // namespace blurlab
