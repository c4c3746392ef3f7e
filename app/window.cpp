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

namespace blurlab::app {

bool display_available() {
  glfwSetErrorCallback(nullptr);
  return glfwInit() == GLFW_TRUE;
}

namespace {

std::optional<ui::Key> translate(int key, int mods) {
  if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9) return static_cast<ui::Key>(static_cast<int>(ui::Key::Digit1) + key - GLFW_KEY_1);
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
  GLint mode = -1, amplify = -1, encode_srgb = -1;
  void refresh(gl::ProgramCache& programs) {
    program = programs.share({{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, "present.frag"}}, {});
    mode = glGetUniformLocation(program->id(), "u_mode");
    amplify = glGetUniformLocation(program->id(), "u_amplify");
    encode_srgb = glGetUniformLocation(program->id(), "u_encode_srgb");
  }
};

// A check against the CPU reference runs on a worker thread; the frame never waits for it.
struct CheckJob {
  std::future<std::pair<CheckResult, ReferenceImage>> result;
  std::string label;
  Tolerance tolerance;
};

class App {
 public:
  App(const cli::Options& o, GLFWwindow* window, gl::GlInfo info)
      : options_(o),
        window_(window),
        info_(std::move(info)),
        programs_(o.shader_dir.empty() ? gl::ShaderSources::embedded() : gl::ShaderSources::directory(o.shader_dir)),
        timers_(gl::make_gl_query_backend(info_.software)),
        pipeline_(programs_, info_.limits, &timers_),
        diff_pipeline_(programs_, info_.limits),  // not timed: the overlay times the chosen variant
        scene_(programs_),
        empty_vao_(gl::create_vertex_array()),
        time_(o.time) {
    // Start from the command line's single choices; without --variant, the first compute blur
    // (the separable pair), compared with the same algorithm in the other stage.
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
    if (o.input_formats.front() == gl::Format::rgba16f) ui::handle_key(state_, ui::Key::L, all.size());
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
        if (options_.frames_given && frame >= static_cast<uint64_t>(options_.frames)) break;
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
      if (pending_screenshot_ || (last_frame && !options_.screenshot.empty())) {
        save_screenshot(last_frame && !options_.screenshot.empty() ? options_.screenshot : "");
        pending_screenshot_ = false;
      }
      glfwSwapBuffers(window_);
      for (const gl::FrameTimes& f : timers_.poll()) stats_.add(f);
      poll_check();
      ++frame;
      if (last_frame) break;
    }
    if (check_job_) check_job_->result.wait();  // let the worker finish before the GL objects go
    for (const ui::SpanSummary& span : stats_.summaries())
      std::printf("span %-6s avg %.3f ms (min %.3f, max %.3f, last %zu frames)\n", span.name.c_str(), span.mean_ms, span.min_ms,
                  span.max_ms, span.samples);
    std::printf("frames %llu (minimized %llu), GPU timer queries %zu, frames dropped %zu\n",
                static_cast<unsigned long long>(frame), static_cast<unsigned long long>(minimized_frames_),
                timers_.queries_created(), timers_.frames_dropped());
    if (!soak_) return 0;
    return soak_->verdict({.frames = frame,
                           .timer_queries = timers_.queries_created(),
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

  void configure() {
    const auto all = variants();
    shader_error_.clear();
    reference_ = gl::Texture();
    try {
      unsupported_ = pipeline_.configure(*all[state_.variant], state_.settings, size_);
      diff_unsupported_.reset();
      if (state_.view == ui::View::DiffVariant) {
        BlurSettings second = state_.settings;
        second.knobs.clear();  // the second variant runs its defaults
        diff_unsupported_ = diff_pipeline_.configure(*all[state_.diff_variant], second, size_);
      }
    } catch (const gl::ShaderError& e) {
      shader_error_ = e.log().empty() ? e.what() : e.log();
      unsupported_ = "shader error";
    }
    stats_.clear();
  }

  void reload_shaders() {
    try {
      programs_.reload();
      present_.refresh(programs_);
      pipeline_.refresh_programs();
      diff_pipeline_.refresh_programs();
      shader_error_.clear();
      std::printf("shaders reloaded from %s\n", options_.shader_dir.empty() ? "the embedded copies" : options_.shader_dir.c_str());
    } catch (const gl::ShaderError& e) {
      // The last good programs stay in use; the overlay shows the log with file and line.
      shader_error_ = e.log().empty() ? e.what() : e.log();
      std::fprintf(stderr, "blurlab: %s\n", e.what());
    }
  }

  void render_frame() {
    timers_.begin_frame();
    {
      gl::ScopedSpan span(&timers_, "scene");
      scene_.render(source_, time_);
    }
    const bool blur = state_.view != ui::View::Unblurred && !unsupported_;
    if (blur) pipeline_.run(source_, output_);
    timers_.end_frame();
    if (state_.view == ui::View::DiffVariant && blur && !diff_unsupported_) diff_pipeline_.run(source_, second_);
    if (check_requested_ && blur && !check_job_) start_check();

    // Present into the window.
    const gl::Texture* image = blur ? &output_ : &source_;
    const gl::Texture* other = nullptr;
    if (state_.view == ui::View::DiffReference && blur && reference_) other = &reference_;
    if (state_.view == ui::View::DiffVariant && blur && !diff_unsupported_) other = &second_;
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
    glUniform1f(present_.amplify, other == &reference_ ? 64.0f : 16.0f);
    glUniform1i(present_.encode_srgb, state_.linear_light ? 1 : 0);
    glBindVertexArray(empty_vao_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
  }

  void start_check() {
    check_requested_ = false;
    const VariantInfo& variant = *variants()[state_.variant];
    const BlurSettings resolved = pipeline_.settings();
    Image input = source_.download();
    Image output = output_.download();
    auto job = std::make_unique<CheckJob>();
    job->label = std::string(variant.name) + " " + describe(variant, resolved);
    job->tolerance = tolerance_for(variant, resolved, size_, peak_magnitude(input));
    const std::vector<double> weights = kernel_weights(reference_kernel(variant, resolved));
    job->result = std::async(std::launch::async, [input = std::move(input), output = std::move(output), weights,
                                                  border = resolved.border, tolerance = job->tolerance] {
      ReferenceImage reference = reference_blur(input, weights, border);
      CheckResult result = compare_to_reference(output, reference, tolerance);
      return std::pair(result, std::move(reference));
    });
    check_job_ = std::move(job);
  }

  void poll_check() {
    if (!check_job_ || check_job_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    auto [result, reference] = check_job_->result.get();
    last_check_ = CheckLine{result, check_job_->tolerance, check_job_->label};
    if (state_.view == ui::View::DiffReference && reference.width == size_.x && reference.height == size_.y) {
      reference_ = gl::Texture(size_.x, size_.y, gl::Format::rgba32f, "CPU reference");
      Image image(reference.width, reference.height);
      for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = static_cast<float>(reference.texels[i]);
      reference_.upload(image);
    }
    check_job_.reset();
  }

  void draw_overlay() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const OverlayModel model{info_, size_, state_, pipeline_.settings(), stats_, cpu_frame_ms_, unsupported_,
                             diff_unsupported_, shader_error_, last_check_ ? &*last_check_ : nullptr,
                             check_job_ != nullptr, time_};
    const OverlayActions actions = draw_overlay_panels(model);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // Controls act like keys: their effects are handled at the start of the next frame.
    if (actions.new_state) state_ = *actions.new_state;
    effects_ |= actions.effects;
  }

  void save_screenshot(const std::string& requested) {
    std::string path = requested;
    if (path.empty()) {
      char stamp[32];
      const std::time_t now = std::time(nullptr);
      std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
      path = "blurlab-" + std::string(variants()[state_.variant]->name) + "-" + stamp + ".png";
    }
    std::vector<uint8_t> pixels(static_cast<size_t>(size_.x) * size_.y * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, size_.x, size_.y, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    try {
      save_image(flipped_vertically(from_rgba8(pixels.data(), size_.x, size_.y)), path);
      std::printf("saved %s\n", path.c_str());
    } catch (const Error& e) {
      std::fprintf(stderr, "blurlab: %s\n", e.what());
    }
  }

  const cli::Options& options_;
  GLFWwindow* window_;
  gl::GlInfo info_;
  gl::ProgramCache programs_;
  gl::TimerPool timers_;
  BlurPipeline pipeline_;
  BlurPipeline diff_pipeline_;
  Scene scene_;
  gl::VertexArrayHandle empty_vao_;
  gl::Texture source_, output_, second_, reference_;
  glm::ivec2 size_{0, 0};
  ui::ViewState state_;
  ui::SpanStats stats_;
  std::vector<ui::Key> keys_;
  std::vector<ui::ScriptStep> script_;
  std::optional<std::string> unsupported_, diff_unsupported_;
  std::string shader_error_;
  std::unique_ptr<CheckJob> check_job_;
  std::optional<CheckLine> last_check_;
  uint32_t effects_ = ui::kReconfigure | ui::kRebuildTargets | ui::kVsync;
  bool check_requested_ = false;
  bool pending_screenshot_ = false;
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
    std::fprintf(stderr, "blurlab: %zu OpenGL errors (printed above)\n", gl::debug_error_count());
    status = 1;
  }
  return status;
}

}  // namespace blurlab::app
