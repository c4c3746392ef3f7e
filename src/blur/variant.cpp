// The rules of blur.h that need no GL: settings resolved for a variant, the refusals (typed, with
// their numbers), descriptions and the weights as constants. blur/pipeline.cpp records the passes.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "blur/blur.h"
#include "blur/registry.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab {

std::string_view name(Stage stage) { return stage == Stage::Fragment ? "fragment" : "compute"; }

std::string_view name(Role role) {
  switch (role) {
    case Role::Floor: return "floor";
    case Role::Baseline: return "baseline";
    case Role::Blur: return "blur";
    case Role::Approximation: return "approximation";
  }
  return "?";
}

std::string_view name(KernelSupport kernels) {
  switch (kernels) {
    case KernelSupport::BoxOnly: return "box";
    case KernelSupport::GaussOnly: return "gauss";
    case KernelSupport::BoxAndGauss: return "box,gauss";
  }
  return "?";
}

std::string_view name(Limit limit) {
  switch (limit) {
    case Limit::Kernel: return "kernel";
    case Limit::Format: return "format";
    case Limit::Border: return "border";
    case Limit::Setting: return "setting";
    case Limit::Knobs: return "knobs";
    case Limit::Reach: return "reach";
    case Limit::TextureSize: return "texture_size";
    case Limit::Invocations: return "invocations";
    case Limit::SharedMemory: return "shared_memory";
    case Limit::LoopIterations: return "loop_iterations";
    case Limit::Extension: return "extension";
  }
  return "?";
}

bool is_device_limit(Limit limit) { return limit >= Limit::TextureSize; }

bool is_blur(const VariantInfo& variant) { return variant.role != Role::Floor; }
bool is_approximation(const VariantInfo& variant) { return variant.role == Role::Approximation; }

bool uses_kernel_weights(const VariantInfo& variant) { return is_blur(variant) && !is_approximation(variant); }

const Knob* find_knob(const VariantInfo& variant, std::string_view name) {
  for (const Knob& k : variant.knobs)
    if (k.name == name) return &k;
  return nullptr;
}

KnobValue BlurSettings::knob(std::string_view name) const {
  const auto it = knobs.find(name);
  if (it == knobs.end()) throw Error("no knob '" + std::string(name) + "' in these settings (not resolved for this variant?)");
  return it->second;
}

double direct_2d_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  const double taps = 2.0 * s.kernel.radius + 1.0;
  return taps * taps + taps;
}

double pass_bytes(glm::ivec2 read, gl::Format in, glm::ivec2 write, gl::Format out) {
  return static_cast<double>(read.x) * read.y * gl::info(in).bytes_per_texel +
         static_cast<double>(write.x) * write.y * gl::info(out).bytes_per_texel;
}

WorkBound direct_2d_bound(const BlurSettings& s, glm::ivec2 size) {
  const double taps = 2.0 * s.kernel.radius + 1.0;
  return {.bytes = pass_bytes(size, s.input_format, size, s.input_format), .fmas = 4.0 * taps * taps * size.x * size.y};
}

WorkBound separable_bound(const BlurSettings& s, glm::ivec2 size, int passes, bool box_by_running_sums) {
  const double taps = box_by_running_sums && s.kernel.type == KernelType::Box ? 2.0 : 2.0 * s.kernel.radius + 1.0;
  const gl::Format in = s.input_format, mid = s.intermediate_format();
  return {.bytes = passes == 1 ? pass_bytes(size, in, size, in) : pass_bytes(size, in, size, mid) + pass_bytes(size, mid, size, in),
          .fmas = 4.0 * 2.0 * taps * size.x * size.y};
}

Kernel reference_kernel(const VariantInfo& variant, const BlurSettings& s) {
  return is_blur(variant) ? s.kernel : Kernel{KernelType::Box, 0, 0.0};
}

BlurSettings resolve(const VariantInfo& variant, BlurSettings s, std::optional<glm::ivec2> size) {
  KnobValues resolved;
  for (const Knob& k : variant.knobs) {
    const auto given = s.knobs.find(k.name);
    resolved[std::string(k.name)] = given != s.knobs.end() ? given->second : k.default_value(s.kernel.radius, size);
  }
  s.knobs = std::move(resolved);
  if (!variant.uses_intermediate) s.intermediate.reset();
  else if (!s.intermediate) s.intermediate = variant.default_intermediate;
  if (!is_blur(variant)) s.border = Border{};
  if (!variant.variable_radius) s.radius_map.reset();
  s.border.value = s.border.mode == BorderMode::Constant ? texel_value(s.border.value, s.input_format) : Rgba{};
  return s;
}

std::string kib_text(double bytes) {
  char text[32];
  if (static_cast<long long>(bytes) % 1024 == 0)
    std::snprintf(text, sizeof text, "%lld KiB", static_cast<long long>(bytes) / 1024);
  else
    std::snprintf(text, sizeof text, "%.1f KiB", bytes / 1024.0);
  return text;
}

