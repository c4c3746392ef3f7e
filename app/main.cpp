// blurlab: GPU image blurs side by side, timed on the GPU and checked against a CPU reference.
#include <csignal>
#include <cstdio>
#include <iostream>

#include "blur/kernel.h"
#include "blur/registry.h"
#include "cli/options.h"
#include "headless.h"
#include "list_refusals.h"
#include "list_variants.h"
#include "window.h"
#include "util/error.h"
#include "util/files.h"

namespace {

void print_kernel(const blurlab::Kernel& kernel) {
  const auto weights = blurlab::kernel_weights(kernel);
  for (size_t i = 0; i < weights.size(); ++i) std::printf("%s%.17g", i ? " " : "", weights[i]);
  std::printf("\n");
}

int run(int argc, char** argv) {
  const blurlab::cli::Options options = blurlab::cli::parse_options(argc, argv);
  if (options.help) {
    std::cout << options.help_text;
    return 0;
  }
  if (options.list_variants) {
    blurlab::app::list_variants(options.json);
    return 0;
  }
  if (options.list_refusals) return blurlab::app::list_refusals(options);
  if (options.print_kernel) {
    print_kernel(options.kernel_list().front());
    return 0;
  }
  // The window when a display is available, unless --headless; else the headless report.
  if (!options.headless) {
    if (blurlab::app::display_available()) {
      blurlab::cli::check_window_options(options);
      return blurlab::app::run_window(options);
    }
    if (!options.screenshot.empty() || !options.script.empty() || options.soak > 0)
      throw blurlab::Error("--screenshot, --script and --soak need a window, and no display is available (try xvfb-run)");
    // A note, not an error: stderr carries one line, and only when the run fails.
    std::printf("no display: running headless (--headless)\n");
  }
  return blurlab::app::run_headless(options);
}

}  // namespace

int main(int argc, char** argv) {
  // A write that cannot be done returns an error with its reason (EPIPE: the reader of stdout is
  // gone; EFBIG: past `ulimit -f`) instead of a signal that ends the process without a word.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  const blurlab::EscapedStdout escaped;  // stdout shows control characters as stderr does: \e, \xNN
  try {
    const int code = run(argc, argv);
    blurlab::check_standard_output();  // what was printed reached its reader, or the exit code says so
    return code;
  } catch (...) {
    std::fflush(stdout);  // what was said before the error comes before it
    const blurlab::Failure failure = blurlab::failure_of(std::current_exception());
    blurlab::print_error(failure.message);
    return failure.exit_code;
  }
}
