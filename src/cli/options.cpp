#include "cli/options.h"

#include <CLI/CLI.hpp>
#include <set>

#include "blur/registry.h"
#include "effects/registry.h"
#include "cli/lists.h"
#include "image/image_file.h"
#include "util/error.h"
#include "ui/view_state.h"
#include "util/strings.h"

namespace blurlab::cli {

namespace {

// Each value once, in the order first given.
template <typename T>
std::vector<std::optional<T>> unique_or_derived(const std::vector<T>& given) {
  if (given.empty()) return {std::nullopt};  // derived by make_kernel()
  std::vector<std::optional<T>> values;
  std::set<T> seen;
  for (const T& v : given)
    if (seen.insert(v).second) values.push_back(v);
  return values;
}

// The intermediate formats the sweep gives a variant (nullopt: the input format).
std::vector<std::optional<gl::Format>> intermediate_axis(const Options& o, const VariantInfo& variant) {
  if (!variant.uses_intermediate || o.formats.empty()) return {std::nullopt};
  return {o.formats.begin(), o.formats.end()};
}

// "unknown variant 'x' (did you mean a or b? --list-variants lists them all)", or without the
// question when no name is near.
std::string unknown_variant_message(const std::string& name) {
  std::vector<std::string_view> names;
  for (const VariantInfo* v : blurlab::variants()) names.push_back(v->name);
  const std::vector<std::string> near = near_names(name, names);
  if (near.empty()) return "unknown variant '" + name + "' (see --list-variants)";
  std::string list;
  for (size_t i = 0; i < near.size(); ++i) list += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + near[i];
  return "unknown variant '" + name + "' (did you mean " + list + "? --list-variants lists them all)";
}

}  // namespace

// Radii and sigmas are made unique first, so the (radius, sigma) pairs are distinct and so are
// their kernels: no search through the list (a 4096-value sigma list by 129 radii took minutes).
std::vector<Kernel> Options::kernel_list() const {
  std::vector<Kernel> list;
  const auto rs = unique_or_derived(radii);
  for (KernelType type : kernels) {
    const auto ss = type == KernelType::Gauss ? unique_or_derived(sigmas) : std::vector<std::optional<double>>{std::nullopt};
    for (const auto& r : rs)
      for (const auto& s : ss) list.push_back(make_kernel(type, r, s));
  }
  return list;
}

std::vector<BlurSettings> Options::settings_list(const VariantInfo& variant, gl::Format input) const {
  std::vector<Kernel> sweep = kernel_list();
  std::vector<BorderMode> modes = borders;
  if (!is_blur(variant)) {  // the copy pass ignores the kernel and the border: run it once
    sweep.resize(1);
    modes = {BorderMode::Clamp};
  }
  std::vector<BlurSettings> list;
  for (const Kernel& kernel : sweep)
    for (BorderMode mode : modes)
      for (const auto& mid : intermediate_axis(*this, variant)) {
        BlurSettings s;
        s.kernel = kernel;
        s.border = {mode, mode == BorderMode::Constant ? border_value : Rgba{}};
        s.input_format = input;
        s.intermediate = mid;
        s.linear = linear;
        s.radius_map = radius_map;
        list.push_back(s);
      }
  // The product with each given knob the variant has.
  for (const Knob& k : variant.knobs) {
    const auto given = knob_values.find(k.name);
    if (given == knob_values.end()) continue;
    std::vector<BlurSettings> product;
    for (const BlurSettings& s : list)
      for (KnobValue v : given->second) {
        BlurSettings with = s;
        with.knobs[std::string(k.name)] = v;
        product.push_back(std::move(with));
      }
    list = std::move(product);
  }
  return list;
}

std::vector<std::string> Options::effect_implementations() const {
  if (!effect) return {};
  return implementations.empty() ? effect->implementations() : implementations;
}

std::vector<EffectSettings> Options::effect_settings_list() const {
  std::vector<EffectSettings> list;
  if (!effect) return list;
  const EffectValues values = resolve_effect(*effect, effect_values);
  for (const std::string& implementation : effect_implementations()) {
    // Every combination of the knob values given that the implementation's variant has (as a
    // variant's settings_list sweeps them); an implementation of the effect's own takes none.
    const VariantInfo* variant = find_variant(implementation);
    std::vector<KnobValues> combinations{{}};
    for (const auto& [knob, given] : knob_values) {
      if (!variant || !find_knob(*variant, knob)) continue;
      std::vector<KnobValues> next;
      for (const KnobValues& partial : combinations)
        for (const KnobValue& v : given) {
          KnobValues k = partial;
          k[knob] = v;
          next.push_back(std::move(k));
        }
      combinations = std::move(next);
    }
    for (BorderMode mode : borders)
      for (const KnobValues& knobs : combinations) {
        EffectSettings s;
        s.implementation = implementation;
        s.values = values;
        s.border = {mode, mode == BorderMode::Constant ? border_value : Rgba{}};
        s.knobs = knobs;
        list.push_back(std::move(s));
      }
  }
  return list;
}

// The sizes of settings_list()'s factors, multiplied without building it.
double Options::configuration_count() const {
  double kernel_count = 0;
  for (KernelType type : kernels)
    kernel_count += static_cast<double>(unique_or_derived(radii).size()) *
                    static_cast<double>(type == KernelType::Gauss ? unique_or_derived(sigmas).size() : 1);
  std::vector<const VariantInfo*> selected = variants;
  if (selected.empty()) selected.assign(blurlab::variants().begin(), blurlab::variants().end());
  double per_image = 0;
  for (const VariantInfo* v : selected) {
    double n = (is_blur(*v) ? kernel_count * static_cast<double>(borders.size()) : 1.0) * static_cast<double>(intermediate_axis(*this, *v).size());
    for (const Knob& k : v->knobs)
      if (const auto given = knob_values.find(k.name); given != knob_values.end()) n *= static_cast<double>(given->second.size());
    per_image += n;
  }
  return per_image * static_cast<double>(input_formats.size()) * static_cast<double>(std::max<size_t>(sizes.size(), 1));
}

std::vector<std::pair<std::filesystem::path, std::string>> Options::input_files() const {
  std::vector<std::pair<std::filesystem::path, std::string>> files;
  if (!image.empty()) files.emplace_back(image, "--image");
  if (!tuned.empty()) files.emplace_back(tuned, "--tuned");
  if (radius_map && radius_map->shape == MapShape::File) files.emplace_back(radius_map->name, "--radius-map");
  return files;
}

std::vector<std::pair<std::filesystem::path, std::string>> Options::input_directories() const {
  if (shader_dir.empty()) return {};
  return {{shader_dir, "--shader-dir"}};
}

namespace {

std::vector<gl::Format> parse_formats(const std::string& text, const char* option, bool allow_32f) {
  std::vector<gl::Format> list;
  for (const std::string& word : parse_word_list(text, option)) {
    const auto f = gl::parse_format(word);
    if (!f || (!allow_32f && *f == gl::Format::rgba32f))
      throw UsageError(std::string(option) + " '" + word + "' is not one of " + (allow_32f ? "rgba8, rgba16f, rgba32f" : "rgba8, rgba16f"));
    list.push_back(*f);
  }
  return list;
}

// A knob option's CLI11 validator: the list must parse as values of the knob. CLI11 puts
// "--NAME: " before the message, which already names the option; one name is enough.
CLI::Validator knob_validator(const Knob& knob) {
  const std::string option = "--" + std::string(knob.name);
  return CLI::Validator(
      [knob, option](std::string& text) -> std::string {
        try {
          parse_knob_list(knob, text, option);
        } catch (const UsageError& e) {
          return e.what();
        }
        return {};
      },
      "", "knob");
}

std::string validation_message(const CLI::ValidationError& e) {
  // "--NAME: --NAME 'x' is ..." -> "--NAME 'x' is ..."
  const std::string text = e.what();
  const auto colon = text.find(": --");
  return colon != std::string::npos && text.rfind("--", 0) == 0 ? text.substr(colon + 2) : text;
}

// A word as a POSIX shell reads it back: quoted unless it is plainly safe.
std::string shell_word(std::string_view word) {
  const bool safe = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%") ==
                                         std::string_view::npos;
  if (safe) return std::string(word);
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// --help's lines within kHelpWidth: CLI11 prints each description on one line, and a knob's (the
// variants that have it) runs past 200 columns. A longer option line's description is wrapped,
// its lines under the description column.
std::string wrapped_help(const std::string& help, size_t description_column) {
  std::string out;
  for (const std::string& line : split(help, '\n')) {
    // An option's line, or its description alone on the next line (after a long option name).
    const bool option = (line.rfind("  -", 0) == 0 || line.find_first_not_of(' ') == description_column) &&
                        line.size() > description_column && line[description_column - 1] == ' ';
    if (line.size() <= kHelpWidth || !option) {
      out += line + "\n";
      continue;
    }
    // Every line of the description as wide as the first, under the description column.
    const std::string indent(description_column, ' ');
    std::string description = line.substr(0, description_column);
    for (const std::string& part : split(wrapped(trim(line.substr(description_column)), kHelpWidth - description_column, ""), '\n'))
      description += (description.size() > description_column ? "\n" + indent : "") + part;
    out += description + "\n";
  }
  if (!help.empty() && help.back() != '\n') out.pop_back();
  return out;
}

// The list modes print their list and exit: an option none of them reads would be ignored without
// a word, so it is refused, as are two modes at once (only one would run). Each takes the options
// that decide its list: --list-refusals the settings and device it lists refusals for, one of each
// (it lists what one setting is refused for), --print-kernel the kernel.
void check_list_mode(const CLI::App& app, const Options& o) {
  std::vector<std::string> modes;
  for (const char* mode : {"--list-variants", "--list-refusals", "--print-kernel"})
    if (app.count(mode)) modes.emplace_back(mode);
  if (modes.empty()) return;
  if (modes.size() > 1) throw UsageError(modes[0] + " and " + modes[1] + " each print a list and exit: give one of them");
  const std::string& mode = modes.front();
  std::set<std::string> takes = {"--headless"};
  if (mode != "--print-kernel") takes.insert("--json");  // the list as JSON
  if (mode == "--print-kernel") takes.insert({"--kernel", "--radius", "--sigma"});
  if (mode == "--list-refusals")
    takes.insert({"--variant", "--kernel", "--radius", "--sigma", "--format", "--input-format", "--linear", "--size", "--border",
                  "--border-value", "--radius-map", "--image", "--device", "--gl-debug"});
  for (const CLI::Option* option : app.get_options()) {
    const std::string name = option->get_name();
    if (name == mode || option->count() == 0 || takes.count(name) || (mode == "--list-refusals" && option->get_group() == "Knobs")) continue;
    const std::string what = mode == "--list-variants" ? "lists the variants" : mode == "--list-refusals" ? "lists each variant's refusal"
                                                                                                            : "prints the kernel's weights";
    throw UsageError(mode + " " + what + " and exits: " + name + " does not apply with it");
  }
  if (mode == "--list-refusals" && (o.input_formats.size() > 1 || o.sizes.size() > 1))
    throw UsageError("--list-refusals lists what one setting is refused for: give one value of --input-format and --size");
  if (mode == "--list-refusals")
    for (const VariantInfo* v : o.variants.empty() ? std::vector<const VariantInfo*>(variants().begin(), variants().end()) : o.variants)
      if (const size_t n = o.settings_list(*v, o.input_formats.front()).size(); n > 1)
        throw UsageError("--list-refusals lists what one setting is refused for: give one value of each option (" + std::string(v->name) +
                         " has " + std::to_string(n) + " settings here)");
}

}  // namespace

Options parse_options(int argc, const char* const* argv) {
  Options o;
  o.command_line = "blurlab";
  for (int i = 1; i < argc; ++i) o.command_line += " " + shell_word(argv[i]);
  CLI::App app{"blurlab: GPU image blurs side by side, each timed on the GPU and checked against a CPU reference.\n"
               "Opens a window when a display is available; --headless (EGL) times, checks, or blurs an image file.",
               "blurlab"};
  app.set_help_flag("-h,--help", "Print this help and exit");
  constexpr size_t kDescriptionColumn = 34;
  app.get_formatter()->column_width(kDescriptionColumn);
  app.option_defaults()->always_capture_default(false);

  std::string variant_text, kernel_text, radius_text, sigma_text, format_text, input_format_text, size_text, border_text,
      border_value_text, radius_map_text;
  std::string device_text;
  std::map<std::string, std::string, std::less<>> knob_texts;
  std::string warmup_text, frames_text, time_text, budget_text;
  std::string effect_text;
  std::map<std::string, std::string, std::less<>> effect_texts;

  app.add_flag("--headless", o.headless, "Run without a window: time, check or blur a file");
  app.add_flag("--list-variants", o.list_variants,
               "Print the variants by family, one per line: name, stage, tolerance, kernels, summary (--json: as JSON)");
  app.add_flag("--list-refusals", o.list_refusals,
               "Print one variant per line: name and the limit it refuses these settings for on this device (- : runs them; "
               "--json: as JSON, with the reasons)");
  app.add_flag("--print-kernel", o.print_kernel, "Print the 2r+1 weights from -r to +r and exit");
  app.add_flag("--check", o.check, "Compare each output with the CPU reference; exit 1 if any exceeds its tolerance");
  app.add_option("--variant", variant_text, "all, or NAME[,NAME...] (see --list-variants)")->type_name("LIST");
  app.add_option("--kernel", kernel_text, "box and/or gauss (default gauss)")->type_name("LIST");
  app.add_option("--radius", radius_text,
                 "0..512 (most variants stop at 128; fft, the recursive and Kawase-like ones go on); with only --sigma, r = ceil(3 sigma); default 16")->type_name("R|LIST|A:B[:S|:xF]");
  app.add_option("--sigma", sigma_text, "Gaussian sigma > 0; with only --radius, sigma = r/3; approximations use sigma alone")
      ->type_name("S|LIST");
  app.add_option("--format", format_text, "Intermediate format of multi-pass variants: rgba8, rgba16f, rgba32f")->type_name("LIST");
  app.add_option("--input-format", input_format_text, "Format of the blurred image: rgba8 or rgba16f (HDR: the scene's highlights above 1 kept)")->type_name("LIST");
  app.add_flag("--linear", o.linear, "Blur in linear light: decode the sRGB input, blur in rgba16f, encode the output (the window's L)");
  app.add_option("--size", size_text, "Image size: headless, the scene's (default " + blurlab::size_text(kDefaultHeadlessSize) + "); the window's (default 1280x720)")
      ->type_name("WxH|LIST");
  app.add_option("--border", border_text, "What taps outside the image read: clamp (default), reflect, reflect101, wrap, constant")
      ->type_name("MODE|LIST");
  app.add_option("--border-value", border_value_text,
                 "The constant border's RGBA, each 0..65504 (default 0,0,0,0); rounded to what a texel of the input format holds")
      ->type_name("R,G,B,A");
  app.add_option("--radius-map", radius_map_text,
                 "variable-*: each pixel's radius 0..R from a grey 8/16-bit PNG (scaled to the image) or ramp, band, circle (default: R everywhere)")
      ->type_name("FILE|NAME");
  // One option per knob name the variants declare (blur/knob.h), in a group of their own that --help
  // lists after the others, each with the variants that have it: a new knob needs no edit here or in
  // the docs.
  for (const Knob& k : all_knobs()) {
    std::string owners, lacking;  // lacking: the compute variants without it
    bool only_compute = true;
    for (const VariantInfo* v : variants()) {
      if (find_knob(*v, k.name)) {
        owners += (owners.empty() ? "" : ", ") + std::string(v->name);
        only_compute = only_compute && v->stage == Stage::Compute;
      } else if (v->stage == Stage::Compute) {
        lacking += (lacking.empty() ? "" : ", ") + std::string(v->name);
      }
    }
    // A short list of the few compute variants without it reads better than all the others.
    if (only_compute && lacking.size() < owners.size() / 4)
      owners = "every compute variant" + (lacking.empty() ? "" : " but " + lacking);
    const std::string range = k.type == KnobType::Choice ? "" : " (" + std::to_string(k.min) + ".." + std::to_string(k.max) + ")";
    app.add_option("--" + std::string(k.name), knob_texts[std::string(k.name)], std::string(k.help) + range + "; " + owners)
        ->type_name(k.form() + "|LIST")
        ->check(knob_validator(k))
        ->group("Knobs");
  }
  // --effect, and one option per parameter name the effects declare (effects/effect.h), in a group of
  // their own: a new effect needs no edit here.
  {
    std::string names;
    for (const EffectInfo* e : effects()) names += ", " + std::string(e->name);
    app.add_option("--effect", effect_text,
                   "Blur in context on the HDR scene: none (default: blurs alone)" + names +
                       "; --variant then names its implementations (the variants serving its blur, or its own)")
        ->type_name("NAME")
        ->group("Effects");
    for (const EffectInfo* e : effects())
      for (const EffectParameter& p : e->parameters)
        if (!effect_texts.count(p.name))
          app.add_option("--" + std::string(p.name), effect_texts[std::string(p.name)], std::string(p.help) + " (default " + std::string(p.default_value) + ")")
              ->type_name("VALUE")
              ->group("Effects");
  }
  app.add_option("--warmup", warmup_text, "Untimed frames before timing, and at least 0.5 s of them (default 5)")->type_name("N");
  app.add_option("--frames", frames_text, "Timed frames; medians are over these (default 30; 0 with --check)")->type_name("N");
  app.add_option("--budget", budget_text, "Stop timing a configuration after S seconds (at least 3 frames; 0 = no limit; default 3)")->type_name("S");
  app.add_option("--time", time_text, "Scene time in seconds (default 1)")->type_name("T");
  app.add_option("--image", o.image, "Blur this PNG or JPEG (known by content) instead of the scene; 16-bit PNGs in rgba16f")
      ->type_name("IN");
  app.add_option("--output", o.output, "Write the blurred image by extension: .png (16-bit from rgba16f, else 8) or .jpg (no alpha)")
      ->type_name("OUT");
  app.add_option("--csv", o.csv, "Headless: also write the report as CSV")->type_name("FILE");
  app.add_option("--json", o.json, "Headless: also write the report as JSON (with GPU, driver and settings); with --list-variants or "
                 "--list-refusals: the list as JSON (- : stdout)")->type_name("FILE");
  app.add_option("--report", o.report_dir, "Headless: write DIR/report.md (GPU, settings, table, charts, checks) with its files")->type_name("DIR");
  app.add_option("--export", o.export_dir,
                 "Headless, one variant and setting (or one effect implementation): write DIR/ self-contained shaders per pass, "
                 "recipe.md/.json, README.md (fidelity, how to run it) and LICENSE, to ship it")
      ->type_name("DIR");
  app.add_option("--dump-programs", o.dump_dir,
                 "Headless: write DIR/NNN_<shader>.txt per compiled program, the driver's binary as text (NVIDIA: its assembly)")
      ->type_name("DIR");
  app.add_flag("--wide", o.wide, "Headless: print every column of the table (default: the ones that fit 120 columns)");
  app.add_flag("--roofline", o.roofline,
               "Headless: also measure the copy bandwidth (texture, buffer), the FMA and bilinear fetch rates; each row's fraction of "
               "the problem's bound and of its variant's own (always with --json)");
  app.add_flag("--tune", o.tune, "Headless: try each variant's knob candidates, keep the fastest per GPU and size");
  app.add_option("--tune-file", o.tune_file, "Where --tune saves its choices (default blurlab-tune.json)")->type_name("FILE");
  app.add_option("--tuned", o.tuned, "Use the knobs a --tune run saved (for the knobs not given on the command line)")->type_name("FILE");
  app.add_option("--shader-dir", o.shader_dir, "Load shaders from DIR instead of the embedded copies")->type_name("DIR");
  app.add_option("--screenshot", o.screenshot, "Window: after --frames N, save the last frame (overlay included) and exit")->type_name("FILE.png|.jpg");
  app.add_option("--script", o.script, "Window: scripted input, e.g. '10:key=Right;20:resize=517x389;30:resize=0x0;40:wait=check'")->type_name("STEPS");
  std::string soak_text;
  app.add_option("--soak", soak_text, "Window: S seconds of pseudo-random keys and resizes, then check GL errors, queries, memory")->type_name("S");
  app.add_option("--device", device_text, "Headless GL device: auto (GPU if any), gpu, software")->type_name("KIND");
  app.add_flag("--gl-debug", o.gl_debug, "KHR_debug output; any GL error makes the exit code 1");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    o.help = true;
    o.help_text = wrapped_help(app.help(), kDescriptionColumn);
    return o;
  } catch (const CLI::ValidationError& e) {
    throw UsageError(validation_message(e));  // print_error() makes it one line
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(trim(e.what())));
  }

