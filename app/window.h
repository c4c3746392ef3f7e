#pragma once
#include "cli/options.h"

namespace blurlab::app {

// Whether GLFW can open windows here (an X11 or Wayland display). Initializes GLFW on success.
bool display_available();

// The interactive app: the animated scene, blurred by the chosen variant, with an overlay of
// live GPU timings and controls. Returns the process exit code.
int run_window(const cli::Options& options);

}  // namespace blurlab::app
