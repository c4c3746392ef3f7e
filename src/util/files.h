#pragma once
// Reading input files that may be hostile, and writing output files whole or not at all.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

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

// Output files are written whole or not at all: into a temporary file beside the target, then
// renamed over it. A failure leaves no file (and the old one, if any, untouched).
// Throws blurlab::Error with one line naming the file and the reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Fails early (blurlab::Error, exit 1) when a file an option names could not be written at the
// end: its directory is missing or not writable, or it is a directory. Empty: nothing to check.
void check_writable(const std::filesystem::path& path, std::string_view option);

}  // namespace blurlab