  if (app.count("--effect")) {
    if (effect_text.empty()) throw UsageError("--effect needs a value");
    if (effect_text != "none") {
      o.effect = find_effect(effect_text);
      if (!o.effect) {
        std::string names;
        for (const EffectInfo* e : effects()) names += ", " + std::string(e->name);
        throw UsageError("--effect '" + shortened(effect_text, 40) + "' is not none" + names);
      }
    }
  }
  for (const auto& [name, text] : effect_texts) {
    if (!app.count("--" + name)) continue;
    if (!o.effect) throw UsageError("--" + name + " is a parameter of an effect: give --effect as well");
    if (!find_parameter(*o.effect, name)) throw UsageError("--" + name + " is not a parameter of the " + std::string(o.effect->name) + " effect");
    o.effect_values[name] = text;
  }
  if (o.effect && !variant_text.empty() && variant_text != "all") {
    const std::vector<std::string> all = o.effect->implementations();
    for (const std::string& name : parse_word_list(variant_text, "--variant")) {
      if (std::find(all.begin(), all.end(), name) == all.end()) {
        std::vector<std::string_view> names(all.begin(), all.end());
        const std::vector<std::string> near = near_names(name, names);
        throw UsageError("'" + shortened(name, 40) + "' does not serve the " + std::string(o.effect->name) + " effect" +
                         (near.empty() ? "" : " (did you mean " + near.front() + "?)") + "; it takes " + [&] {
                           std::string list;
                           for (const std::string& n : all) list += (list.empty() ? "" : ", ") + n;
                           return list;
                         }());
      }
      if (std::find(o.implementations.begin(), o.implementations.end(), name) == o.implementations.end()) o.implementations.push_back(name);
    }
  } else if (!variant_text.empty() && variant_text != "all") {
    for (const std::string& name : parse_word_list(variant_text, "--variant")) {
      const VariantInfo* v = find_variant(name);
      if (!v) throw UsageError(unknown_variant_message(name));
      if (std::find(o.variants.begin(), o.variants.end(), v) == o.variants.end()) o.variants.push_back(v);
    }
  } else if (app.count("--variant") && variant_text.empty()) {
    throw UsageError("--variant needs a value");
  }
  if (app.count("--kernel")) {
    o.kernels.clear();
    for (const std::string& word : parse_word_list(kernel_text, "--kernel")) {
      const auto k = parse_kernel_type(word);
      if (!k) throw UsageError("--kernel '" + word + "' is not box or gauss");
      if (std::find(o.kernels.begin(), o.kernels.end(), *k) == o.kernels.end()) o.kernels.push_back(*k);
    }
  }
  if (app.count("--radius")) o.radii = parse_int_list(radius_text, "--radius", 0, kMaxRadius);
  if (app.count("--sigma")) o.sigmas = parse_double_list(sigma_text, "--sigma", 0.0, kMaxSigma);
  if (app.count("--format")) o.formats = parse_formats(format_text, "--format", true);
  if (app.count("--input-format")) {
    o.input_formats = parse_formats(input_format_text, "--input-format", false);
    o.input_formats_given = true;
  }
  if (app.count("--border")) {
    o.borders.clear();
    for (const std::string& word : parse_word_list(border_text, "--border")) {
      const auto mode = parse_border_mode(word);
      if (!mode) throw UsageError("--border '" + word + "' is not clamp, reflect, reflect101, wrap or constant");
      if (std::find(o.borders.begin(), o.borders.end(), *mode) == o.borders.end()) o.borders.push_back(*mode);
    }
  }
  if (app.count("--border-value")) {
    std::string why;
    const auto value = parse_border_value(border_value_text, &why);
    if (!value) throw UsageError("--border-value '" + border_value_text + "' " + why);
    if (std::find(o.borders.begin(), o.borders.end(), BorderMode::Constant) == o.borders.end())
      throw UsageError("--border-value applies to --border constant only");
    o.border_value = *value;
  }
  if (app.count("--radius-map")) {
    if (radius_map_text.empty()) throw UsageError("--radius-map '' is neither a file nor one of " + std::string(builtin_radius_map_names()));
    o.radius_map = radius_map_from_option(radius_map_text);  // a file that will not do: Error, one line
  }
  if (o.linear) {
    if (app.count("--input-format") && o.input_formats != std::vector<gl::Format>{gl::Format::rgba16f})
      throw UsageError("--linear blurs in rgba16f: --input-format " + input_format_text + " does not go with it");
    o.input_formats = {gl::Format::rgba16f};
  }
  // Sizes up to 65536 parse; the device's GL_MAX_TEXTURE_SIZE decides at run time.
  if (app.count("--size")) o.sizes = parse_size_list(size_text, "--size", 65536);
  for (const Knob& k : all_knobs()) {
    const std::string option = "--" + std::string(k.name);
    if (app.count(option)) o.knob_values[std::string(k.name)] = parse_knob_list(k, knob_texts.at(std::string(k.name)), option);
  }
  if (app.count("--warmup")) o.warmup = parse_one_int(warmup_text, "--warmup", 0, 100000);
  if (app.count("--frames")) {
    o.frames = parse_one_int(frames_text, "--frames", 0, 100000);
    o.frames_given = true;
  } else if (o.check) {
    o.frames = 0;
  }
  o.warmup_given = app.count("--warmup") > 0;
  o.budget_given = app.count("--budget") > 0;
  if (app.count("--time")) {
    const auto t = parse_double(time_text);
    if (!t || *t < 0.0 || *t > 1e6) throw UsageError("--time '" + time_text + "' is not a time in 0..1e6 seconds");
    o.time = *t;
  }
  if (app.count("--budget")) {
    const auto b = parse_double(budget_text);
    if (!b || *b < 0.0 || *b > 86400.0) throw UsageError("--budget '" + budget_text + "' is not a number of seconds in 0..86400");
    o.budget = *b;
  }
  if (app.count("--soak")) {
    const auto seconds = parse_double(soak_text);
    if (!seconds || *seconds <= 0.0 || *seconds > 86400.0) throw UsageError("--soak '" + soak_text + "' is not a number of seconds in (0, 86400]");
    if (o.headless) throw UsageError("--soak runs the window, not --headless");
    o.soak = *seconds;
  }
  if (app.count("--device")) {
    if (device_text == "auto") o.device = gl::DevicePreference::Auto;
    else if (device_text == "gpu") o.device = gl::DevicePreference::Gpu;
    else if (device_text == "software") o.device = gl::DevicePreference::Software;
    else throw UsageError("--device '" + device_text + "' is not auto, gpu or software");
  }
  for (const auto& [option, value] : {std::pair{"--image", &o.image}, std::pair{"--output", &o.output},
                                      std::pair{"--shader-dir", &o.shader_dir}, std::pair{"--screenshot", &o.screenshot}, std::pair{"--script", &o.script},
                                      std::pair{"--csv", &o.csv}, std::pair{"--json", &o.json}, std::pair{"--tune-file", &o.tune_file},
                                      std::pair{"--tuned", &o.tuned}, std::pair{"--report", &o.report_dir},
                                      std::pair{"--export", &o.export_dir}, std::pair{"--dump-programs", &o.dump_dir}})
    if (app.count(option) && value->empty()) throw UsageError(std::string(option) + " needs a file name");
  // "-" is standard output for the JSON listings alone: a run's report is a file (and stdout has its table).
  if (o.json == "-" && !o.list_variants && !o.list_refusals)
    throw UsageError("--json - (standard output) is for --list-variants and --list-refusals: give a run's report a file name");
  if (!o.output.empty()) output_format(o.output, "--output");  // an extension blurlab can write, before any GL work
  if (!o.screenshot.empty()) output_format(o.screenshot, "--screenshot");

