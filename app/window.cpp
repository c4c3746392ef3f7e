#include "window.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "accumulated_truth.h"
#include "blur/registry.h"
#include "check_worker.h"
#include "effects/effect_pipeline.h"
#include "effects/registry.h"
#include "exit_summary.h"
#include "gl/debug.h"
#include "gl/timer_pool.h"
#include "map_thumbnail.h"
#include "overlay.h"
#include "presenter.h"
#include "scene/scene.h"
#include "screenshot.h"
#include "scripted_input.h"
#include "second_variant.h"
#include "ui/span_stats.h"
#include "ui/view_state.h"
#include "util/error.h"
#include "util/files.h"
#include "util/strings.h"
#include "window_input.h"
#include "window_size.h"

namespace blurlab::app {

bool display_available() {
  glfwSetErrorCallback(nullptr);
  return glfwInit() == GLFW_TRUE;
}

namespace {

// An effect's difference view: red beyond 1 LSB of the ground truth (the report's bar for an
// effect computed exactly: its conclusion names the fastest within 1 LSB).
const Tolerance kEffectDifferenceTolerance{
    .lsb = true, .lsb_limit = 1, .reason = "within 1 LSB of the ground truth: the picture as exact as 8 bits hold it"};

// The folder of the files blurlab ships (the K key's kernel images): assets/ where the program
// runs (the README's commands run in the source tree), else the source tree it was built from.
std::string shipped_assets_folder() {
  std::error_code error;
  if (std::filesystem::is_directory("assets", error)) return "assets";
  return BLURLAB_SOURCE_ASSETS;
}

// --effect NAME: the window starts with it, its parameters and its implementation (--variant).
void start_with_effect(ui::ViewState& state, const cli::Options& o) {
  const auto all = effects();
  const size_t index = static_cast<size_t>(std::find(all.begin(), all.end(), o.effect) - all.begin());
  state.effect_values = o.effect_values;
  ui::select_effect(state, index + 1);
  if (o.implementations.empty()) return;
  const std::vector<std::string> names = o.effect->implementations();
  state.implementation = static_cast<size_t>(std::find(names.begin(), names.end(), o.implementations.front()) - names.begin());
  const auto blurs = variants();
  for (size_t i = 0; i < blurs.size(); ++i)
    if (blurs[i]->name == o.implementations.front()) state.variant = i;
}

// The window starts from the command line's single choices; without --variant, the first compute
// blur (the separable pair). The second variant of the difference view is the first blur of the
// other stage (the separable pair again): linear in r, never a naive 2D sum by default.
ui::ViewState initial_view_state(const cli::Options& o) {
  ui::ViewState state;
  const auto all = variants();
  auto first = [&](Stage stage) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i]->role == Role::Blur && all[i]->stage == stage) return i;
    return size_t{0};
  };
  state.variant = first(Stage::Compute);
  if (!o.variants.empty()) state.variant = static_cast<size_t>(std::find(all.begin(), all.end(), o.variants.front()) - all.begin());
  state.diff_variant = first(all[state.variant]->stage == Stage::Compute ? Stage::Fragment : Stage::Compute);
  state.settings.kernel = o.kernel_list().front();
  state.settings.border = {o.borders.front(), o.border_value};
  state.settings.radius_map = o.radius_map;
  if (o.radius_map && o.radius_map->shape == MapShape::File) state.radius_map_file = o.radius_map;
  state.sigma_follows_radius = o.sigmas.empty();
  if (!o.formats.empty()) state.settings.intermediate = o.formats.front();
  for (const auto& [knob, values] : o.knob_values) state.settings.knobs[knob] = values.front();
  if (o.linear) ui::handle_key(state, ui::Key::L, all.size());
  state.assets = shipped_assets_folder();
  if (o.effect) start_with_effect(state, o);
  return state;
}