namespace {

// The declared shared memory against the device's, with the largest radius these knobs fit.
std::optional<Refusal> shared_memory_refusal(const VariantInfo& variant, const BlurSettings& s, const gl::GlLimits& limits) {
  const SharedMemory use = variant.shared_memory(s);
  const long long have = limits.max_compute_shared_memory;
  if (use.bytes <= have) return std::nullopt;
  std::string fits = "; these knobs fit no radius";
  for (BlurSettings smaller = s; smaller.kernel.radius > 0;) {
    --smaller.kernel.radius;
    if (variant.shared_memory(smaller).bytes <= have) {
      fits = "; these knobs fit r <= " + std::to_string(smaller.kernel.radius);
      break;
    }
  }
  return Refusal{Limit::SharedMemory,
                 "needs " + kib_text(static_cast<double>(use.bytes)) + " of shared memory (" + use.layout + "), the device has " +
                     kib_text(static_cast<double>(have)) + fits,
                 static_cast<double>(use.bytes), static_cast<double>(have)};
}

std::optional<Refusal> workgroup_refusal(glm::ivec2 wg, const gl::GlLimits& limits, const std::string& which) {
  const long long invocations = static_cast<long long>(wg.x) * wg.y;
  const std::string device = "the device's " + std::to_string(limits.max_compute_invocations) + " invocations (at most " +
                             std::to_string(limits.max_compute_workgroup_size[0]) + "x" +
                             std::to_string(limits.max_compute_workgroup_size[1]) + ")";
  const std::string text = which + std::to_string(wg.x) + "x" + std::to_string(wg.y);
  if (invocations > limits.max_compute_invocations)
    return Refusal{Limit::Invocations, text + " exceeds " + device, static_cast<double>(invocations),
                   static_cast<double>(limits.max_compute_invocations)};
  if (wg.x > limits.max_compute_workgroup_size[0])
    return Refusal{Limit::Invocations, text + " exceeds " + device, static_cast<double>(wg.x),
                   static_cast<double>(limits.max_compute_workgroup_size[0])};
  if (wg.y > limits.max_compute_workgroup_size[1])
    return Refusal{Limit::Invocations, text + " exceeds " + device, static_cast<double>(wg.y),
                   static_cast<double>(limits.max_compute_workgroup_size[1])};
  return std::nullopt;
}

bool has_extension(const gl::GlLimits& limits, std::string_view extension) {
  if (extension == "GL_KHR_shader_subgroup_arithmetic") return limits.subgroup_arithmetic;
  if (extension == "GL_KHR_shader_subgroup_shuffle") return limits.subgroup_shuffle;
  throw Error("no check of the GL extension " + std::string(extension));
}

}  // namespace

bool device_has_extension(const gl::GlLimits& limits, std::string_view extension) { return has_extension(limits, extension); }

