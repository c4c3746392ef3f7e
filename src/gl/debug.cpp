#include "gl/debug.h"

#include <atomic>
#include <cstdio>
#include <string>
#include <string_view>

#include "gl/gl.h"
#include "util/error.h"

namespace blurlab::gl {
namespace {

std::atomic<size_t> g_errors{0};

void GLAPIENTRY on_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                 const GLchar* message, const void* /*user*/) {
  // Compile errors arrive here too (Mesa); they are ShaderErrors with file and line, not GL errors.
  if (source == GL_DEBUG_SOURCE_SHADER_COMPILER) return;
  const bool is_error = type == GL_DEBUG_TYPE_ERROR;
  if (is_error) ++g_errors;
  // Errors and high-severity messages are always shown; the rest (driver performance hints)
  // would bury them.
  if (is_error || severity == GL_DEBUG_SEVERITY_HIGH) {
    const std::string text = single_line(length < 0 ? std::string_view(message) : std::string_view(message, static_cast<size_t>(length)));
    std::fprintf(stderr, "GL %s (id %u): %s\n", is_error ? "error" : "warning", id, text.c_str());
  }
}

}  // namespace

bool enable_debug_output() {
  if (!epoxy_has_gl_extension("GL_KHR_debug") && epoxy_gl_version() < 43) return false;
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_debug_message, nullptr);
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_TRUE);
  return true;
}

size_t debug_error_count() { return g_errors.load(); }

}  // namespace blurlab::gl
