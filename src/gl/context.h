#pragma once
// GL contexts: the facts every run prints, and the headless EGL context.
#include <memory>
#include <string>

namespace blurlab::gl {

struct GlLimits {
  int max_compute_shared_memory = 0;   // bytes per workgroup
  int max_compute_invocations = 0;     // per workgroup
  int max_compute_workgroup_size[3] = {0, 0, 0};
  int max_compute_workgroup_count[3] = {0, 0, 0};
  int max_texture_size = 0;
  int max_uniform_block_size = 0;
  // Loop iterations one shader invocation may run before the driver silently stops it: llvmpipe
  // counts every loop iteration of an invocation and gives up at 65535 (its "loop limiter");
  // 0 for drivers without such a limit.
  long max_loop_iterations = 0;
  // GL_KHR_shader_subgroup in compute shaders: the subgroup size (0: no such extension) and which
  // operation groups the driver supports there.
  int subgroup_size = 0;
  bool subgroup_arithmetic = false;  // subgroupAdd, subgroupInclusiveAdd, ...
  bool subgroup_shuffle = false;     // subgroupShuffle, ...
};

struct GlInfo {
  std::string vendor, renderer, version, glsl_version;
  std::string platform;  // how the context was made: "EGL device", "EGL surfaceless", "GLFW"
  int major = 0, minor = 0;
  bool debug = false;
  bool software = false;  // a CPU rasterizer (llvmpipe): timestamps need pinning, see timer_pool.h
  GlLimits limits;
};

// Reads strings and limits from the current context.
GlInfo query_gl_info(const std::string& platform, bool debug);
bool is_software_renderer(const std::string& renderer);

// The start-up banner: renderer, version and the limits that matter for blurs, in lines of at
// most kDescribeWidth characters (the headless table's width) unless a name is longer.
inline constexpr size_t kDescribeWidth = 120;
std::string describe(const GlInfo& info);

enum class DevicePreference { Auto, Gpu, Software };

// In sanitizer builds, keeps the GL driver libraries loaded until exit (see context.cpp); a
// no-op otherwise. Called once a display or window has loaded its driver.
void keep_drivers_loaded_for_sanitizers();

// An OpenGL 4.3 core context with no window, current on the creating thread.
// Prefers an EGL device that is a real GPU (EGL_EXT_platform_device), else Mesa's surfaceless
// platform (llvmpipe). Throws blurlab::Error (exit 1) with one line when there is none.
class HeadlessContext {
 public:
  static std::unique_ptr<HeadlessContext> create(bool debug, DevicePreference preference = DevicePreference::Auto);
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  const GlInfo& info() const { return info_; }

 private:
  HeadlessContext() = default;
  void* display_ = nullptr;
  void* context_ = nullptr;
  GlInfo info_;
};

}  // namespace blurlab::gl
