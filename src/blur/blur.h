#pragma once
// The blur framework. A variant is one C++ file (a Blur subclass and its VariantInfo), one
// shader file in glsl/, and one line in blur/registry.cpp. Everything variants share lives here
// and in blur/pipeline.cpp: settings, weights, intermediate targets, bindings, barriers, timing.
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "blur/border.h"
#include "blur/family.h"
#include "blur/kernel.h"
#include "blur/knob.h"
#include "blur/radius_map.h"
#include "blur/refusal.h"
#include "gl/bindings.h"
#include "gl/context.h"
#include "gl/format.h"
#include "gl/shader.h"
#include "gl/texture.h"

namespace blurlab {

enum class Stage { Fragment, Compute };
std::string_view name(Stage stage);

// What one run of a variant blurs, and how.
struct BlurSettings {
  Kernel kernel;
  // What taps outside the image read (blur/border.h). Like the kernel it changes what is
  // computed, so it is a setting rather than a knob.
  Border border;
  gl::Format input_format = gl::Format::rgba8;  // the source and destination textures
  std::optional<gl::Format> intermediate;       // multi-pass variants; default: input_format
  // Linear light (blur/linear_light.h): the input holds sRGB pictures decoded to linear values
  // (input_format rgba16f), and the output is encoded back to sRGB to be shown or written.
  bool linear = false;
  // Knob values by name. resolve() keeps exactly the variant's knobs, defaults filled in.
  KnobValues knobs;
  // Variants that blur by a per-pixel radius (VariantInfo::variable_radius): the map
  // (blur/radius_map.h); nullptr: every pixel at the kernel's radius. resolve() drops it for the
  // others. Compared by identity: a map is made once and shared.
  std::shared_ptr<const RadiusMap> radius_map;

