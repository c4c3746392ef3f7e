#pragma once
// Output files are written whole or not at all: into a temporary file beside the target, then
// renamed over it. A failure leaves no file (and the old one, if any, untouched).
#include <filesystem>
#include <string_view>

namespace blurlab {

// Throws blurlab::Error with one line naming the file and the reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Fails early (blurlab::Error, exit 1) when a file an option names could not be written at the
// end: its directory is missing or not writable, or it is a directory. Empty: nothing to check.
void check_writable(const std::filesystem::path& path, std::string_view option);

}  // namespace blurlab