  // Knobs must belong to at least one selected variant (with an effect: an implementation that is one).
  std::vector<const VariantInfo*> selected = o.variants;
  if (o.effect) {
    for (const std::string& name : o.effect_implementations())
      if (const VariantInfo* v = find_variant(name)) selected.push_back(v);
  } else if (selected.empty()) {
    selected.assign(variants().begin(), variants().end());
  }
  auto names = [&] {
    std::string list;
    for (const auto* v : selected) list += (list.empty() ? "" : ", ") + std::string(v->name);
    return list;
  };
  for (const auto& given : o.knob_values) {  // not a structured binding: clang 14 cannot capture one in a lambda
    const std::string& knob = given.first;
    if (std::none_of(selected.begin(), selected.end(), [&](const VariantInfo* v) { return find_knob(*v, knob) != nullptr; }))
      throw UsageError("--" + knob + ": " + names() + (selected.size() == 1 ? " has" : " have") + " no knob '" + knob + "'");
  }
  if (!o.formats.empty() && !std::any_of(selected.begin(), selected.end(), [](const VariantInfo* v) { return v->uses_intermediate; }))
    throw UsageError("--format: " + names() + " has no intermediate texture");
  // Like a knob no selected variant has: a map no selected variant reads was ignored without a word.
  if (o.radius_map && !std::any_of(selected.begin(), selected.end(), [](const VariantInfo* v) { return v->variable_radius; }))
    throw UsageError("--radius-map: " + names() + (selected.size() == 1 ? " blurs" : " blur") +
                     " by one radius everywhere (a radius map is for the variable-* variants)");