  gl::Format intermediate_format() const { return intermediate.value_or(input_format); }
  // The value of a knob of the (resolved) settings; throws Error if the variant has no such knob.
  KnobValue knob(std::string_view name) const;
  int integer(const Knob& k) const { return knob(k.name).x; }
  glm::ivec2 size(const Knob& k) const { return knob(k.name).size(); }
  // The "workgroup" knob (knobs::workgroup) of compute variants.
  glm::ivec2 workgroup() const { return knob(knobs::kWorkgroup).size(); }
  bool operator==(const BlurSettings&) const = default;
};

class BlurSetup;
class BlurPasses;
struct Image;
struct ReferenceImage;
struct Tolerance;

class Blur {
 public:
  virtual ~Blur() = default;
  // Fetch programs (compiled once by the cache). Called whenever settings or size change.
  virtual void prepare(BlurSetup& setup) = 0;
  // Record the passes that blur passes.source() into passes.destination().
  virtual void run(BlurPasses& passes) = 0;
};

enum class KernelSupport {
  BoxAndGauss,
  BoxOnly,    // running sums: they cannot weight taps
  GaussOnly,  // approximations: they answer a request for a Gaussian of sigma
};

// What a variant is to the others in a report.
enum class Role {
  Floor,          // not a blur: the copy pass every blur's time is divided by
  Baseline,       // the naive blur of its stage: "vs naive" is its time over another's
  Blur,           // an exact blur: the kernel's weights, within rounding
  Approximation,  // another algorithm standing in for the Gaussian (VariantInfo::approximation)
};
// "floor", "baseline", "blur", "approximation": the reports' and listings' name of a role.
std::string_view name(Role role);
// "box,gauss", "box", "gauss": the kernels a variant blurs, as the listings and reports print them.
std::string_view name(KernelSupport kernels);

// What an approximate variant chose for a request: the sigma its kernel has (from the kernel's
// variance, which need not be the sigma asked for) and its parameters, for the report's row.
struct ApproxChoice {
  double sigma = 0.0;  // 0: the identity (nothing to blur)
  std::string parameters;  // e.g. "boxes r=3,3,4"
};

// An approximate variant (Role::Approximation) is checked twice, never mixed up: its output
// against a CPU model of its own algorithm (its passes, offsets, recursions and rounding points),
// within the tolerance it states; and, as fidelity, against the exact Gaussian of the sigma it
// declares (blur/check.h). All three functions take resolved settings.
struct ApproximationInfo {
  ApproxChoice (*choose)(const BlurSettings& resolved) = nullptr;
  ReferenceImage (*model)(const Image& input, const BlurSettings& resolved) = nullptr;
  // How far the GPU may stray from the model, and why (an input of largest magnitude input_peak).
  Tolerance (*tolerance)(const BlurSettings& resolved, glm::ivec2 size, double input_peak) = nullptr;
};

// The least a variant's own pass structure must cost for one blur (its own bound, beside the
// problem's one read and one write): every pass reads its input once and writes its output once, at
// that pass's size and formats (a pyramid's levels, an rgba16f intermediate); the filtered texture
// fetches its algorithm issues; and the fp32 FMAs (or adds) it needs at least. The report turns each
// into a time with the rates measured in the same run (--roofline) and takes the largest.
struct WorkBound {
  double bytes = 0.0;
  double bilinear_fetches = 0.0;
  double fmas = 0.0;
};

// Bytes a pass moves that reads a texture of `read` texels of format `in` once and writes one of
// `write` texels of format `out` once.
double pass_bytes(glm::ivec2 read, gl::Format in, glm::ivec2 write, gl::Format out);
// The own bounds of the common shapes (resolved settings, image size), their arithmetic 4 channels
// x the taps each output weights: all (2r+1)^2 taps in one pass; or separable, 2r+1 taps per axis
// (a box by running sums: an add and a subtract per axis), in one pass (no intermediate texture)
// or two (through the intermediate format).
WorkBound direct_2d_bound(const BlurSettings& resolved, glm::ivec2 size);
WorkBound separable_bound(const BlurSettings& resolved, glm::ivec2 size, int passes, bool box_by_running_sums = false);

// Shared memory a workgroup declares: its bytes, and what they hold ("tile 48x48 fp32").
struct SharedMemory {
  long long bytes = 0;
  std::string layout;
};

struct VariantInfo {
  std::string_view name;     // stable kebab-case, used on the command line
  Stage stage;
  // The kind of algorithm it is (blur/family.h). Only the copy pass (Role::Floor) is of
  // Family::Copy, the value a variant that names none would get (unit.Registry checks).
  Family family = Family::Copy;
  std::string_view summary;  // one line for --list-variants
  Role role = Role::Blur;
  KernelSupport kernels = KernelSupport::BoxAndGauss;
  bool uses_intermediate = false;  // multi-pass: --format applies
  // The intermediate format when --format gives none; nullopt: the input format.
  std::optional<gl::Format> default_intermediate;
  // The largest radius it blurs (Limit::Reach above it): kMaxDirectRadius for the variants whose
  // cost grows with r, kMaxRadius for those whose cost does not (blur/kernel.h).
  int max_radius = kMaxDirectRadius;
  // Allowed error in LSB of rgba8: 1 for rounding; 2 where texture units filter with 8-bit weights.
  int tolerance_lsb = 1;
  bool hardware_filtering = false;
  // The variant's knobs (knob.h), declared in its file; empty: none.
  std::vector<Knob> knobs;
  // Border modes the variant does not blur with, each with the reason (e.g. sampler coordinates
  // that cannot express a mode): unsupported_reason() refuses them, the tests expect the refusal.
  // Every other mode must match the reference, which the GL grid checks. Empty: every mode.
  std::vector<std::pair<BorderMode, std::string_view>> refused_borders;
  // fp32 roundings one output accumulates, for the float-format error bound; nullptr: two
  // passes of 2r+1 taps. Running sums accumulate along whole lines, hence the size.
  double (*accumulated_terms)(const BlurSettings& resolved, glm::ivec2 size) = nullptr;
  // Loop iterations of the longest-running invocation, checked against the device's
  // GlLimits::max_loop_iterations; nullptr: few enough for any device.
  double (*loop_iterations)(const BlurSettings& resolved, glm::ivec2 size) = nullptr;
  // The limits a variant declares as data; the pipeline compares them with the device's and
  // refuses with both numbers (unsupported_reason):
  // shared memory one workgroup declares (nullptr: none);
  SharedMemory (*shared_memory)(const BlurSettings& resolved) = nullptr;
  // a GL extension the settings need, e.g. "GL_KHR_shader_subgroup_arithmetic" (nullptr or empty: none);
  std::string_view (*extension)(const BlurSettings& resolved) = nullptr;
  // a second pass dispatches the workgroup knob transposed (H x W), which must fit the device too.
  bool transposed_workgroup = false;
  // The variant's own rules: knob values that do not go together (Limit::Knobs) and kernels that
  // reach past what its structure covers (Limit::Reach, with the numbers); nullptr: none.
  std::optional<Refusal> (*check)(const BlurSettings& resolved, glm::ivec2 size, const gl::GlLimits& limits) = nullptr;
  std::unique_ptr<Blur> (*create)() = nullptr;
  // Blurs each pixel by its own level of the settings' radius map (blur/radius_map.h): checked
  // against reference_variable_blur. Its shaders get no RADIUS define (one program serves every
  // radius): they read the levels and the largest radius as data, through
  // BlurPasses::radius_levels() and level_weights() (glsl/variable_common.glsl).
  bool variable_radius = false;
  // A tolerance of the variant's own, with its reason (exact integer sums: 0 LSB), for an exact
  // variant whose error is not the default's (tolerance_for); nullptr: the default.
  Tolerance (*own_tolerance)(const BlurSettings& resolved, glm::ivec2 size, double input_peak) = nullptr;
  ApproximationInfo approximation;  // Role::Approximation only
  // The variant's own bound (WorkBound) for these resolved settings and image size.
  WorkBound (*own_bound)(const BlurSettings& resolved, glm::ivec2 size) = nullptr;
  // Bytes of the intermediate textures it keeps for these settings and size, for the run's memory
  // estimate (image/memory_budget.h); nullptr: at most one rgba32f texture of the image's size.
  double (*intermediate_bytes)(const BlurSettings& resolved, glm::ivec2 size) = nullptr;
  // What the settings leave to the image's size (a knob's auto) and what it decides at `size`, in
  // words ("last-pass auto: chain, below 3.1 M texels"), "" where nothing; nullptr: nothing ever.
  // --export's recipe states it beside the sizes it holds for.
  std::string (*size_choices)(const BlurSettings& resolved, glm::ivec2 size) = nullptr;
  // The binding units of its own that its shaders declare beside gl/bindings.h's generic ones
  // (a constexpr std::array of gl::NamedUnit in its file); its programs get BINDING_<NAME> for each.
  std::span<const gl::NamedUnit> slots;
};

bool is_blur(const VariantInfo& variant);
bool is_approximation(const VariantInfo& variant);
// Whether a variant's shaders read the kernel's weights (the weights block's taps): an exact blur's do.
bool uses_kernel_weights(const VariantInfo& variant);
// The variant's knob of that name, or nullptr.
const Knob* find_knob(const VariantInfo& variant, std::string_view name);

// accumulated_terms of a direct 2D sum: 2r+1 row sums of 2r+1 terms, then a sum of the rows.
double direct_2d_terms(const BlurSettings& resolved, glm::ivec2 size);

// The kernel a variant's output must match: the settings' kernel, or the identity (box r=0)
// for a variant that is not a blur (the copy pass).
Kernel reference_kernel(const VariantInfo& variant, const BlurSettings& resolved);

// Keeps the variant's knobs (their defaults where none is given) and drops the others; drops the
// intermediate format of a variant without an intermediate texture, and fills in the variant's
// default_intermediate where none is given; rounds a constant border to what a texel of the input
// format holds (blur/border.h: texel_value) and zeroes it for the other modes; resets the border
// of a variant that is not a blur (the copy pass reads no border).
BlurSettings resolve(const VariantInfo& variant, BlurSettings settings, std::optional<glm::ivec2> size = std::nullopt);
// Why the variant cannot run these (resolved) settings on this device (blur/refusal.h), or nullopt.
std::optional<Refusal> unsupported_reason(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size,
                                          const gl::GlLimits& limits);
// Whether the device has a GL extension a variant may declare (VariantInfo::extension).
bool device_has_extension(const gl::GlLimits& limits, std::string_view extension);
// "48 KiB", "12.5 KiB".
std::string kib_text(double bytes);
// "gauss r=16 sigma=5.333 border=clamp in=rgba8 int=rgba8 workgroup=16x16", only what applies to
// the variant.
std::string describe(const VariantInfo& variant, const BlurSettings& resolved);

// How a pass uses a texture. Images bind to image units with the texture's own format, or, raw,
// with the unsigned-integer format of the same size (gl::FormatInfo::raw_format: the shader sees
// the bits, e.g. an rgba8 texel as one uint); sampled textures bind to texture units with the
// pipeline's samplers: Sampled nearest (texelFetch, which ignores wrap modes: the shader applies
// the border), SampledLinear linear with the wrap mode of the settings' border (see
// glsl/linear_common.glsl).
// The unit is a generic one of gl/bindings.h or one of the variant's slots (VariantInfo::slots), the
// one the shader declares by the same name (a bare number converts to neither); the defaults are
// the source's and the target's.
struct Binding {
  // ImageReadWrite: a variant's own scratch image, written and read back by the same invocation.
  enum class Kind { ImageRead, ImageWrite, ImageReadWrite, Sampled, SampledLinear };
  Kind kind;
  const gl::Texture* texture;
  gl::NamedUnit unit;
  bool raw = false;