// The window's frame loop: input, the scene and the blur (or an effect on the HDR scene) each
// frame, the picture, the overlay.
// Each other job has a file of its own: the window's keys and clicks (window_input.h), scripted
// input and the soak (scripted_input.h), the window's size and minimizing (window_size.h),
// screenshots (screenshot.h), the exit summary (exit_summary.h), the check worker, the second
// variant, the presenter and the overlay.
class App {
 public:
  App(const cli::Options& o, GLFWwindow* window, gl::GlInfo info)
      : options_(o),
        window_(window),
        info_(std::move(info)),
        programs_(o.shader_dir.empty() ? gl::ShaderSources::embedded() : gl::ShaderSources::directory(o.shader_dir)),
        timers_(gl::make_gl_query_backend(info_.software)),
        pipeline_(programs_, info_.limits, &timers_),
        effect_pipeline_(programs_, info_.limits, &timers_),
        second_(programs_, info_.limits, info_.software),
        scene_(programs_),
        present_(programs_),
        window_size_(window),
        scripted_(o.script, o.soak),
        screenshots_(o.screenshot),
        input_(window),
        truth_(scene_, programs_),
        state_(initial_view_state(o)),
        time_(o.time) {}
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  int run() {
    uint64_t frame = 0;
    bool minimized_at_end = false;
    last_frame_start_ = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(window_)) {
      if (!take_input(frame)) break;
      const glm::ivec2 size = window_size_.drawable();
      if (size.x <= 0 || size.y <= 0) {
        wait_while_minimized();
        ++frame;
        if (options_.frames_given && frame >= static_cast<uint64_t>(options_.frames)) {
          minimized_at_end = true;
          break;
        }
        continue;
      }
      const bool last_frame = options_.frames_given && frame + 1 >= static_cast<uint64_t>(options_.frames);
      show_frame(size, last_frame);
      ++frame;
      if (last_frame) break;
    }
    return finish_run(frame, minimized_at_end);
  }

 private:
  // Minimized (0x0 framebuffer): render nothing, and wait for events instead of spinning.
  void wait_while_minimized() {
    glfwWaitEventsTimeout(scripted_.more_to_come() ? 0.01 : 0.25);
    ++minimized_frames_;
  }

  // A frame of a window with a picture: the effects of the input, the clock, the picture, the
  // overlay, the screenshot; then what the GPU and the check worker finished meanwhile.
  void show_frame(glm::ivec2 size, bool last_frame) {
    apply_frame_effects(size);
    advance_clock();
    finishing_ = last_frame;
    render_frame();
    // A --frames run ends on the result of a check it asked for (C) of the settings on screen,
    // not on "comparing": on a CPU rasterizer the reference (a radius map's, an approximation's
    // two) shares the cores with the animation and may need more frames than the run has left.
    // The check a change of settings starts by itself is not waited for.
    if (last_frame && check_asked_ && checks_.busy()) {
      checks_.wait();
      poll_check();
    }
    if (state_.overlay) draw_overlay();
    if (last_frame && state_.overlay) std::printf("%s\n", describe(layout_, size_).c_str());
    screenshots_.take(size_, shown_name(), last_frame);
    glfwSwapBuffers(window_);
    for (const gl::FrameTimes& f : timers_.poll())
      if (f.frame >= first_timed_frame_) stats_.add(f);  // of this configuration only
    second_.poll(variants()[state_.diff_variant]->name, first_total_ms());
    poll_check();
  }

  // The frame's CPU time, and the scene's clock. A ground truth being accumulated is of one
  // moment: time stands still until it is done (and while paused, and in the views compared
  // with a reference).
  void advance_clock() {
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last_frame_start_).count();
    last_frame_start_ = now;
    cpu_frame_ms_ = dt * 1000.0;
    const bool frozen = state_.paused || state_.view == ui::View::DiffReference || state_.view == ui::View::DiffGaussian || truth_pending();
    if (!frozen) time_ += dt;
  }

  // The end of the run (the check worker done before the GL objects go): the exit summary, and
  // the exit code: a screenshot the run was for and did not make fails it; a soak has its verdict.
  int finish_run(uint64_t frames, bool minimized_at_end) {
    checks_.wait();
    const size_t timer_queries = timers_.queries_created() + second_.queries_created();
    print_exit_summary(presented_.label, stats_,
                       {.frames = frames, .minimized_frames = minimized_frames_, .timer_queries = timer_queries,
                        .frames_dropped = timers_.frames_dropped()});
    if (const auto missing = screenshots_.missing(minimized_at_end, options_.frames)) {
      std::fflush(stdout);
      print_error("no screenshot made: " + *missing);
      return 1;
    }
    if (!scripted_.soaking()) return 0;
    return scripted_.soak_verdict(
        {.frames = frames, .timer_queries = timer_queries, .programs_compiled = programs_.compiled(), .programs_cached = programs_.size()});
  }

  // What is on screen, for the S key's file name: the variant, or the effect and its implementation.
  std::string shown_name() const {
    if (const EffectInfo* effect = ui::current_effect(state_)) return std::string(effect->name) + "-" + ui::current_implementation(state_);
    return std::string(variants()[state_.variant]->name);
  }

  // This frame's input: the scripted steps (through the paths real input takes), GLFW's events
  // and the keys they brought, and the effects that act at once. False: the run ends (Q, or the
  // soak is over).
  bool take_input(uint64_t frame) {
    const std::optional<std::vector<ui::ScriptStep>> steps = scripted_.steps(frame, state_.settings.kernel.radius, state_.variant);
    if (!steps) return false;
    for (const ui::ScriptStep& step : *steps) {
      if (step.key) input_.push_key(*step.key);
      if (step.resize) window_size_.resize(*step.resize);
      if (step.click) input_.push_click(*step.click);
      if (step.wait_for_check && checks_.busy()) {  // this frame shows the check's result
        checks_.wait();
        poll_check();
      }
    }
    glfwPollEvents();
    const std::vector<ui::Key> keys = input_.take_keys();
    if (!keys.empty()) notice_.clear();  // a notice answers the last key only
    for (ui::Key key : keys) {
      effects_ |= ui::handle_key(state_, key, variants().size());
      if (!state_.key_note.empty()) notice_ = state_.key_note;
    }
    for (glm::ivec2 at : input_.take_clicks()) set_depth_parameter_at(at);
    if (effects_ & ui::kQuit) return false;
    if (effects_ & ui::kVsync) glfwSwapInterval(state_.vsync ? 1 : 0);
    if (effects_ & ui::kReloadShaders) reload_shaders();
    if (effects_ & ui::kScreenshot) screenshots_.ask();
    effects_ &= ~(ui::kVsync | ui::kReloadShaders | ui::kScreenshot);
    return true;
  }

  // A click on the picture: the effect's depth parameter (depth of field's focus distance) becomes
  // the view depth of the point clicked, read from the last frame's depth.
  void set_depth_parameter_at(glm::ivec2 at) {
    const EffectInfo* effect = ui::current_effect(state_);
    if (!effect || effect->depth_parameter.empty() || !hdr_depth_ || at.x >= size_.x || at.y >= size_.y) return;
    const Image depth = hdr_depth_.download();
    const double z = effect_camera(*effect, effect_settings_.values, size_).view_depth(depth.at(at.x, at.y, 0));
    const std::string name(effect->depth_parameter), value = format_double(z, 4);
    const std::string where = "click at " + std::to_string(at.x) + "," + std::to_string(at.y) + ": depth " + value;
    if (const auto why = ui::set_effect_value(state_, name, value, size_)) {
      notice_ = where + ", refused: " + *why;
      return;
    }
    notice_ = where + " is the " + name + " now";
    std::printf("%s\n", notice_.c_str());
    effects_ |= ui::kReconfigure;
  }

  // The effects that wait for a frame to draw: new targets for a new size, a new configuration,
  // a check. A minimized window keeps them until it comes back.
  void apply_frame_effects(glm::ivec2 size) {
    if (size != size_ || (effects_ & ui::kRebuildTargets)) {
      rebuild_targets(size);
      effects_ |= ui::kReconfigure;
    }
    if (effects_ & ui::kReconfigure) configure();
    if (effects_ & (ui::kReconfigure | ui::kCheck)) check_requested_ = true;
    if (effects_ & ui::kCheck) check_asked_ = true;
    effects_ = ui::kNone;
  }

  void rebuild_targets(glm::ivec2 size) {
    size_ = size;
    const gl::Format format = state_.settings.input_format;
    source_ = gl::Texture(size.x, size.y, format, "scene");
    output_ = gl::Texture(size.x, size.y, format, "blurred");
    second_.resize(size, format);
    // An effect's frame: the HDR scene and its depth, and the picture the effect makes of them.
    const bool effect = ui::current_effect(state_) != nullptr;
    hdr_color_ = effect ? gl::Texture(size.x, size.y, gl::Format::rgba16f, "HDR frame") : gl::Texture();
    hdr_depth_ = effect ? gl::Texture(size.x, size.y, gl::Format::depth32f, "HDR frame depth") : gl::Texture();
    effect_output_ = effect ? gl::Texture(size.x, size.y, gl::Format::rgba8, "effect picture") : gl::Texture();
    reference_ = gl::Texture();
    stats_.clear();
  }

  // A new configuration: everything measured or checked for the previous one is dropped, and
  // the overlay shows this variant's own settings (with its defaults), runnable or not.
  void configure() {
    const auto all = variants();
    const VariantInfo& variant = *all[state_.variant];
    ++configuration_;
    check_asked_ = false;  // a check asked for belongs to the settings it was asked for
    shader_error_.clear();
    reference_ = gl::Texture();
    last_check_.reset();
    second_difference_.reset();
    second_.reset();
    first_timed_frame_ = timers_.frames_begun();
    stats_.clear();
    if (const EffectInfo* effect = ui::current_effect(state_)) {
      configure_effect(*effect);
      return;
    }
    settings_ = resolve(variant, state_.settings);
    map_thumbnail_ = settings_.radius_map ? radius_map_thumbnail(*settings_.radius_map, size_, settings_.kernel.radius) : gl::Texture();
    // The exact Gaussian is what an approximation stands in for; an exact variant's is its reference.
    if (state_.view == ui::View::DiffGaussian && !is_approximation(variant)) state_.view = ui::View::DiffReference;
    try {
      const auto refusal = pipeline_.configure(variant, state_.settings, size_);
      unsupported_ = refusal ? std::optional(refusal->reason) : std::nullopt;
      if (state_.view == ui::View::DiffVariant) second_.configure(*all[state_.diff_variant], state_.settings, size_);
    } catch (const gl::ShaderError& e) {
      shader_error_ = e.log().empty() ? e.what() : e.log();
      unsupported_ = "shader error";
    }
  }

  // The effect with the state's settings, or why its implementation cannot run them: a refusal,
  // or parameters that do not fit this frame (a PSF's sigma in percent of a height grown past
  // what a blur reaches).
  void configure_effect(const EffectInfo& effect) {
    map_thumbnail_ = gl::Texture();
    effect_settings_ = ui::effect_settings(state_);
    try {
      effect_description_ = effect.describe(effect_settings_, size_);
    } catch (const UsageError&) {
      effect_description_.clear();  // the settings do not fit this size: the refusal below says why
    }
    try {
      const auto refusal = effect_pipeline_.configure(effect, effect_settings_, size_);
      unsupported_ = refusal ? std::optional(refusal->reason) : std::nullopt;
    } catch (const gl::ShaderError& e) {
      shader_error_ = e.log().empty() ? e.what() : e.log();
      unsupported_ = "shader error";
    } catch (const UsageError& e) {
      unsupported_ = e.what();
    }
  }

  void reload_shaders() {
    if (options_.shader_dir.empty()) {
      notice_ = "R: nothing to reload: the shaders are the program's own copies (start with --shader-dir glsl to edit and "
                "reload them)";
      std::printf("%s\n", notice_.c_str());
      return;
    }
    try {
      programs_.reload();
      present_.refresh(programs_);
      pipeline_.refresh_programs();
      if (ui::current_effect(state_) && !unsupported_) effect_pipeline_.refresh_programs();  // the others' are fetched when configured
      second_.refresh_programs();
      shader_error_.clear();
      std::cout << "shaders reloaded from " << (options_.shader_dir.empty() ? "the embedded copies" : options_.shader_dir) << std::endl;
    } catch (const gl::ShaderError& e) {
      // The last good programs stay in use; the overlay shows the log with file and line.
      shader_error_ = e.log().empty() ? e.what() : e.log();
      print_error(e.what());
    }
  }

  bool second_runs() const { return state_.view == ui::View::DiffVariant && !unsupported_ && second_.runnable(); }

  void render_frame() {
    if (ui::current_effect(state_)) {
      render_effect_frame();
      return;
    }
    timers_.begin_frame();
    {
      gl::ScopedSpan span(&timers_, "scene");
      scene_.render(source_, time_, state_.linear_light);
    }
    // The blur runs (and is timed and checked) in every view where it can; B only shows the scene.
    const bool blur = !unsupported_;
    if (blur) pipeline_.run(source_, output_);
    timers_.end_frame();
    const bool second = second_runs();
    if (second) second_.run(source_);
    if (check_requested_ && blur && !checks_.busy()) start_check(second);

    presented_ = ui::presented(state_, {.blur_runs = blur, .reference_ready = static_cast<bool>(reference_), .second_runs = second},
                               variants()[state_.diff_variant]->name);
    const gl::Texture* image = presented_.picture == ui::Picture::Unblurred ? &source_ : &output_;
    const gl::Texture* other = presented_.picture == ui::Picture::DiffReference || presented_.picture == ui::Picture::DiffGaussian
                                   ? &reference_
                               : presented_.picture == ui::Picture::DiffVariant ? &second_.output()
                                                                                : nullptr;
    diff_tolerance_ = blur_difference_tolerance();
    present_.draw(*image, other, diff_tolerance_, state_.linear_light ? Encoding::Srgb : Encoding::AsStored, size_);
  }

  // Red in a blur's difference view: the check's own tolerance (scaled by the input's peak) once
  // it ran, else the variant's for a peak of 1.
  Tolerance blur_difference_tolerance() const {
    Tolerance tolerance = last_check_ ? last_check_->tolerance : tolerance_for(*variants()[state_.variant], settings_, size_, 1.0);
    if (presented_.picture == ui::Picture::DiffVariant) {
      // Each output may be off by its own tolerance: together by both.
      const Tolerance other_tolerance = tolerance_for(*variants()[state_.diff_variant], second_.settings(), size_, 1.0);
      tolerance.lsb_limit += other_tolerance.lsb_limit;
      tolerance.relative += other_tolerance.relative;
      tolerance.absolute += other_tolerance.absolute;
    }
    return tolerance;
  }

  // The HDR scene (and its depth), the effect on it, and its picture as it is (tonemapped and
  // sRGB-encoded already); B shows the HDR frame through the same tonemap, D the picture against
  // the ground truth.
  void render_effect_frame() {
    const EffectInfo& effect = *ui::current_effect(state_);
    timers_.begin_frame();
    {
      gl::ScopedSpan span(&timers_, "scene");
      scene_.render_hdr(hdr_color_, hdr_depth_, time_, effect_camera(effect, effect_settings_.values, size_));
    }
    const bool runs = !unsupported_;
    if (runs) effect_pipeline_.run(hdr_color_, hdr_depth_, effect_output_);
    timers_.end_frame();
    // A ground truth that renders the scene (depth of field's lens) is made on demand only (C), a
    // few views a frame, shown as it accumulates; the check starts once it is complete.
    bool accumulating = false;
    if (check_requested_ && runs && !checks_.busy()) {
      if (!effect.ground_truth_views) {
        start_effect_check();
      } else if (!check_asked_) {
        check_requested_ = false;
      } else {
        notice_ = truth_.add_views(effect, effect_settings_, size_, configuration_, time_, finishing_);
        accumulating = truth_pending();
        if (!accumulating) start_effect_check();
      }
    }
    presented_ = ui::presented(state_, {.blur_runs = runs, .reference_ready = static_cast<bool>(reference_)}, "");
    diff_tolerance_ = kEffectDifferenceTolerance;
    if (accumulating)
      present_.draw(truth_.picture(), nullptr, diff_tolerance_, Encoding::AsStored, size_);
    else if (presented_.picture == ui::Picture::Unblurred)
      present_.draw(hdr_color_, nullptr, diff_tolerance_, Encoding::Tonemap, size_);
    else
      present_.draw(effect_output_, presented_.picture == ui::Picture::DiffReference ? &reference_ : nullptr, diff_tolerance_,
                    Encoding::AsStored, size_);
  }

  // What the effect's check reads, read back here, with the ground truth's views if it renders
  // them; the worker runs EffectInfo::check.
  void start_effect_check() {
    check_requested_ = false;
    std::vector<SceneCamera> views;
    std::optional<Image> mean;
    if (std::optional<AccumulatedTruth::Complete> truth = truth_.complete(configuration_)) {
      views = std::move(truth->views);
      mean = std::move(truth->mean);
    }
    checks_.start_effect(*effect_pipeline_.effect(), effect_pipeline_.settings(), size_, hdr_color_.download(), hdr_depth_.download(),
                         effect_output_.download(), effect_pipeline_.download_all(), configuration_, std::move(views), std::move(mean));
  }

  // Whether a ground truth of the configuration on screen is being accumulated.
  bool truth_pending() const { return truth_.pending(configuration_); }

  // The check reads the textures here; the worker compares them with the CPU reference.
  void start_check(bool with_second) {
    check_requested_ = false;
    std::optional<Image> second;
    if (with_second) second = second_.output().download();
    checks_.start(*variants()[state_.variant], settings_, size_, source_.download(), output_.download(), std::move(second), configuration_);
  }

  void poll_check() {
    std::optional<CheckOutcome> outcome = checks_.collect(configuration_);
    if (!outcome) return;
    last_check_ = std::move(outcome->line);
    second_difference_ = outcome->second;
    // DiffGaussian: the exact Gaussian an approximation stands in for.
    const ReferenceImage& reference = state_.view == ui::View::DiffGaussian && outcome->gaussian ? *outcome->gaussian : outcome->reference;
    const gl::Format shown = ui::current_effect(state_) ? effect_output_.format() : output_.format();
    if ((state_.view == ui::View::DiffReference || state_.view == ui::View::DiffGaussian) && reference.width == size_.x &&
        reference.height == size_.y)
      reference_ = reference_texture(reference, shown);
  }

  std::optional<double> first_total_ms() const {
    for (const ui::SpanSummary& span : stats_.summaries())
      if (span.name == "total") return span.mean_ms;
    return std::nullopt;
  }

  // The correctness line's state: of the configuration on screen only.
  CheckState check_state() const {
    if (unsupported_) return CheckState::NotRun;
    if (checks_.checking(configuration_)) return CheckState::Checking;
    return last_check_ ? CheckState::Done : CheckState::Pending;
  }

  // What the difference view shows: the amplification, what red means, the largest difference
  // once known (to the reference, to the exact Gaussian, to the second variant), and the second
  // variant's time against the first's.
  DiffLine diff_line() const {
    DiffLine diff;
    diff.amplify = kDiffAmplify;
    const bool effect = ui::current_effect(state_) != nullptr;
    diff.scale = gl::info(effect ? effect_output_.format() : output_.format()).is_float ? "differences of 1/64 are white"
                                                     : "1 LSB = " + std::to_string(static_cast<int>(kDiffAmplify / 2.55f + 0.5f)) + "% grey";
    diff.tolerance = tolerance_text(diff_tolerance_);
    if (presented_.picture == ui::Picture::DiffReference && last_check_) diff.largest = last_check_->result.text();
    if (presented_.picture == ui::Picture::DiffReference && last_check_ && last_check_->effect) {
      const EffectFidelity& f = last_check_->effect->fidelity;
      diff.largest = "max " + format_double(f.max_lsb, 3) + " LSB, rms " + format_double(f.rms_lsb, 3) + " (" + format_double(f.psnr_db, 3) + " dB)";
    }
    if (presented_.picture == ui::Picture::DiffGaussian && last_check_ && last_check_->fidelity)
      diff.largest = "max " + format_double(last_check_->fidelity->max_lsb, 3) + " LSB, rms " +
                     format_double(last_check_->fidelity->rms_lsb, 3) + " (sigma " + format_double(last_check_->fidelity->sigma, 4) + ")";
    if (presented_.picture == ui::Picture::DiffVariant && second_difference_) diff.largest = second_difference_->text();
    diff.second = std::string(variants()[state_.diff_variant]->name);
    diff.second_ms = second_.total_ms();
    diff.first_ms = first_total_ms();
    diff.second_problem = second_.problem();
    return diff;
  }

  void draw_overlay() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const DiffLine diff = diff_line();
    const bool effect = ui::current_effect(state_) != nullptr;
    const OverlayModel model{info_,
                             size_,
                             state_,
                             settings_,
                             unsupported_,
                             presented_,
                             stats_,
                             cpu_frame_ms_,
                             shader_error_,
                             notice_,
                             check_state(),
                             last_check_ ? &*last_check_ : nullptr,
                             diff,
                             time_,
                             map_thumbnail_.id(),
                             {map_thumbnail_.width(), map_thumbnail_.height()},
                             effect ? &effect_settings_ : nullptr,
                             effect_description_};
    const OverlayActions actions = draw_overlay_panels(model, overlay_memory_);
    layout_ = actions.layout;
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // Controls act like keys: their effects are handled at the start of the next frame.
    if (actions.new_state) state_ = *actions.new_state;
    effects_ |= actions.effects;
  }

  const cli::Options& options_;
  GLFWwindow* window_;
  gl::GlInfo info_;
  gl::ProgramCache programs_;
  gl::TimerPool timers_;
  BlurPipeline pipeline_;
  EffectPipeline effect_pipeline_;  // ui::current_effect
  SecondVariant second_;  // View::DiffVariant
  Scene scene_;
  Presenter present_;
  WindowSize window_size_;
  ScriptedInput scripted_;
  WindowScreenshots screenshots_;
  WindowInput input_;
  gl::Texture source_, output_, reference_;
  gl::Texture hdr_color_, hdr_depth_, effect_output_;  // an effect's frame, depth and picture
  AccumulatedTruth truth_;  // an effect's ground truth that renders the scene (C)
  bool finishing_ = false;          // this frame is a --frames run's last
  glm::ivec2 size_{0, 0};
  ui::ViewState state_;
  BlurSettings settings_;     // the current variant's settings, resolved
  EffectSettings effect_settings_;  // with an effect: its settings, resolved
  std::string effect_description_;  // EffectInfo::describe of them
  uint64_t configuration_ = 0;  // counts configure() calls: a check belongs to one
  ui::Presented presented_;
  ui::SpanStats stats_;
  std::optional<std::string> unsupported_;
  std::string shader_error_;
  std::string notice_;  // why the last key did nothing
  CheckWorker checks_;
  gl::Texture map_thumbnail_;  // a variable-radius variant's map, for the overlay (radius_map_thumbnail)
  std::optional<CheckLine> last_check_;
  std::optional<CheckResult> second_difference_;
  Tolerance diff_tolerance_;
  OverlayMemory overlay_memory_;
  OverlayLayout layout_;
  uint32_t effects_ = ui::kReconfigure | ui::kRebuildTargets | ui::kVsync;
  bool check_requested_ = false;
  bool check_asked_ = false;  // by C (or the panel's button), for these settings
  uint64_t minimized_frames_ = 0;
  uint64_t first_timed_frame_ = 0;  // the timer pool's first frame of the configuration on screen
  double time_ = 0.0;
  double cpu_frame_ms_ = 0.0;
  std::chrono::steady_clock::time_point last_frame_start_;  // for the next frame's clock
};

}  // namespace

