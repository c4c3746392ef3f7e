#include "gl/shader.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

#include "gl/bindings.h"
#include "util/files.h"
#include "util/glsl_limits.h"
#include "util/strings.h"

namespace blurlab::gl {

ShaderSources ShaderSources::embedded() { return ShaderSources(); }

ShaderSources ShaderSources::directory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw UsageError("--shader-dir '" + dir.string() + "' is not a directory");
  ShaderSources sources;
  sources.dir_ = dir;
  return sources;
}

ShaderSources ShaderSources::in_memory(std::map<std::string, std::string> files) {
  ShaderSources sources;
  sources.memory_ = std::make_shared<const std::map<std::string, std::string>>(std::move(files));
  return sources;
}

namespace {

// GL reads a shader's text as a C string: a NUL would end it silently.
void refuse_nul(const std::string& text, const std::string& where) {
  if (const size_t nul = text.find('\0'); nul != std::string::npos)
    throw Error(where + ":" + std::to_string(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n') + 1) +
                ": a NUL byte (GL would read the shader only up to it)");
}

}  // namespace

std::string ShaderSources::read(const std::string& name) const {
  if (memory_) {
    const auto file = memory_->find(name);
    if (file == memory_->end()) throw Error("no shader '" + name + "'");
    refuse_nul(file->second, name);
    return file->second;
  }
  if (dir_.empty()) {
    for (const auto& file : embedded_shaders())
      if (name == file.name) return file.text;
    throw Error("shader '" + name + "' is not embedded in this build");
  }
  // Only files inside the directory: an #include of "/dev/zero" or "../../x" names none.
  const std::filesystem::path relative(name);
  if (name.empty() || relative.is_absolute() || std::find(relative.begin(), relative.end(), "..") != relative.end())
    throw Error("--shader-dir '" + dir_.string() + "': the shader name '" + name + "' leaves the directory (names are relative, without '..')");
  std::string text = read_regular_file(dir_ / relative, kMaxShaderFileBytes, "--shader-dir file");
  refuse_nul(text, location(name));
  return text;
}

std::string ShaderSources::location(const std::string& name) const {
  if (memory_) return name;
  return dir_.empty() ? "glsl/" + name : (dir_ / name).string();
}

namespace {

// The lines of `text` as std::getline() gives them: split at '\n', none after a final '\n'.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Lines are split at '\n' and lose a final '\r'; "space" is the rest of what C's isspace() calls so.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A preprocessor line "  #  NAME rest": its NAME (a word, maybe empty) and what follows it. One
// pass over the line, no backtracking.
struct Directive {
  std::string_view name, rest;
};
std::optional<Directive> directive_of(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i == line.size() || line[i] != '#') return std::nullopt;
  ++i;
  while (i < line.size() && is_space(line[i])) ++i;
  const size_t start = i;
  while (i < line.size() && is_word(line[i])) ++i;
  return Directive{line.substr(start, i - start), line.substr(i)};
}

// `#include "NAME"` with nothing after it but spaces: NAME. Anything else is left for GL to judge.
std::optional<std::string_view> include_name(const Directive& d) {
  if (d.name != "include") return std::nullopt;
  size_t i = 0;
  while (i < d.rest.size() && is_space(d.rest[i])) ++i;
  if (i == 0 || i == d.rest.size() || d.rest[i] != '"') return std::nullopt;
  const size_t close = d.rest.find('"', i + 1);
  if (close == std::string_view::npos || close == i + 1) return std::nullopt;
  for (size_t j = close + 1; j < d.rest.size(); ++j)
    if (!is_space(d.rest[j])) return std::nullopt;
  return d.rest.substr(i + 1, close - i - 1);
}

void expand_into(const ShaderSources& sources, const std::string& name, const std::string& text, ExpandedSource& out,
                 std::vector<std::string>& stack, const std::string* prelude) {
  stack.push_back(name);
  const int index = static_cast<int>(out.files.size());
  out.files.push_back(sources.location(name));
  const auto append = [&](std::string_view part) {
    // Includes repeated at every level multiply: a few lines could otherwise expand to gigabytes.
    if (out.text.size() + part.size() > kMaxExpandedShaderBytes)
      throw Error(sources.location(stack.front()) + ": with its includes it grows beyond " + format_bytes(kMaxExpandedShaderBytes));
    out.text += part;
  };

  int number = 0;
  for (std::string_view line : lines_of(text)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto where = [&] { return sources.location(name) + ":" + std::to_string(number); };
    const std::optional<Directive> directive = directive_of(line);
    if (const auto include = directive ? include_name(*directive) : std::nullopt) {
      const std::string included(*include);
      if (std::find(stack.begin(), stack.end(), included) != stack.end()) {
        std::string cycle = "an include cycle: " + stack.front();
        for (auto file = stack.begin() + 1; file != stack.end(); ++file) cycle += std::string(file == stack.begin() + 1 ? " includes " : ", which includes ") + *file;
        throw Error(where() + ": " + cycle + (stack.size() > 1 ? ", which includes " : " includes ") + included + " again");
      }
      if (stack.size() >= 16) throw Error(where() + ": shader includes nest more than 16 deep at '" + included + "'");
      std::string included_text;
      try {
        included_text = sources.read(included);
      } catch (const Error& e) {
        throw Error(where() + ": " + e.what());
      }
      append("#line 1 " + std::to_string(out.files.size()) + "\n");
      expand_into(sources, included, included_text, out, stack, nullptr);
      append("#line " + std::to_string(number + 1) + " " + std::to_string(index) + "\n");
    } else if (directive && directive->name == "version") {
      if (!prelude) throw Error(where() + ": only the main shader file has a #version");
      append(line);
      append("\n" + *prelude + "#line " + std::to_string(number + 1) + " " + std::to_string(index) + "\n");
    } else {
      append(line);
      append("\n");
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
  std::string_view first;
  for (const std::string_view line : lines_of(log)) {
    if (first.empty() && line.find_first_not_of(" \t") != std::string_view::npos) first = line;
    if (line.find("error") != std::string_view::npos) return std::string(line);
  }
  return std::string(first);
}

}  // namespace

ExpandedSource expand_source(const ShaderSources& sources, const std::string& name, const Defines& defines) {
  // The generic binding units' names first (gl/bindings.h): every shader may use them, and a
  // caller's define cannot quietly renumber one (a second #define of a name is a compile error).
  // The caller's defines hold its owner's slots (gl::slot_defines).
  std::string prelude = binding_defines();
  for (const auto& [key, value] : defines) prelude += "#define " + key + " " + value + "\n";
  ExpandedSource out;
  std::vector<std::string> stack;
  expand_into(sources, name, sources.read(name), out, stack, &prelude);
  check_glsl_limits(out.text, out.files);  // what the driver is handed: no define or statement it cannot take
  return out;
}

namespace {

// A cursor over one log line: each step reads what it names or fails, never backtracking.
struct LogCursor {
  std::string_view line;
  size_t at = 0;
  std::optional<std::string_view> digits() {
    const size_t start = at;
    while (at < line.size() && line[at] >= '0' && line[at] <= '9') ++at;
    if (at == start) return std::nullopt;
    return line.substr(start, at - start);
  }
  bool skip(char c) {
    if (at == line.size() || line[at] != c) return false;
    ++at;
    return true;
  }
  void skip_spaces() {
    while (at < line.size() && is_space(line[at])) ++at;
  }
  std::string_view rest() const { return line.substr(at); }
};

// "0:12(5): error" (Mesa) or "0(12) : error" (NVIDIA): the source number, line, column (Mesa
// only) and message; nullopt for any other line.
struct LogPosition {
  std::string_view source, line, column, message;
};
std::optional<LogPosition> log_position(std::string_view line) {
  LogCursor c{line};
  LogPosition p;
  const auto source = c.digits();
  if (!source) return std::nullopt;
  p.source = *source;
  if (c.skip(':')) {  // Mesa
    const auto number = c.digits();
    if (!number || !c.skip('(')) return std::nullopt;
    const auto column = c.digits();
    if (!column || !c.skip(')') || !c.skip(':')) return std::nullopt;
    p.line = *number;
    p.column = *column;
  } else {  // NVIDIA
    if (!c.skip('(')) return std::nullopt;
    const auto number = c.digits();
    if (!number || !c.skip(')')) return std::nullopt;
    c.skip_spaces();
    if (!c.skip(':')) return std::nullopt;
    p.line = *number;
  }
  c.skip_spaces();
  p.message = c.rest();
  return p;
}

}  // namespace

std::string map_log_to_files(std::string_view log, const std::vector<std::string>& files) {
  const auto file_name = [&](std::string_view index) {
    const auto i = index.size() <= 9 ? parse_int(index) : std::nullopt;
    return i && static_cast<size_t>(*i) < files.size() ? files[static_cast<size_t>(*i)] : "source " + std::string(index);
  };
  std::string out;
  for (const std::string_view line : lines_of(log)) {
    if (const auto p = log_position(line))
      out += file_name(p->source) + ":" + std::string(p->line) + (p->column.empty() ? "" : ":" + std::string(p->column)) + ": " +
             std::string(p->message);
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
    if (on_compile_) on_compile_(*program, files, defines);
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
