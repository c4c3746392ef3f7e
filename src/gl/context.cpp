#include "gl/context.h"

#include <epoxy/egl.h>

#include <dlfcn.h>
#include <link.h>

#include <cstring>
#include <optional>
#include <sstream>
#include <vector>

#include "gl/debug.h"
#include "gl/gl.h"
#include "util/strings.h"
#include "util/error.h"

namespace blurlab::gl {

bool is_software_renderer(const std::string& renderer) {
  for (const char* name : {"llvmpipe", "softpipe", "Software Rasterizer", "SwiftShader", "lavapipe"})
    if (renderer.find(name) != std::string::npos) return true;
  return false;
}

GlInfo query_gl_info(const std::string& platform, bool debug) {
  GlInfo info;
  auto str = [](GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return std::string(s ? s : "?");
  };
  info.vendor = str(GL_VENDOR);
  info.renderer = str(GL_RENDERER);
  info.version = str(GL_VERSION);
  info.glsl_version = str(GL_SHADING_LANGUAGE_VERSION);
  info.platform = platform;
  info.debug = debug;
  info.software = is_software_renderer(info.renderer);
  if (info.renderer.find("llvmpipe") != std::string::npos) info.limits.max_loop_iterations = 65535;
  glGetIntegerv(GL_MAJOR_VERSION, &info.major);
  glGetIntegerv(GL_MINOR_VERSION, &info.minor);
  GlLimits& l = info.limits;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &l.max_texture_size);
  glGetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &l.max_uniform_block_size);
  if (info.major > 4 || (info.major == 4 && info.minor >= 3)) {
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &l.max_compute_shared_memory);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &l.max_compute_invocations);
    for (GLuint i = 0; i < 3; ++i) {
      glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i, &l.max_compute_workgroup_size[i]);
      glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &l.max_compute_workgroup_count[i]);
    }
  }
  if (epoxy_has_gl_extension("GL_KHR_shader_subgroup")) {
    GLint stages = 0, features = 0;
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
    if (stages & GL_COMPUTE_SHADER_BIT) {
      glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &l.subgroup_size);
      glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
      l.subgroup_arithmetic = features & GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR;
      l.subgroup_shuffle = features & GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR;
    }
  }
  return info;
}

std::string describe(const GlInfo& info) {
  const GlLimits& l = info.limits;
  std::ostringstream out;
  out << "GL_RENDERER  " << info.renderer << "\n"
      << "GL_VERSION   " << info.version << " (" << info.platform << (info.debug ? ", KHR_debug on" : "") << ")\n"
      << "GL_VENDOR    " << info.vendor << "\n";
  std::ostringstream limits;
  limits << "compute shared memory " << l.max_compute_shared_memory << " B, invocations "
         << l.max_compute_invocations << ", workgroup " << l.max_compute_workgroup_size[0] << "x"
         << l.max_compute_workgroup_size[1] << "x" << l.max_compute_workgroup_size[2] << ", texture "
         << l.max_texture_size << ", uniform block " << l.max_uniform_block_size << " B, subgroups "
         << (l.subgroup_size ? std::to_string(l.subgroup_size) + (l.subgroup_arithmetic ? " arithmetic" : "") +
                                   (l.subgroup_shuffle ? " shuffle" : "")
                             : std::string("none (no GL_KHR_shader_subgroup)"));
  const std::string label = "limits       ";
  out << label << wrapped(limits.str(), kDescribeWidth - label.size(), std::string(label.size(), ' ')) << "\n";
  return out.str();
}

namespace {

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

struct Candidate {
  EGLDisplay display;
  std::string platform;
  std::optional<bool> software;  // unknown for the surfaceless platform until GL_RENDERER says
};



// Every display worth trying, best first: real GPUs through the device platform, then the
// surfaceless platform (Mesa, llvmpipe when there is no GPU).
std::vector<Candidate> candidate_displays(DevicePreference preference) {
  std::vector<Candidate> gpus, software;
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  // EGL_EXT_device_base is enumeration + query in one (NVIDIA advertises only that).
  const bool enumeration = has_extension(client, "EGL_EXT_device_enumeration") || has_extension(client, "EGL_EXT_device_base");
  if (has_extension(client, "EGL_EXT_platform_device") && enumeration) {
    EGLint count = 0;
    if (eglQueryDevicesEXT(0, nullptr, &count) && count > 0) {
      std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
      eglQueryDevicesEXT(count, devices.data(), &count);
      for (EGLint i = 0; i < count; ++i) {
        const char* ext = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
        if (has_extension(ext, "EGL_MESA_device_software")) continue;  // reached below, as surfaceless
        EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (d != EGL_NO_DISPLAY) gpus.push_back({d, "EGL device " + std::to_string(i), false});
      }
    }
  }
  if (has_extension(client, "EGL_MESA_platform_surfaceless")) {
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY) software.push_back({d, "EGL surfaceless", std::nullopt});
  }
  std::vector<Candidate> all;
  if (preference != DevicePreference::Software) all.insert(all.end(), gpus.begin(), gpus.end());
  all.insert(all.end(), software.begin(), software.end());
  return all;
}

}  // namespace

