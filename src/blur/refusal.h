#pragma once
// Why a variant cannot run a setting, as data: which limit stops it and the numbers. The window,
// the CLI and the report show the reason; the tests check the kind and the numbers (a refusal they
// do not expect fails them), so a variant cannot stop running behind a plausible sentence.
#include <optional>
#include <string>
#include <string_view>

namespace blurlab {

enum class Limit {
  // What the variant computes: the request is not one it answers.
  Kernel,   // box-only running sums asked for a Gaussian; approximations of the Gaussian asked for a box
  Format,   // an intermediate or input format that cannot hold the values (rgba8 for linear light)
  Border,   // a border mode the variant declares it cannot express (VariantInfo::refused_borders)
  Setting,  // a value outside what the setting holds: a knob value out of its range, a constant above 1 in rgba8
  // How the variant is built: rules of its own, with the numbers.
  Knobs,  // knob values that do not go together (a strip that is not a multiple of its block)
  Reach,  // the kernel reaches past what the variant's structure covers (a tile beside its apron,
          // a pyramid's levels, a line's blocks): needed and available in texels, passes or levels
  // The device's limits, with the device's numbers (gl::GlLimits).
  TextureSize,     // GL_MAX_TEXTURE_SIZE
  Invocations,     // GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS or _SIZE
  SharedMemory,    // GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, bytes
  LoopIterations,  // the driver's loop limiter (llvmpipe stops an invocation after 65535)
  Extension,       // a GL extension the driver lacks
};

// "shared_memory", "loop_iterations", ...: the JSON's and CSV's name of a limit.
std::string_view name(Limit limit);
// TextureSize .. Extension: limits of the device rather than of the request or the variant.
bool is_device_limit(Limit limit);

struct Refusal {
  Limit limit = Limit::Setting;
  std::string reason;      // one line, with the numbers
  double needed = 0.0;     // what the setting needs (bytes, invocations, iterations, texels, ...)
  double available = 0.0;  // the most the device (or the variant's structure) allows
  std::string extension;   // Limit::Extension: the extension's name
};

}  // namespace blurlab