// One shutdown path: each resource lets go in its destructor, in reverse order of creation,
// whether the run returns or throws.
struct GlfwLibrary {
  ~GlfwLibrary() { glfwTerminate(); }
};
struct ImGuiContextGuard {
  ImGuiContextGuard() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini written into the working directory
  }
  ~ImGuiContextGuard() { ImGui::DestroyContext(); }
};
struct ImGuiBackends {
  explicit ImGuiBackends(GLFWwindow* window) {
    ImGui_ImplGlfw_InitForOpenGL(window, true);  // chains to the key callback installed before it
    ImGui_ImplOpenGL3_Init("#version 410 core");
  }
  ~ImGuiBackends() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
  }
};

int run_window(const cli::Options& o) {
  const GlfwLibrary glfw;  // display_available() initialized it
  if (!o.screenshot.empty()) {  // before any GL work
    check_output_target(o.screenshot, "--screenshot");
    check_outputs_spare_inputs({{o.screenshot, "--screenshot"}}, {}, o.input_files(), o.input_directories());
  }
  const bool debug = o.gl_debug || gl::kDebugBuild;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, debug ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  const glm::ivec2 size = o.sizes.empty() ? glm::ivec2(1280, 720) : o.sizes.front();
  const std::unique_ptr<GLFWwindow, void (*)(GLFWwindow*)> window(glfwCreateWindow(size.x, size.y, "blurlab", nullptr, nullptr),
                                                                  glfwDestroyWindow);
  gl::keep_drivers_loaded_for_sanitizers();  // loaded even when the 4.3 context is refused
  if (!window) {
    const char* why = nullptr;
    glfwGetError(&why);
    throw Error(std::string("OpenGL 4.3 core is not available in a window: ") + (why ? why : "glfwCreateWindow failed"));
  }
  glfwMakeContextCurrent(window.get());
  gl::keep_drivers_loaded_for_sanitizers();
  if (debug) gl::enable_debug_output();
  const gl::GlInfo info = gl::query_gl_info("GLFW window", debug);
  std::cout << gl::describe(info) << std::flush;
  int status = 0;
  {
    const ImGuiContextGuard imgui;
    App app(o, window.get(), info);  // installs its key callback (WindowInput) before ImGui chains to it
    const ImGuiBackends backends(window.get());
    status = app.run();
  }
  if (debug && gl::debug_error_count() > 0) {
    print_error(std::to_string(gl::debug_error_count()) + " OpenGL errors (printed above)");
    status = 1;
  }
  return status;
}

}  // namespace blurlab::app