std::unique_ptr<HeadlessContext> HeadlessContext::create(bool debug, DevicePreference preference) {
  std::string why = "no EGL display (is libEGL with a GPU driver or Mesa installed?)";
  std::string wrong_kind;  // a context of the other kind than --device asked for
  for (const Candidate& candidate : candidate_displays(preference)) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(candidate.display, &major, &minor)) {
      why = candidate.platform + ": eglInitialize failed";
      continue;
    }
    keep_drivers_loaded_for_sanitizers();
    const char* ext = eglQueryString(candidate.display, EGL_EXTENSIONS);
    if (!has_extension(ext, "EGL_KHR_surfaceless_context") || !eglBindAPI(EGL_OPENGL_API)) {
      why = candidate.platform + ": no desktop OpenGL without a surface";
      eglTerminate(candidate.display);
      continue;
    }
    EGLConfig config = nullptr;
    EGLint config_count = 0;
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    const bool configless = has_extension(ext, "EGL_KHR_no_config_context") || has_extension(ext, "EGL_MESA_configless_context");
    if (!eglChooseConfig(candidate.display, config_attribs, &config, 1, &config_count) || config_count == 0) {
      if (!configless) {
        why = candidate.platform + ": no OpenGL config";
        eglTerminate(candidate.display);
        continue;
      }
      config = nullptr;  // EGL_NO_CONFIG_KHR
    }
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4,
                                      EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE,
                                      EGL_NONE};
    EGLContext context = eglCreateContext(candidate.display, config, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) {
      why = candidate.platform + ": no OpenGL 4.3 core context";
      eglTerminate(candidate.display);
      continue;
    }
    if (!eglMakeCurrent(candidate.display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      why = candidate.platform + ": eglMakeCurrent failed";
      eglDestroyContext(candidate.display, context);
      eglTerminate(candidate.display);
      continue;
    }
    std::unique_ptr<HeadlessContext> result(new HeadlessContext());
    result->display_ = candidate.display;
    result->context_ = context;
    // The surfaceless platform may be a GPU driver (NVIDIA, Mesa on hardware) or llvmpipe.
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const bool software = candidate.software.value_or(is_software_renderer(renderer ? renderer : ""));
    if ((preference == DevicePreference::Gpu && software) || (preference == DevicePreference::Software && !software)) {
      wrong_kind = std::string(renderer ? renderer : "?") + " (" + candidate.platform + ")";
      continue;
    }
    // MESA_GL_VERSION_OVERRIDE and some drivers hand out a lower version than asked for.
    if (epoxy_gl_version() < 43) {
      why = candidate.platform + ": the context is OpenGL " + std::to_string(epoxy_gl_version() / 10) + "." +
            std::to_string(epoxy_gl_version() % 10);
      continue;  // result's destructor releases it
    }
    if (debug) enable_debug_output();
    result->info_ = query_gl_info(candidate.platform, debug);
    return result;
  }
  if (!wrong_kind.empty())
    throw Error(std::string("no ") + (preference == DevicePreference::Gpu ? "GPU" : "software") +
                " OpenGL 4.3 device; found only " + wrong_kind);
  throw Error("OpenGL 4.3 core is not available: " + why);
}

HeadlessContext::~HeadlessContext() {
  auto display = static_cast<EGLDisplay>(display_);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, static_cast<EGLContext>(context_));
  eglTerminate(display);
}

void keep_drivers_loaded_for_sanitizers() {
#ifdef BLURLAB_SANITIZE
  // GL drivers are unloaded when their display or window closes; LeakSanitizer, which runs at
  // exit, then sees the drivers' start-up allocations under "<unknown module>" and cannot tell
  // them from ours. Marking the loaded driver libraries RTLD_NODELETE keeps them mapped, so
  // tests/lsan.supp can name them. Only in sanitizer builds.
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void*) {
        const std::string name = info->dlpi_name ? info->dlpi_name : "";
        for (const char* driver : {"_dri.so", "libgallium", "libLLVM", "libGLX_mesa", "libEGL_mesa", "libglapi"})
          if (name.find(driver) != std::string::npos) dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        return 0;
      },
      nullptr);
#endif
}

}  // namespace blurlab::gl

#ifdef BLURLAB_SANITIZE
// AddressSanitizer's defaults for every program that opens a GL context (ASAN_OPTIONS still
// overrides them flag by flag). intercept_tls_get_addr=0: GCC 12's runtime (and LLVM's up to 16)
// takes a dynamic TLS block that happens to start 16 bytes into a page for a pre-2.25 glibc
// header and reads the two words before it as a range; Mesa's drivers allocate such blocks, and
// LeakSanitizer's tracer then dies at exit ("Tracer caught signal 11") before looking for a leak.
// Whether a block lands there depends on the heap's layout, so a run either always crashes or never
// (here: an --export of frag-separable crashed for 6 of 40 lengths of its output path, none with
// this flag). Leaks are still found; only dynamic TLS stops being a root, which can only add reports.
extern "C" const char* __asan_default_options() { return "intercept_tls_get_addr=0"; }
#endif