  static Binding read(const gl::Texture& t, gl::NamedUnit unit = gl::Unit::Source) { return {Kind::ImageRead, &t, unit}; }
  static Binding write(const gl::Texture& t, gl::NamedUnit unit = gl::Unit::Target) { return {Kind::ImageWrite, &t, unit}; }
  static Binding read_write(const gl::Texture& t, gl::NamedUnit unit) { return {Kind::ImageReadWrite, &t, unit}; }
  bool stores() const { return kind == Kind::ImageWrite || kind == Kind::ImageReadWrite; }
  static Binding read_raw(const gl::Texture& t, gl::NamedUnit unit = gl::Unit::Source) { return {Kind::ImageRead, &t, unit, true}; }
  static Binding write_raw(const gl::Texture& t, gl::NamedUnit unit = gl::Unit::Target) { return {Kind::ImageWrite, &t, unit, true}; }
  static Binding read_write_raw(const gl::Texture& t, gl::NamedUnit unit) { return {Kind::ImageReadWrite, &t, unit, true}; }
  static Binding sampled(const gl::Texture& t, gl::NamedUnit unit = gl::Unit::Source) { return {Kind::Sampled, &t, unit}; }
  static Binding sampled_linear(const gl::Texture& t, gl::NamedUnit unit = gl::Unit::Source) { return {Kind::SampledLinear, &t, unit}; }
  // Whether the unit is of the kind this binding takes: an image unit for an image, a texture
  // unit for a sampled texture (BlurPipeline refuses a pass that binds otherwise).
  bool unit_fits() const { return (unit.kinds & (binds_image() ? gl::kImageUnit : gl::kTextureUnit)) != 0; }
  // An image on an image unit; otherwise a texture on a texture unit.
  bool binds_image() const { return kind == Kind::ImageRead || kind == Kind::ImageWrite || kind == Kind::ImageReadWrite; }
};

// What Blur::prepare() gets: settings and programs.
class BlurSetup {
 public:
  virtual ~BlurSetup() = default;
  virtual const BlurSettings& settings() const = 0;
  virtual glm::ivec2 size() const = 0;
  // A compute program from glsl/<file>. Defines every shader gets: RADIUS, BORDER (the border
  // mode, e.g. BORDER_WRAP), the defines of the variant's knobs (Knob::define) and slots
  // (VariantInfo::slots), and SRC_FORMAT / DST_FORMAT, the image format qualifiers of
  // image units Source and Target (they must match the bound textures), SRC_RAW_FORMAT /
  // DST_RAW_FORMAT, those of the same units bound raw (Binding::read_raw, write_raw), and
  // SRC_BYTES / DST_BYTES, their texels' sizes.
  virtual const gl::Program& compute(const std::string& file, gl::Format src, gl::Format dst, const gl::Defines& extra = {}) = 0;
  // A fragment program: glsl/fullscreen.vert + glsl/<file>, same defines.
  virtual const gl::Program& fragment(const std::string& file, const gl::Defines& extra = {}) = 0;
};

// The workgroup counts of one dispatch, and how they follow from the image size W x H: the formula
// goes into --export's recipe (src/export/), so a user can dispatch the shader at any size.
struct DispatchGrid {
  glm::ivec3 groups{1, 1, 1};
  std::string formula;  // e.g. "ceil(W / 16) x ceil(H / 16) x 1"; empty: valid for this size only
  DispatchGrid(glm::ivec3 counts, std::string how = {}) : groups(counts), formula(std::move(how)) {}  // NOLINT: implicit
};

// What Blur::run() gets: the textures and the two ways to record a pass.
class BlurPasses {
 public:
  virtual ~BlurPasses() = default;
  virtual const BlurSettings& settings() const = 0;
  virtual glm::ivec2 size() const = 0;
  virtual const gl::Texture& source() const = 0;
  virtual const gl::Texture& destination() const = 0;
  // Intermediate target number `slot`, of the intermediate format (or `format`), of the image's
  // size (or `size`: the levels of a pyramid).
  virtual const gl::Texture& intermediate(int slot, std::optional<gl::Format> format = std::nullopt,
                                          std::optional<glm::ivec2> size = std::nullopt) = 0;
  // An intermediate whose size does not depend on the image's (a kernel's spectrum): like
  // intermediate(), and an export's recipe gives its size as these numbers at any image size.
  virtual const gl::Texture& fixed_intermediate(int slot, gl::Format format, glm::ivec2 size) = 0;
  // Variable-radius variants (VariantInfo::variable_radius), made by the pipeline from the
  // settings' map: each pixel's level, an rgba8 texture of the image's size holding level / 255 in
  // red; and the weights of every level, an rgba32f texture of (R + 1) x (R + 1) texels whose texel
  // (i, L) holds in red the weight of tap i (and -i) of level L's kernel (blur/radius_map.h:
  // level_kernel), for i = 0..L.
  // Counters a pass counts with image atomics (the last workgroup of several to finish a piece of
  // work continues it, as AMD's single-pass downsampler does): an rgba8 texture of `size` bound raw
  // (Binding::read_write_raw: r32ui, one uint a texel), all zero when made, never poisoned (they
  // are not a blur's data), and recorded with their contents (zeros) so a recipe fills them so. The
  // pass must leave every counter zero again: the last to count resets it, ready for the next run.
  virtual const gl::Texture& counters(glm::ivec2 size) = 0;
  virtual const gl::Texture& radius_levels() = 0;
  virtual const gl::Texture& level_weights() = 0;
  // One compute dispatch, timed as span `name`; barriers before it come from the bindings.
  // `pass`: values of the pass that change from dispatch to dispatch of one program (a pass's
  // offset), set as `layout(location = 0) uniform vec4 u_pass` (glsl/blur_common.glsl).
  virtual void dispatch(std::string_view name, const gl::Program& program, std::initializer_list<Binding> bindings,
                        const DispatchGrid& grid, std::optional<glm::vec4> pass = std::nullopt) = 0;
  // One fullscreen triangle into `target`, timed as span `name`.
  virtual void draw(std::string_view name, const gl::Program& program, std::initializer_list<Binding> inputs,
                    const gl::Texture& target) = 0;
};

// The kernel's weights as the CONST_TAPS define: the 2r+1 floats the weights block holds, written
// as literals that round-trip exactly, so a shader can take them as compile-time constants
// (glsl/blur_common.glsl) at the price of a program per kernel rather than per radius.
gl::Defines constant_weight_defines(const Kernel& kernel);

// Workgroups needed to cover `size` with groups of `group` texels (partial groups at the edges).
// `level`: `size` is level `level` of a pyramid of halvings of the W x H image, ceil(W / 2^level)
// x ceil(H / 2^level), which ceil(W / (2^level group)) groups cover; the formula says so in W and H.
inline DispatchGrid groups_covering(glm::ivec2 size, glm::ivec2 group, int level = 0) {
  return {{(size.x + group.x - 1) / group.x, (size.y + group.y - 1) / group.y, 1},
          "ceil(W / " + std::to_string(group.x << level) + ") x ceil(H / " + std::to_string(group.y << level) + ") x 1"};
}

}  // namespace blurlab
