#pragma once
// blurlab's command line. Parsing never touches GL; every mistake is a UsageError (exit 2).
#include <filesystem>
#include <glm/vec2.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "blur/blur.h"
#include "blur/kernel.h"
#include "effects/effect.h"
#include "gl/context.h"
#include "gl/format.h"

namespace blurlab::cli {

// The most configurations (variants x kernels x knobs x formats x sizes) one run may sweep.
inline constexpr double kMaxConfigurations = 100000;
// The widest line of --help.
inline constexpr size_t kHelpWidth = 100;
// The image a headless run blurs when neither --size nor --image chose one.
inline constexpr glm::ivec2 kDefaultHeadlessSize{1920, 1080};

struct Options {
  bool help = false;  // --help: the text is in help_text
  std::string help_text;
  std::string command_line;  // the arguments as a shell would take them back (for reports)
  bool headless = false;
  bool list_variants = false;
  bool list_refusals = false;
  bool print_kernel = false;
  bool check = false;
  bool gl_debug = false;
  gl::DevicePreference device = gl::DevicePreference::Auto;

  std::vector<const VariantInfo*> variants;  // empty: every variant (headless) / the first (window)
  // --effect: a blur in context (src/effects/), run on the HDR scene; nullptr: blurs alone. With
  // an effect, --variant names its implementations (the variants that serve its blur stage, or
  // its own: effects/registry.h) into `implementations` (empty: all of them), and `variants` stays
  // empty.
  const EffectInfo* effect = nullptr;
  std::vector<std::string> implementations;
  // The effects' parameters given (--NAME, one option per name the effects declare), as text; the
  // effect fills in the others (resolve_effect) and validates them.
  EffectValues effect_values;
  std::vector<KernelType> kernels{KernelType::Gauss};
  std::vector<int> radii;       // empty: derived from sigma, or the default
  std::vector<double> sigmas;   // empty: r / 3
  std::vector<gl::Format> formats;        // intermediate formats; empty: the input format
  std::vector<gl::Format> input_formats{gl::Format::rgba8};
  bool input_formats_given = false;       // else a 16-bit --image is blurred in rgba16f
  bool linear = false;  // --linear: decode sRGB to linear light, blur in rgba16f, encode back (the window's L)
  std::vector<glm::ivec2> sizes;          // empty: the default (or the image's size)
  std::vector<BorderMode> borders{BorderMode::Clamp};
  Rgba border_value{};                    // the constant border's value (--border-value)
  // --radius-map: the per-pixel radius of the variable-radius variants (blur/radius_map.h); nullptr:
  // R everywhere. Other variants ignore it (resolve() drops it).
  std::shared_ptr<const RadiusMap> radius_map;
  // Values given for each knob (--NAME, one option per name in all_knobs()); a knob not given
  // takes each variant's default.
  std::map<std::string, std::vector<KnobValue>, std::less<>> knob_values;
  int warmup = 5;
  int frames = 30;
  bool frames_given = false;
  double budget = 3.0;  // seconds of timed frames per configuration (0: no limit); at least 3 frames
  bool warmup_given = false, budget_given = false;  // --warmup, --budget given (a CPU rasterizer's run keeps them)
  double time = 1.0;

  std::string image, output, shader_dir;
  std::string csv, json;   // headless report files
  std::string report_dir;  // --report: a Markdown page with its charts, CSV and JSON
  std::string export_dir;  // --export: the blur's shaders and recipe (src/export/export.h)
  std::string dump_dir;    // --dump-programs: what the driver compiled each program into (gl/program_dump.h)
  bool wide = false;       // --wide: every column of the table (default: those that fit 120 columns)
  bool roofline = false;   // measure the device's bandwidth and FMA rate in the same run
  bool tune = false;       // try each variant's knob candidates, keep the fastest
  std::string tune_file = "blurlab-tune.json";  // where --tune saves its choices
  std::string tuned;       // a --tune file whose choices this run uses
  std::string screenshot;  // window: save the last frame of --frames N here
  std::string script;      // window: scripted keys and resizes ("FRAME:key=NAME;FRAME:resize=WxH;FRAME:wait=check")
  double soak = 0.0;       // window: seconds of pseudo-random input, then bounds checked

  // The effect's implementations the run takes: those given, else all of the effect's.
  std::vector<std::string> effect_implementations() const;
  // One run of the effect per implementation and border mode, the parameters resolved.
  std::vector<EffectSettings> effect_settings_list() const;

  // Every kernel of the sweep (kernels x radii x sigmas, as make_kernel completes them).
  std::vector<Kernel> kernel_list() const;
  // Every setting of the sweep for one variant and input format: kernels x border modes x
  // intermediate formats x the values of each of the variant's knobs (those not given are left to
  // resolve()).
  std::vector<BlurSettings> settings_list(const VariantInfo& variant, gl::Format input_format) const;
  // How many configurations the sweep has: settings_list() sizes summed over the variants (all
  // if none given) and input formats, times the sizes. Counted without building the lists.
  double configuration_count() const;
  bool any_knob_given() const { return !knob_values.empty(); }
  // What the run reads, with the options naming it: files (--image, --tuned, a --radius-map file)
  // and directories (--shader-dir). No output may write over any of it (check_outputs_spare_inputs).
  std::vector<std::pair<std::filesystem::path, std::string>> input_files() const;
  std::vector<std::pair<std::filesystem::path, std::string>> input_directories() const;
};

// Throws UsageError with one line on any mistake.
Options parse_options(int argc, const char* const* argv);
// The window shows one configuration: throws UsageError when an option lists several values.
void check_window_options(const Options& options);

}  // namespace blurlab::cli
