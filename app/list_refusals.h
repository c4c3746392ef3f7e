#pragma once
// --list-refusals: what each variant refuses the given settings for on this device, as lines a
// script reads (tests/image_tests.cmake derives each image case's expected refusals from them, so
// the registry stays the only list of what a variant supports).
#include "cli/options.h"

namespace blurlab::app {

// One line per variant (those --variant names, else every one): its name and the limit it refuses the settings for (the name a refusal's
// message ends with, "(limit: shared_memory)"), or "-" where it runs them. The settings are those
// of the command line for the image's size (--image, else the first --size or cli::kDefaultHeadlessSize)
// and the first input format; the device's limits are those of a headless context. With --json
// ("-": stdout) the same as a JSON document, with each refusal's reason (docs/USAGE.md).
int list_refusals(const cli::Options& options);

}  // namespace blurlab::app