  // A sweep is bounded before its lists are built: one run cannot mean a billion configurations.
  if (const double n = o.configuration_count(); n > kMaxConfigurations)
    throw UsageError("the sweep has " + format_double(n, 15) + " configurations, more than " + format_double(kMaxConfigurations, 15) +
                     " in one run; split it into several runs");

  // The window's options, with or without an effect.
  if (o.headless && !o.screenshot.empty()) throw UsageError("--screenshot applies to the window; with --headless use --output");
  if (o.headless && !o.script.empty()) throw UsageError("--script applies to the window, not --headless");
  if (!o.screenshot.empty() && !o.frames_given) throw UsageError("--screenshot needs --frames N (the frame to save)");
  if (!o.script.empty()) ui::parse_script(o.script);  // validate now: one line, exit 2

  // An effect: its own parameters say what is blurred, on the HDR scene.
  if (o.effect) {
    const std::string with = " does not apply with --effect " + std::string(o.effect->name);
    for (const char* option : {"--kernel", "--radius", "--sigma", "--format", "--input-format", "--radius-map", "--image", "--print-kernel"})
      if (app.count(option)) throw UsageError(std::string(option) + with + " (its parameters say what it blurs: --help, Effects)");
    if (o.linear) throw UsageError("--linear" + with + " (the HDR scene is linear light already)");
    if (o.tune) throw UsageError("--tune" + with + ": tune the variant alone, then run the effect with --tuned");
    if (!o.export_dir.empty() && o.effect->name == "dof")
      throw UsageError("--export of depth of field is not supported yet (its blur stage is fed levels an earlier pass makes, which "
                       "a recipe does not record yet): export a variable-radius variant alone with --radius-map");
    if (o.list_variants || o.list_refusals) throw UsageError("--list-variants and --list-refusals" + with);
    // Every parameter, for every frame size the run takes, before any work.
    o.effect->validate(resolve_effect(*o.effect, o.effect_values), o.sizes.empty() ? std::vector<glm::ivec2>{kDefaultHeadlessSize} : o.sizes);
    if (!o.output.empty() && (o.effect_implementations().size() != 1 || o.sizes.size() > 1 || o.borders.size() > 1))
      throw UsageError("--output with --effect needs exactly one implementation (--variant), one --size and one --border");
    // The chain to ship: one implementation with one setting of everything, on one frame.
    if (!o.export_dir.empty() && (o.effect_settings_list().size() != 1 || o.sizes.size() > 1))
      throw UsageError("--export with --effect needs exactly one implementation (--variant), one --size, one --border and one "
                       "value of each knob (the chain to ship)");
    return o;
  }

