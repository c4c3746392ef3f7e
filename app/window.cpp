#include "window.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <future>
#include <iostream>
#include <memory>
#include <optional>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "gl/barriers.h"
#include "gl/debug.h"
#include "gl/timer_pool.h"
#include "image/image_file.h"
#include "overlay.h"
#include "scene/scene.h"
#include "ui/soak.h"
#include "ui/span_stats.h"
#include "ui/view_state.h"
#include "util/error.h"
#include "util/files.h"
#include "util/strings.h"

namespace blurlab::app {

bool display_available() {
  glfwSetErrorCallback(nullptr);
  return glfwInit() == GLFW_TRUE;
}

namespace {

std::optional<ui::Key> translate(int key, int mods) {
  if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9)
    return static_cast<ui::Key>(static_cast<int>((mods & GLFW_MOD_SHIFT) ? ui::Key::ShiftDigit1 : ui::Key::Digit1) + key - GLFW_KEY_1);
  switch (key) {
    case GLFW_KEY_LEFT: return ui::Key::Left;
    case GLFW_KEY_RIGHT: return ui::Key::Right;
    case GLFW_KEY_KP_ADD: return ui::Key::Plus;
    case GLFW_KEY_EQUAL: return ui::Key::Plus;  // '+' is Shift+'=' on most layouts; '=' alone works too
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: return ui::Key::Minus;
    case GLFW_KEY_G: return ui::Key::G;
    case GLFW_KEY_F: return ui::Key::F;
    case GLFW_KEY_E: return ui::Key::E;
    case GLFW_KEY_SPACE: return ui::Key::Space;
    case GLFW_KEY_V: return ui::Key::V;
    case GLFW_KEY_S: return ui::Key::S;
    case GLFW_KEY_D: return ui::Key::D;
    case GLFW_KEY_B: return ui::Key::B;
    case GLFW_KEY_TAB: return ui::Key::Tab;
    case GLFW_KEY_R: return ui::Key::R;
    case GLFW_KEY_L: return ui::Key::L;
    case GLFW_KEY_C: return ui::Key::C;
    case GLFW_KEY_ESCAPE: return ui::Key::Escape;
    case GLFW_KEY_F1: return ui::Key::Help;
    case GLFW_KEY_SLASH: return (mods & GLFW_MOD_SHIFT) ? std::optional(ui::Key::Help) : std::nullopt;  // '?'
    default: return std::nullopt;
  }
}

// The program that shows a texture in the window, and its uniforms, looked up once (again after
// the shaders are reloaded).
struct Presenter {
  std::shared_ptr<const gl::Program> program;
  GLint mode = -1, amplify = -1, tolerance = -1, encode_srgb = -1;
  void refresh(gl::ProgramCache& programs) {
    program = programs.share({{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, "present.frag"}}, {});
    mode = glGetUniformLocation(program->id(), "u_mode");
    amplify = glGetUniformLocation(program->id(), "u_amplify");
    tolerance = glGetUniformLocation(program->id(), "u_tolerance");
    encode_srgb = glGetUniformLocation(program->id(), "u_encode_srgb");
  }
};

// The difference views amplify |a - b| by this much: one 8-bit step is a quarter of white.
constexpr float kDiffAmplify = 64.0f;

// The reference as the output texture stores it, so a correct variant differs from it only by
// its real errors: rgba8 rounded like to_unorm8 (exact in the texture), float values rounded to
// the format by the upload.
gl::Texture reference_texture(const ReferenceImage& reference, gl::Format format) {
  gl::Texture texture(reference.width, reference.height, format, "CPU reference");
  Image image(reference.width, reference.height);
  const bool unorm = !gl::info(format).is_float;
  for (size_t i = 0; i < image.texels.size(); ++i)
    image.texels[i] = unorm ? static_cast<float>(to_unorm8(reference.texels[i]) / 255.0) : static_cast<float>(reference.texels[i]);
  texture.upload(image);
  return texture;
}

// The present shader's tolerance (relative, absolute) for a difference, from a check's tolerance:
// rgba8 values differ by whole steps, so the limit sits half a step above the allowed ones.
glm::vec2 shader_tolerance(const Tolerance& t) {
  return t.lsb ? glm::vec2(0.0f, static_cast<float>((t.lsb_limit + 0.5) / 255.0))
               : glm::vec2(static_cast<float>(t.relative), static_cast<float>(t.absolute));
}

std::string tolerance_text(const Tolerance& t) {
  if (t.lsb) return "beyond " + std::to_string(t.lsb_limit) + " LSB";
  char text[64];
  std::snprintf(text, sizeof text, "beyond %.1e x |ref| + %.1e", t.relative, t.absolute);
  return text;
}

// A check against the CPU reference runs on a worker thread; the frame never waits for it. It
// belongs to one configuration; a result for an older one is dropped.
struct CheckOutcome {
  CheckResult result;
  ReferenceImage reference;          // what the output must match (an approximation's model)
  std::optional<Fidelity> fidelity;  // an approximation's, against the exact Gaussian of its sigma
  std::optional<CheckResult> second;  // View::DiffVariant: the difference between the two outputs
};
struct CheckJob {
  std::future<CheckOutcome> result;
  std::string label;
  Tolerance tolerance;
  uint64_t configuration = 0;
};

class App {
 public:
  App(const cli::Options& o, GLFWwindow* window, gl::GlInfo info)
      : options_(o),
        window_(window),
        info_(std::move(info)),
        programs_(o.shader_dir.empty() ? gl::ShaderSources::embedded() : gl::ShaderSources::directory(o.shader_dir)),
        timers_(gl::make_gl_query_backend(info_.software)),
        second_timers_(gl::make_gl_query_backend(info_.software)),
        pipeline_(programs_, info_.limits, &timers_),
        second_pipeline_(programs_, info_.limits, &second_timers_),  // timed apart: its cost is shown, not mixed in
        scene_(programs_),
        empty_vao_(gl::create_vertex_array()),
        time_(o.time) {
    // Start from the command line's single choices; without --variant, the first compute blur
    // (the separable pair). The second variant of the difference view is the first blur of the
    // other stage (the separable pair again): linear in r, never a naive 2D sum by default.
    const auto all = variants();
    auto first = [&](Stage stage) {
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i]->role == Role::Blur && all[i]->stage == stage) return i;
      return size_t{0};
    };
    state_.variant = first(Stage::Compute);
    if (!o.variants.empty()) state_.variant = static_cast<size_t>(std::find(all.begin(), all.end(), o.variants.front()) - all.begin());
    state_.diff_variant = first(all[state_.variant]->stage == Stage::Compute ? Stage::Fragment : Stage::Compute);
    state_.settings.kernel = o.kernel_list().front();
    state_.settings.border = {o.borders.front(), o.border_value};
    state_.sigma_follows_radius = o.sigmas.empty();
    if (!o.formats.empty()) state_.settings.intermediate = o.formats.front();
    for (const auto& [knob, values] : o.knob_values) state_.settings.knobs[knob] = values.front();
    if (o.linear) ui::handle_key(state_, ui::Key::L, all.size());
    script_ = ui::parse_script(o.script);
    // Keys arrive through GLFW's callback, which finds this App through the window's user pointer.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int mods) {
      if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
      if (ImGui::GetCurrentContext() && ImGui::GetIO().WantCaptureKeyboard) return;
      if (auto k = translate(key, mods)) static_cast<App*>(glfwGetWindowUserPointer(w))->keys_.push_back(*k);
    });
    present_.refresh(programs_);
  }

  ~App() {
    glfwSetKeyCallback(window_, nullptr);
    glfwSetWindowUserPointer(window_, nullptr);
  }
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  int run() {
    const auto all = variants();
    uint64_t frame = 0;
    auto last = std::chrono::steady_clock::now();
    const auto start = last;
    size_t script_at = 0;
    bool minimized_at_end = false;
    while (!glfwWindowShouldClose(window_)) {
      // Scripted input (tests, soak runs) goes through the same paths as real input.
      std::vector<ui::ScriptStep> steps;
      for (; script_at < script_.size() && script_[script_at].frame <= frame; ++script_at) steps.push_back(script_[script_at]);
      if (soak_) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        steps = soak_driver_.steps(frame, state_.settings.kernel.radius);
        if (!soak_->frame(elapsed, state_.variant, steps)) break;
      }
      for (const ui::ScriptStep& step : steps) {
        if (step.key) keys_.push_back(*step.key);
        if (step.resize) scripted_resize(*step.resize);
        if (step.wait_for_check && check_job_) {  // this frame shows the check's result
          check_job_->result.wait();
          poll_check();
        }
      }
      glfwPollEvents();
      for (ui::Key key : keys_) effects_ |= ui::handle_key(state_, key, all.size());
      keys_.clear();
      if (effects_ & ui::kQuit) break;
      if (effects_ & ui::kVsync) glfwSwapInterval(state_.vsync ? 1 : 0);
      if (effects_ & ui::kReloadShaders) reload_shaders();
      if (effects_ & ui::kScreenshot) pending_screenshot_ = true;
      effects_ &= ~(ui::kVsync | ui::kReloadShaders | ui::kScreenshot);

      // Minimized (0x0 framebuffer): render nothing, and wait for events instead of spinning.
      glm::ivec2 size{0, 0};
      glfwGetFramebufferSize(window_, &size.x, &size.y);
      if (minimized_ || size.x <= 0 || size.y <= 0) {
        glfwWaitEventsTimeout(script_at < script_.size() || soak_ ? 0.01 : 0.25);
        ++frame;
        ++minimized_frames_;
        if (options_.frames_given && frame >= static_cast<uint64_t>(options_.frames)) {
          minimized_at_end = true;
          break;
        }
        continue;
      }
      if (size != size_ || (effects_ & ui::kRebuildTargets)) {
        rebuild_targets(size);
        effects_ |= ui::kReconfigure;
      }
      if (effects_ & ui::kReconfigure) configure();
      if (effects_ & (ui::kReconfigure | ui::kCheck)) check_requested_ = true;
      effects_ = ui::kNone;

      const auto now = std::chrono::steady_clock::now();
      const double dt = std::chrono::duration<double>(now - last).count();
      last = now;
      cpu_frame_ms_ = dt * 1000.0;
      const bool frozen = state_.paused || state_.view == ui::View::DiffReference;
      if (!frozen) time_ += dt;

      render_frame();
      const bool last_frame = options_.frames_given && frame + 1 >= static_cast<uint64_t>(options_.frames);
      if (state_.overlay) draw_overlay();
      if (last_frame && state_.overlay) std::printf("%s\n", describe(layout_, size_).c_str());
      if (pending_screenshot_) save_screenshot(automatic_screenshot_path());
      pending_screenshot_ = false;
      if (last_frame && !options_.screenshot.empty()) screenshot_made_ = save_screenshot(options_.screenshot);
      glfwSwapBuffers(window_);
      for (const gl::FrameTimes& f : timers_.poll()) stats_.add(f);
      for (const gl::FrameTimes& f : second_timers_.poll()) watch_second(f);
      poll_check();
      ++frame;
      if (last_frame) break;
    }
    if (check_job_) check_job_->result.wait();  // let the worker finish before the GL objects go
    std::printf("view: %s\n", presented_.label.c_str());
    for (const ui::SpanSummary& span : stats_.summaries())
      std::printf("span %-6s avg %.3f ms (min %.3f, max %.3f, last %zu frames)\n", span.name.c_str(), span.mean_ms, span.min_ms,
                  span.max_ms, span.samples);
    std::printf("frames %llu (minimized %llu), GPU timer queries %zu, frames dropped %zu\n",
                static_cast<unsigned long long>(frame), static_cast<unsigned long long>(minimized_frames_),
                timers_.queries_created() + second_timers_.queries_created(), timers_.frames_dropped());
    if (!options_.screenshot.empty() && !screenshot_made_) {
      // The run was for the picture: without it, it failed.
      std::fflush(stdout);
      print_error("no screenshot made: " + (minimized_at_end ? "the window was minimized at frame " + std::to_string(options_.frames)
                                            : screenshot_error_.empty() ? "the window closed before the last frame" : screenshot_error_));
      return 1;
    }
    if (!soak_) return 0;
    return soak_->verdict({.frames = frame,
                           .timer_queries = timers_.queries_created() + second_timers_.queries_created(),
                           .programs_compiled = programs_.compiled(),
                           .programs_cached = programs_.size()});
  }

 private:
  void scripted_resize(glm::ivec2 size) {
    if (size.x == 0 || size.y == 0) {
      // What a minimized window reports; iconify too where a window manager allows it.
      minimized_ = true;
      glfwIconifyWindow(window_);
      return;
    }
    minimized_ = false;
    glfwRestoreWindow(window_);
    glfwSetWindowSize(window_, size.x, size.y);
    // X11 applies sizes asynchronously: give the server a moment so the next frame sees it.
    for (int i = 0; i < 50; ++i) {
      glm::ivec2 fb;
      glfwGetFramebufferSize(window_, &fb.x, &fb.y);
      if (fb == size) break;
      glfwWaitEventsTimeout(0.01);
    }
  }

  void rebuild_targets(glm::ivec2 size) {
    size_ = size;
    const gl::Format format = state_.settings.input_format;
    source_ = gl::Texture(size.x, size.y, format, "scene");
    output_ = gl::Texture(size.x, size.y, format, "blurred");
    second_ = gl::Texture(size.x, size.y, format, "second variant");
    reference_ = gl::Texture();
    stats_.clear();
  }

  // A new configuration: everything measured or checked for the previous one is dropped, and
  // the overlay shows this variant's own settings (with its defaults), runnable or not.
  void configure() {
    const auto all = variants();
    const VariantInfo& variant = *all[state_.variant];
    ++configuration_;
    shader_error_.clear();
    reference_ = gl::Texture();
    last_check_.reset();
    second_difference_.reset();
    second_problem_.reset();
    second_slow_frames_ = 0;
    settings_ = resolve(variant, state_.settings);
    try {
      unsupported_ = pipeline_.configure(variant, state_.settings, size_);
      second_unsupported_.reset();
      if (state_.view == ui::View::DiffVariant) {
        BlurSettings second = state_.settings;
        second.knobs.clear();  // the second variant runs its defaults
        second_unsupported_ = second_pipeline_.configure(*all[state_.diff_variant], second, size_);
        if (second_unsupported_) second_problem_ = std::string(all[state_.diff_variant]->name) + " cannot run: " + *second_unsupported_;
      }
    } catch (const gl::ShaderError& e) {
      shader_error_ = e.log().empty() ? e.what() : e.log();
      unsupported_ = "shader error";
    }
    stats_.clear();
    second_stats_.clear();
  }

  void reload_shaders() {
    try {
      programs_.reload();
      present_.refresh(programs_);
      pipeline_.refresh_programs();
      second_pipeline_.refresh_programs();
      shader_error_.clear();
      std::cout << "shaders reloaded from " << (options_.shader_dir.empty() ? "the embedded copies" : options_.shader_dir) << std::endl;
    } catch (const gl::ShaderError& e) {
      // The last good programs stay in use; the overlay shows the log with file and line.
      shader_error_ = e.log().empty() ? e.what() : e.log();
      print_error(e.what());
    }
  }

  bool second_runs() const {
    return state_.view == ui::View::DiffVariant && !unsupported_ && !second_unsupported_ && !second_problem_;
  }

  void render_frame() {
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
    if (second) {
      second_timers_.begin_frame();
      second_pipeline_.run(source_, second_);
      second_timers_.end_frame();
    }
    if (check_requested_ && blur && !check_job_) start_check(second);

    presented_ = ui::presented(state_, {.blur_runs = blur, .reference_ready = static_cast<bool>(reference_), .second_runs = second},
                               variants()[state_.diff_variant]->name);
    const gl::Texture* image = presented_.picture == ui::Picture::Unblurred ? &source_ : &output_;
    const gl::Texture* other = presented_.picture == ui::Picture::DiffReference ? &reference_
                               : presented_.picture == ui::Picture::DiffVariant ? &second_
                                                                                : nullptr;
    // The check's own tolerance (scaled by the input's peak) once it ran, else the variant's for
    // a peak of 1.
    Tolerance tolerance = last_check_ ? last_check_->tolerance : tolerance_for(*variants()[state_.variant], settings_, size_, 1.0);
    if (presented_.picture == ui::Picture::DiffVariant) {
      // Each output may be off by its own tolerance: together by both.
      const Tolerance other_tolerance = tolerance_for(*variants()[state_.diff_variant], second_pipeline_.settings(), size_, 1.0);
      tolerance.lsb_limit += other_tolerance.lsb_limit;
      tolerance.relative += other_tolerance.relative;
      tolerance.absolute += other_tolerance.absolute;
    }
    diff_tolerance_ = tolerance;

    gl::barriers().before(gl::Access::TextureFetch, image->id());
    if (other) gl::barriers().before(gl::Access::TextureFetch, other->id());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, size_.x, size_.y);
    glUseProgram(present_.program->id());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, image->id());
    glBindSampler(0, 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, other ? other->id() : image->id());
    glBindSampler(1, 0);
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(present_.mode, other ? 1 : 0);
    glUniform1f(present_.amplify, kDiffAmplify);
    const glm::vec2 limits = shader_tolerance(tolerance);
    glUniform2f(present_.tolerance, limits.x, limits.y);
    glUniform1i(present_.encode_srgb, state_.linear_light ? 1 : 0);
    glBindVertexArray(empty_vao_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
  }

  void start_check(bool with_second) {
    check_requested_ = false;
    const VariantInfo& variant = *variants()[state_.variant];
    Image input = source_.download();
    Image output = output_.download();
    std::optional<Image> second;
    if (with_second) second = second_.download();
    auto job = std::make_unique<CheckJob>();
    job->label = std::string(variant.name) + " " + describe(variant, settings_);
    const double peak = peak_magnitude(input);
    job->tolerance = tolerance_for(variant, settings_, size_, peak);
    job->configuration = configuration_;
    job->result = std::async(std::launch::async, [input = std::move(input), output = std::move(output), second = std::move(second),
                                                  &variant, resolved = settings_, tolerance = job->tolerance, peak] {
      CheckOutcome outcome;
      outcome.reference = expected_output(variant, resolved, input);
      outcome.result = compare_to_reference(output, outcome.reference, tolerance);
      if (variant.approximation.choose) {
        const double sigma = variant.approximation.choose(resolved).sigma;
        const ReferenceImage gaussian = reference_blur(input, kernel_weights(fidelity_kernel(sigma)), resolved.border);
        outcome.fidelity = measure_fidelity(output, gaussian, fidelity_scale(resolved.input_format, peak), sigma);
      }
      if (second) {
        // The two outputs against each other: the same measure, with the first as the "reference".
        ReferenceImage first{output.width, output.height, std::vector<double>(output.texels.begin(), output.texels.end())};
        outcome.second = compare_to_reference(*second, first, tolerance);
      }
      return outcome;
    });
    check_job_ = std::move(job);
  }

  void poll_check() {
    if (!check_job_ || check_job_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    CheckOutcome outcome = check_job_->result.get();
    const bool current = check_job_->configuration == configuration_;
    if (current) {
      last_check_ = CheckLine{outcome.result, check_job_->tolerance, check_job_->label, outcome.fidelity};
      second_difference_ = outcome.second;
      const ReferenceImage& reference = outcome.reference;
      if (state_.view == ui::View::DiffReference && reference.width == size_.x && reference.height == size_.y)
        reference_ = reference_texture(reference, output_.format());
    }
    check_job_.reset();
  }

  // The second variant's GPU time, and the stop when it would set the window's frame rate.
  void watch_second(const gl::FrameTimes& frame) {
    second_stats_.add(frame);
    if (second_problem_) return;
    auto stall = ui::second_variant_stall(variants()[state_.diff_variant]->name, frame.ms("total"), first_total_ms());
    second_slow_frames_ = stall ? second_slow_frames_ + 1 : 0;
    if (second_slow_frames_ >= ui::kSecondStallFrames) second_problem_ = std::move(stall);
  }

  std::optional<double> first_total_ms() const {
    for (const ui::SpanSummary& span : stats_.summaries())
      if (span.name == "total") return span.mean_ms;
    return std::nullopt;
  }

  void draw_overlay() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const CheckState check_state = unsupported_ ? CheckState::NotRun
                                   : check_job_ && check_job_->configuration == configuration_ ? CheckState::Checking
                                   : last_check_                                               ? CheckState::Done
                                                                                               : CheckState::Pending;
    DiffLine diff;
    diff.amplify = kDiffAmplify;
    diff.scale = gl::info(output_.format()).is_float ? "differences of 1/64 are white"
                                                     : "1 LSB = " + std::to_string(static_cast<int>(kDiffAmplify / 2.55f + 0.5f)) + "% grey";
    diff.tolerance = tolerance_text(diff_tolerance_);
    if (presented_.picture == ui::Picture::DiffReference && last_check_) diff.largest = last_check_->result.text();
    if (presented_.picture == ui::Picture::DiffVariant && second_difference_) diff.largest = second_difference_->text();
    diff.second = std::string(variants()[state_.diff_variant]->name);
    for (const ui::SpanSummary& span : second_stats_.summaries())
      if (span.name == "total") diff.second_ms = span.mean_ms;
    diff.first_ms = first_total_ms();
    diff.second_problem = second_problem_;
    const OverlayModel model{info_, size_, state_, settings_, unsupported_, presented_, stats_, cpu_frame_ms_, shader_error_,
                             check_state, last_check_ ? &*last_check_ : nullptr, diff, time_};
    const OverlayActions actions = draw_overlay_panels(model, overlay_memory_);
    layout_ = actions.layout;
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // Controls act like keys: their effects are handled at the start of the next frame.
    if (actions.new_state) state_ = *actions.new_state;
    effects_ |= actions.effects;
  }

  std::string automatic_screenshot_path() const {
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    return "blurlab-" + std::string(variants()[state_.variant]->name) + "-" + stamp + ".png";
  }

  // Saves the back buffer; returns whether it was written (an error is printed, and kept for the
  // exit message of a --screenshot run).
  bool save_screenshot(const std::string& path) {
    std::vector<uint8_t> pixels(static_cast<size_t>(size_.x) * size_.y * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, size_.x, size_.y, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    try {
      save_image(flipped_vertically(from_rgba8(pixels.data(), size_.x, size_.y)), path, 8, path == options_.screenshot ? "--screenshot" : "");
      std::cout << "saved " << path << std::endl;
      return true;
    } catch (const Error& e) {
      screenshot_error_ = e.what();
      if (path != options_.screenshot) print_error(e.what());  // the S key: say so and go on
      return false;
    }
  }

  const cli::Options& options_;
  GLFWwindow* window_;
  gl::GlInfo info_;
  gl::ProgramCache programs_;
  gl::TimerPool timers_, second_timers_;
  BlurPipeline pipeline_;
  BlurPipeline second_pipeline_;
  Scene scene_;
  gl::VertexArrayHandle empty_vao_;
  gl::Texture source_, output_, second_, reference_;
  glm::ivec2 size_{0, 0};
  ui::ViewState state_;
  BlurSettings settings_;     // the current variant's settings, resolved
  uint64_t configuration_ = 0;  // counts configure() calls: a check belongs to one
  ui::Presented presented_;
  ui::SpanStats stats_, second_stats_;
  std::vector<ui::Key> keys_;
  std::vector<ui::ScriptStep> script_;
  std::optional<std::string> unsupported_, second_unsupported_, second_problem_;
  int second_slow_frames_ = 0;  // frames in a row that second_variant_stall() objected to
  std::string shader_error_;
  std::unique_ptr<CheckJob> check_job_;
  std::optional<CheckLine> last_check_;
  std::optional<CheckResult> second_difference_;
  Tolerance diff_tolerance_;
  OverlayMemory overlay_memory_;
  OverlayLayout layout_;
  uint32_t effects_ = ui::kReconfigure | ui::kRebuildTargets | ui::kVsync;
  bool check_requested_ = false;
  bool pending_screenshot_ = false;
  bool screenshot_made_ = false;
  std::string screenshot_error_;
  bool minimized_ = false;
  uint64_t minimized_frames_ = 0;
  ui::SoakDriver soak_driver_;
  std::optional<ui::SoakMonitor> soak_ = options_.soak > 0 ? std::optional<ui::SoakMonitor>(options_.soak) : std::nullopt;
  Presenter present_;
  double time_ = 0.0;
  double cpu_frame_ms_ = 0.0;
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
  if (!o.screenshot.empty()) check_output_target(o.screenshot, "--screenshot");  // before any GL work
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
    App app(o, window.get(), info);  // installs its key callback before ImGui chains to it
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
