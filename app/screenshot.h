#pragma once
// Screenshots of the window: the back buffer as the next swap shows it, overlay included.
#include <optional>
#include <string>
#include <string_view>

#include <glm/vec2.hpp>

namespace blurlab::app {

// Writes the window's back buffer (`size` pixels) to `path`, PNG or JPEG by its extension
// (image/image_file.h). Throws Error when it cannot, naming `option` ("--screenshot") when given.
void save_back_buffer(glm::ivec2 size, const std::string& path, std::string_view option = {});

// Where the S key saves: "blurlab-<variant>-<YYYYmmdd-HHMMSS>.png" in the working directory.
std::string automatic_screenshot_path(std::string_view variant);

// The window's screenshots: the S key's, taken at the end of the frame it was pressed for, and
// --screenshot's, taken at the last frame of a --frames run, whose run fails without it.
class WindowScreenshots {
 public:
  explicit WindowScreenshots(std::string requested) : requested_(std::move(requested)) {}
  void ask() { asked_ = true; }  // the S key
  // Before the swap: the S key's picture, named for `variant`, and on the last frame --screenshot's.
  void take(glm::ivec2 size, std::string_view variant, bool last_frame);
  // A --screenshot run that made none: why (the window minimized at `frames`, an error, or the
  // window closed before the last frame); nullopt otherwise.
  std::optional<std::string> missing(bool minimized_at_end, int frames) const;

 private:
  // Saves the back buffer; returns whether it was written (an error is printed for the S key, and
  // kept for the exit message of a --screenshot run).
  bool save(glm::ivec2 size, const std::string& path);
  std::string requested_;  // --screenshot's path; empty: none
  bool asked_ = false;
  bool made_ = false;
  std::string error_;
};

}  // namespace blurlab::app