  // Combinations that cannot mean anything.
  if (!o.sigmas.empty() && std::find(o.kernels.begin(), o.kernels.end(), KernelType::Gauss) == o.kernels.end())
    throw UsageError("--sigma applies to the gauss kernel only");
  if (o.radii.empty())
    for (double sigma : o.sigmas)
      if (radius_for_sigma(sigma) > kMaxRadius)
        throw UsageError("--sigma " + format_double(sigma) + " needs radius " + std::to_string(radius_for_sigma(sigma)) +
                         " (3 sigma), above " + std::to_string(kMaxRadius) + "; give --radius as well");
  const std::vector<Kernel> kernels = o.kernel_list();  // validates radius/sigma combinations
  if (o.print_kernel && kernels.size() != 1) throw UsageError("--print-kernel needs a single kernel, radius and sigma");
  if (!o.image.empty() && !o.sizes.empty()) throw UsageError("--size does not apply with --image (the image has its size)");
  if (o.tune && !o.report_dir.empty()) throw UsageError("--report writes a timing report; --tune writes a tuning file");
  if (o.tune && !o.dump_dir.empty()) throw UsageError("--dump-programs is for timing runs; --tune writes only its tuning file");
  if (o.tune && (!o.output.empty() || o.check)) throw UsageError("--tune times knob candidates; it does not go with --output or --check");
  if (o.tune && (!o.csv.empty() || !o.json.empty()))  // a tuning run writes only its choices: these would be left unwritten
    throw UsageError("--tune writes its choices to --tune-file; --csv and --json are for timing runs");
  if (o.tune && o.frames == 0) throw UsageError("--tune needs timed frames (--frames above 0)");
  if (o.tune && !o.tuned.empty()) throw UsageError("--tune and --tuned do not go together");
  check_list_mode(app, o);
  // --output and --export are about one blur: one variant, one setting of everything.
  const auto one_run = [&o] {
    size_t runs = 0;
    for (const VariantInfo* v : o.variants)
      for (gl::Format input : o.input_formats) runs += o.settings_list(*v, input).size();
    return o.variants.size() == 1 && runs == 1 && o.sizes.size() <= 1;
  };
  if (!o.output.empty() && !one_run()) throw UsageError("--output needs exactly one variant and one setting of each option");
  if (!o.export_dir.empty() && !one_run())
    throw UsageError("--export needs exactly one variant and one setting of each option (the blur to ship)");
  if (!o.export_dir.empty() && o.tune)
    throw UsageError("--export writes the blur of a timed run; run --tune first, then --export with --tuned");
  return o;
}