std::optional<Refusal> unsupported_reason(const VariantInfo& variant, const BlurSettings& s, glm::ivec2 size,
                                          const gl::GlLimits& limits) {
  if (is_blur(variant) && variant.kernels == KernelSupport::BoxOnly && s.kernel.type != KernelType::Box)
    return Refusal{Limit::Kernel, "box kernel only (a running sum cannot weight taps)"};
  if (is_blur(variant) && variant.kernels == KernelSupport::GaussOnly && s.kernel.type != KernelType::Gauss)
    return Refusal{Limit::Kernel, "gauss kernel only (an approximation of the Gaussian of the requested sigma)"};
  if (s.linear && s.input_format != gl::Format::rgba16f)
    return Refusal{Limit::Format, "linear light is blurred in rgba16f, not " + std::string(gl::name(s.input_format))};
  if (variant.uses_intermediate && gl::info(s.input_format).is_float && !gl::info(s.intermediate_format()).is_float)
    return Refusal{Limit::Format, "an rgba8 intermediate cannot hold linear-light values above 1; use rgba16f or rgba32f"};
  if (is_blur(variant) && s.kernel.radius > variant.max_radius) {
    std::string farther;  // the variants that reach this radius
    for (const VariantInfo* v : variants())
      if (is_blur(*v) && v->max_radius >= s.kernel.radius && !v->variable_radius &&
          v->kernels != (s.kernel.type == KernelType::Box ? KernelSupport::GaussOnly : KernelSupport::BoxOnly))
        farther += (farther.empty() ? "" : ", ") + std::string(v->name);
    return Refusal{Limit::Reach,
                   "radius " + std::to_string(s.kernel.radius) + " is above " + std::string(variant.name) + "'s " +
                       std::to_string(variant.max_radius) + ": its cost grows with the radius" +
                       (farther.empty() ? "" : " (" + farther + " reach " + std::to_string(kMaxRadius) + ")"),
                   static_cast<double>(s.kernel.radius), static_cast<double>(variant.max_radius)};
  }
  for (const auto& [mode, why] : variant.refused_borders)
    if (s.border.mode == mode) return Refusal{Limit::Border, "border " + std::string(name(mode)) + ": " + std::string(why)};
  if (s.border.mode == BorderMode::Constant && s.input_format == gl::Format::rgba8)
    for (float v : s.border.value)
      if (v > 1.0f)
        return Refusal{Limit::Setting, "border value " + value_text(s.border.value) + ": an rgba8 texel holds 0..1, not " + format_double(v),
                       v, 1.0};
  if (const int side = std::max(size.x, size.y); side > limits.max_texture_size)
    return Refusal{Limit::TextureSize, "size " + size_text(size) + " above GL_MAX_TEXTURE_SIZE " + std::to_string(limits.max_texture_size),
                   static_cast<double>(side), static_cast<double>(limits.max_texture_size)};
  // Knob values are checked where they are read (command line, tuning file); again here, so no
  // path can hand a shader a value outside its knob's range.
  for (const Knob& k : variant.knobs) {
    const auto it = s.knobs.find(k.name);
    if (it == s.knobs.end()) return Refusal{Limit::Setting, "knob " + std::string(k.name) + " has no value"};
    if (auto why = k.invalid(it->second)) return Refusal{Limit::Setting, std::string(k.name) + " " + k.text(it->second) + " " + *why};
  }
  // The variant's own rules come before the device's limits: a shape it cannot build is not a
  // question of the device.
  if (variant.check)
    if (auto refusal = variant.check(s, size, limits)) return refusal;
  if (find_knob(variant, knobs::kWorkgroup))
    if (auto refusal = workgroup_refusal(s.workgroup(), limits, "workgroup ")) return refusal;
  if (variant.transposed_workgroup && find_knob(variant, knobs::kWorkgroup)) {
    const glm::ivec2 wg = s.workgroup();
    if (auto refusal = workgroup_refusal({wg.y, wg.x}, limits, "the vertical pass's transposed workgroup ")) return refusal;
  }
  if (variant.shared_memory)
    if (auto refusal = shared_memory_refusal(variant, s, limits)) return refusal;
  if (variant.extension)
    if (const std::string_view extension = variant.extension(s); !extension.empty() && !has_extension(limits, extension))
      return Refusal{Limit::Extension, std::string(extension) + " is needed in compute shaders (" + describe(variant, s) +
                                           "), which this driver lacks",
                     1.0, 0.0, std::string(extension)};
  if (variant.loop_iterations && limits.max_loop_iterations > 0) {
    const double iterations = variant.loop_iterations(s, size);
    if (iterations > static_cast<double>(limits.max_loop_iterations))
      return Refusal{Limit::LoopIterations,
                     "needs " + format_double(iterations, 6) + " loop iterations per invocation; this driver stops shader loops after " +
                         std::to_string(limits.max_loop_iterations) + " (llvmpipe's loop limiter) and would blur wrongly",
                     iterations, static_cast<double>(limits.max_loop_iterations)};
  }
  return std::nullopt;
}

std::string describe(const VariantInfo& variant, const BlurSettings& s) {
  std::ostringstream out;
  if (is_approximation(variant) && s.kernel.type == KernelType::Gauss && variant.approximation.choose && !variant.variable_radius) {
    // The radius does not apply: an approximation derives its passes from sigma alone.
    const ApproxChoice choice = variant.approximation.choose(s);
    out << "gauss sigma=" << format_double(s.kernel.sigma, 4) << " ~sigma=" << format_double(choice.sigma, 4) << " ("
        << choice.parameters << ") border=" << describe(s.border);
  } else if (is_blur(variant)) {
    out << name(s.kernel.type) << " r=" << s.kernel.radius;
    if (s.kernel.type == KernelType::Gauss) out << " sigma=" << format_double(s.kernel.sigma, 4);
    out << " border=" << describe(s.border);
    if (variant.variable_radius) out << " map=" << (s.radius_map ? single_line(s.radius_map->name) : std::string("uniform"));
  } else {
    out << "no blur";
  }
  out << " in=" << gl::name(s.input_format);
  if (s.linear) out << " linear";
  if (variant.uses_intermediate) out << " int=" << gl::name(s.intermediate_format());
  for (const Knob& k : variant.knobs)
    if (const auto it = s.knobs.find(k.name); it != s.knobs.end()) out << " " << k.name << "=" << k.text(it->second);
  return out.str();
}

gl::Defines constant_weight_defines(const Kernel& kernel) {
  std::string list;
  for (double w : kernel_weights(kernel)) {
    char literal[32];
    std::snprintf(literal, sizeof literal, "%.9g", static_cast<double>(static_cast<float>(w)));  // 9 digits: the float exactly
    list += (list.empty() ? "" : ", ") + std::string(literal);
  }
  return {{"CONST_TAPS", list}};
}

}  // namespace blurlab
