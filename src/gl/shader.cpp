#include "gl/shader.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

namespace blurlab::gl {

ShaderSources ShaderSources::embedded() { return ShaderSources(); }

ShaderSources ShaderSources::directory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw UsageError("--shader-dir '" + dir.string() + "' is not a directory");
  ShaderSources sources;
  sources.dir_ = dir;
  return sources;
}

std::string ShaderSources::read(const std::string& name) const {
  if (dir_.empty()) {
    for (const auto& file : embedded_shaders())
      if (name == file.name) return file.text;
    throw Error("shader '" + name + "' is not embedded in this build");
  }
  const auto path = dir_ / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read shader '" + path.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string ShaderSources::location(const std::string& name) const {
  return dir_.empty() ? "glsl/" + name : (dir_ / name).string();
}

namespace {

const std::regex kInclude(R"(^\s*#\s*include\s+"([^"]+)\"\s*$)");
const std::regex kVersion(R"(^\s*#\s*version\b.*$)");

void expand_into(const ShaderSources& sources, const std::string& name, ExpandedSource& out,
                 std::vector<std::string>& stack, const std::string* prelude) {
  if (stack.size() > 16) throw Error("shader includes nest too deeply at '" + name + "'");
  for (const auto& open : stack)
    if (open == name) throw Error("shader '" + name + "' includes itself");
  stack.push_back(name);
  const int index = static_cast<int>(out.files.size());
  out.files.push_back(sources.location(name));

  std::istringstream in(sources.read(name));
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch match;
    if (std::regex_match(line, match, kInclude)) {
      out.text += "#line 1 " + std::to_string(static_cast<int>(out.files.size())) + "\n";
      expand_into(sources, match[1].str(), out, stack, nullptr);
      out.text += "#line " + std::to_string(number + 1) + " " + std::to_string(index) + "\n";
    } else if (std::regex_match(line, kVersion)) {
      if (!prelude) throw Error(sources.location(name) + ":" + std::to_string(number) + ": only the main shader file has a #version");
      out.text += line + "\n" + *prelude + "#line " + std::to_string(number + 1) + " " + std::to_string(index) + "\n";
    } else {
      out.text += line + "\n";
    }
  }
  stack.pop_back();
}

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

std::string first_error_line(const std::string& log) {
  std::istringstream in(log);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty() && line.find_first_not_of(" \t") != std::string::npos) first = line;
    if (line.find("error") != std::string::npos) return line;
  }
  return first;
}

}  // namespace

ExpandedSource expand_source(const ShaderSources& sources, const std::string& name, const Defines& defines) {
  std::string prelude;
  for (const auto& [key, value] : defines) prelude += "#define " + key + " " + value + "\n";
  ExpandedSource out;
  std::vector<std::string> stack;
  expand_into(sources, name, out, stack, &prelude);
  return out;
}

std::string map_log_to_files(std::string_view log, const std::vector<std::string>& files) {
  static const std::regex mesa(R"(^(\d+):(\d+)\((\d+)\):\s*(.*)$)");
  static const std::regex nvidia(R"(^(\d+)\((\d+)\)\s*:\s*(.*)$)");
  auto file_name = [&](const std::string& index) {
    const size_t i = std::stoul(index);
    return i < files.size() ? files[i] : "source " + index;
  };
  std::istringstream in{std::string(log)};
  std::string line, out;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, mesa))
      out += file_name(m[1]) + ":" + m[2].str() + ":" + m[3].str() + ": " + m[4].str();
    else if (std::regex_match(line, m, nvidia))
      out += file_name(m[1]) + ":" + m[2].str() + ": " + m[3].str();
    else
      out += line;
    out += "\n";
  }
  return out;
}

Program build_program(const ShaderSources& sources, const std::vector<ShaderFile>& files, const Defines& defines) {
  std::string name;
  for (const auto& f : files) name += (name.empty() ? "" : "+") + f.name;
  ProgramHandle program(glCreateProgram());
  std::vector<ShaderHandle> shaders;
  std::vector<std::string> last_stage_files;  // some drivers (NVIDIA) report compile errors at link time
  for (const auto& file : files) {
    const ExpandedSource source = expand_source(sources, file.name, defines);
    last_stage_files = source.files;
    ShaderHandle shader(glCreateShader(file.stage));
    const char* text = source.text.c_str();
    glShaderSource(shader.get(), 1, &text, nullptr);
    glCompileShader(shader.get());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
    if (!ok) {
      const std::string log = map_log_to_files(shader_log(shader.get()), source.files);
      throw ShaderError("cannot compile " + sources.location(file.name) + ": " + first_error_line(log), log);
    }
    glAttachShader(program.get(), shader.get());
    shaders.push_back(std::move(shader));
  }
  glLinkProgram(program.get());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  for (const auto& shader : shaders) glDetachShader(program.get(), shader.get());
  if (!ok) {
    // Source numbers in a link log are those of the last stage (the fragment or compute shader).
    const std::string log = map_log_to_files(program_log(program.get()), last_stage_files);
    throw ShaderError("cannot link " + name + ": " + first_error_line(log), log);
  }
  std::string label = name;
  for (const auto& [key, value] : defines) label += " " + key + "=" + value;
  if (epoxy_has_gl_extension("GL_KHR_debug"))
    glObjectLabel(GL_PROGRAM, program.get(), static_cast<GLsizei>(std::min<size_t>(label.size(), 200)), label.c_str());
  std::array<int, 3> local_size{0, 0, 0};
  for (const auto& f : files)
    if (f.stage == GL_COMPUTE_SHADER) glGetProgramiv(program.get(), GL_COMPUTE_WORK_GROUP_SIZE, local_size.data());
  return Program(std::move(program), label, local_size);
}

std::shared_ptr<const Program> ProgramCache::share(const std::vector<ShaderFile>& files, const Defines& defines) {
  std::string key;
  for (const auto& f : files) key += std::to_string(f.stage) + ":" + f.name + ";";
  for (const auto& [k, v] : defines) key += k + "=" + v + ";";
  auto it = programs_.find(key);
  if (it == programs_.end()) {
    auto program = std::make_shared<Program>(build_program(sources_, files, defines));
    ++compiled_;
    it = programs_.emplace(key, Entry{files, defines, std::move(program), 0}).first;
  }
  it->second.last_use = ++clock_;
  std::shared_ptr<const Program> result = it->second.program;
  // Over capacity: drop the least recently used (never the one just asked for, the newest).
  while (programs_.size() > capacity_) {
    auto oldest = programs_.begin();
    for (auto e = programs_.begin(); e != programs_.end(); ++e)
      if (e->second.last_use < oldest->second.last_use) oldest = e;
    programs_.erase(oldest);  // holders of share() keep it alive
  }
  return result;
}

void ProgramCache::reload() {
  // (Programs already dropped from the cache are re-fetched by their holders' next prepare.)
  std::vector<std::pair<Entry*, Program>> rebuilt;
  for (auto& [key, entry] : programs_) rebuilt.emplace_back(&entry, build_program(sources_, entry.files, entry.defines));
  for (auto& [entry, program] : rebuilt) *entry->program = std::move(program);
}

}  // namespace blurlab::gl