void check_window_options(const Options& o) {
  auto single = [](size_t n, const char* option) {
    if (n > 1) throw UsageError(std::string("the window shows one setting at a time: give one value of ") + option + " (lists are for --headless)");
  };
  single(o.variants.size(), "--variant");
  single(o.implementations.size(), "--variant");  // with --effect: its implementations
  single(o.kernels.size(), "--kernel");
  single(o.radii.size(), "--radius");
  single(o.sigmas.size(), "--sigma");
  single(o.formats.size(), "--format");
  single(o.input_formats.size(), "--input-format");
  if (!o.linear && o.input_formats.front() != gl::Format::rgba8)
    throw UsageError("the window blurs the scene in rgba8, or in linear light (rgba16f) with --linear or L; --input-format is for --headless");
  single(o.sizes.size(), "--size");
  single(o.borders.size(), "--border");
  for (const auto& [knob, values] : o.knob_values) single(values.size(), ("--" + knob).c_str());
  if (!o.image.empty() || !o.output.empty() || o.check || !o.csv.empty() || !o.json.empty() || o.tune || !o.tuned.empty() ||
      !o.report_dir.empty() || o.wide || !o.export_dir.empty() || !o.dump_dir.empty())
    throw UsageError(
        "--image, --output, --check, --csv, --json, --report, --export, --dump-programs, --wide, --tune and --tuned need --headless (the "
        "window shows the scene)");
}

}  // namespace blurlab::cli
