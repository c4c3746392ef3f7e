#pragma once
// Shader files and programs.
//
// Shaders live as files in glsl/; the build embeds them into the binary, and --shader-dir
// loads them from disk instead so they can be edited without rebuilding. A file may
// `#include "other.glsl"`; the host inserts its #defines after the #version line (first the
// generic binding units' BINDING_<NAME>, gl/bindings.h, then the caller's, the BINDING_<NAME>
// of its owner's slots among them) and keeps
// #line directives, so compile errors name the real file and line. The preprocessor scans each
// line once, left to right (no regular expressions: a 50 KB directive once overflowed the stack
// of std::regex), and bounds what an expansion may grow to.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gl/handles.h"
#include "util/error.h"

namespace blurlab::gl {

struct EmbeddedShader {
  const char* name;
  const char* text;
};
const std::vector<EmbeddedShader>& embedded_shaders();  // generated from glsl/ at build time

// The most bytes one shader file may hold (the largest in glsl/ is about 20 KiB), and the most an
// expansion with its includes may grow to.
inline constexpr uint64_t kMaxShaderFileBytes = 1 << 20;
inline constexpr size_t kMaxExpandedShaderBytes = 4 << 20;

class ShaderSources {
 public:
  static ShaderSources embedded();
  // Throws UsageError when `dir` is not a readable directory.
  static ShaderSources directory(const std::filesystem::path& dir);
  // Files held in memory by name (the preprocessor's tests and its fuzz target).
  static ShaderSources in_memory(std::map<std::string, std::string> files);

  // Throws Error naming the file when it is missing, unreadable, not a regular file, larger than
  // kMaxShaderFileBytes or holds a NUL byte (GL would read the text only up to it). On disk, a
  // name (an #include's) must stay inside the directory: relative, without "..".
  std::string read(const std::string& name) const;
  // Where the file comes from, for messages: "glsl/x.comp" (embedded) or "DIR/x.comp".
  std::string location(const std::string& name) const;
  bool from_disk() const { return !dir_.empty(); }

 private:
  std::filesystem::path dir_;  // empty: embedded or in memory
  std::shared_ptr<const std::map<std::string, std::string>> memory_;
};

struct ShaderFile {
  GLenum stage;  // GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER
  std::string name;
};

using Defines = std::vector<std::pair<std::string, std::string>>;

// A shader file after #include expansion (the binding units' defines, then `defines`, after its
// #version), with the table of files that #line numbers refer to.
struct ExpandedSource {
  std::string text;
  std::vector<std::string> files;  // index = GLSL source-string number
};
// Throws Error (one line, naming the file and line) on a missing or unreadable file, an include
// cycle, includes nested more than 16 deep, a #version outside the main file, an expansion
// beyond kMaxExpandedShaderBytes, or defines and statements a GL compiler could not take
// (check_glsl_limits, util/glsl_limits.h).
ExpandedSource expand_source(const ShaderSources& sources, const std::string& name, const Defines& defines);
// Rewrites "0:12(5): error" (Mesa) and "0(12) : error" (NVIDIA) into "file:12: error".
std::string map_log_to_files(std::string_view log, const std::vector<std::string>& files);

// A shader that did not compile or link: what() is the first error line, log() all of it.
class ShaderError : public Error {
 public:
  ShaderError(const std::string& first_line, std::string log) : Error(first_line), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

class Program {
 public:
  Program() = default;
  Program(ProgramHandle handle, std::string name, std::array<int, 3> local_size)
      : handle_(std::move(handle)), name_(std::move(name)), local_size_(local_size) {}
  GLuint id() const { return handle_.get(); }
  const std::string& name() const { return name_; }
  // Workgroup size the compute shader declares (0s for graphics programs).
  std::array<int, 3> local_size() const { return local_size_; }

 private:
  ProgramHandle handle_;
  std::string name_;
  std::array<int, 3> local_size_{0, 0, 0};
};

Program build_program(const ShaderSources& sources, const std::vector<ShaderFile>& files, const Defines& defines);

// Programs by (files, defines), compiled once. A long session visits many radii and knobs,
// each a program of its own, and a program holds compiled code (on llvmpipe about 0.5 MiB: the
// soak grew 149 MiB while 256 were cached). Past `capacity` the least recently used are dropped
// (one configuration needs at most four). Whoever keeps
// a program across frames holds it with share(), so a dropped program lives on until released;
// a reference from get() is good until the next get(). Programs stay valid across reload().
class ProgramCache {
 public:
  explicit ProgramCache(ShaderSources sources, size_t capacity = 64) : sources_(std::move(sources)), capacity_(capacity) {}
  const Program& get(const std::vector<ShaderFile>& files, const Defines& defines) { return *share(files, defines); }
  std::shared_ptr<const Program> share(const std::vector<ShaderFile>& files, const Defines& defines);
  // Recompiles every cached program from the sources. On any failure nothing changes (the
  // last good programs stay in use) and the ShaderError is rethrown.
  void reload();
  size_t size() const { return programs_.size(); }
  size_t compiled() const { return compiled_; }
  const ShaderSources& sources() const { return sources_; }
  // Called once for each program compiled (not for programs found in the cache), with what it was
  // compiled from: --dump-programs reads the driver's binary back there.
  using CompileHook = std::function<void(const Program&, const std::vector<ShaderFile>&, const Defines&)>;
  void on_compile(CompileHook hook) { on_compile_ = std::move(hook); }

 private:
  struct Entry {
    std::vector<ShaderFile> files;
    Defines defines;
    std::shared_ptr<Program> program;
    uint64_t last_use = 0;
  };
  ShaderSources sources_;
  size_t capacity_;
  uint64_t clock_ = 0;
  size_t compiled_ = 0;
  std::map<std::string, Entry> programs_;
  CompileHook on_compile_;
};

}  // namespace blurlab::gl
