#include "gl/program_dump.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace blurlab::gl {

std::optional<ProgramDump> dump_program(GLuint program) {
  GLint formats = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  GLint length = 0;
  glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
  if (formats <= 0 || length <= 0) return std::nullopt;
  std::vector<char> bytes(static_cast<size_t>(length));
  GLsizei written = 0;
  GLenum format = 0;
  glGetProgramBinary(program, length, &written, &format, bytes.data());
  if (written <= 0) return std::nullopt;
  return ProgramDump{format, static_cast<size_t>(written), printable_runs(std::string_view(bytes.data(), static_cast<size_t>(written)), 8)};
}

std::string printable_runs(std::string_view bytes, size_t min_run) {
  std::string text, run;
  const auto end_run = [&](bool line_break) {
    if (run.size() >= min_run || (line_break && !run.empty() && !text.empty() && text.back() != '\n')) {
      text += run;
      text += '\n';
    }
    run.clear();
  };
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (u == '\n') end_run(true);
    else if (u == '\t' || (u >= 0x20 && u < 0x7f)) run += c;
    else end_run(false);
  }
  end_run(false);
  return text;
}

std::string dump_file_name(size_t index, const std::vector<ShaderFile>& files) {
  char number[16];
  std::snprintf(number, sizeof number, "%03zu", index);
  // A compute shader, or a pipeline's fragment shader; its name without folders and extension.
  std::string stem = files.empty() ? "program" : std::filesystem::path(files.back().name).stem().string();
  for (char& c : stem)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) c = '_';
  return std::string(number) + "_" + stem + ".txt";
}

std::string dump_file_text(const std::vector<ShaderFile>& files, const Defines& defines, const std::optional<ProgramDump>& dump) {
  std::string text = "# shaders:";
  for (const ShaderFile& f : files) text += " " + f.name;
  text += "\n# defines:";
  for (const auto& [name, value] : defines) text += " " + name + "=" + value;
  text += "\n";
  if (!dump) return text + "# the driver offers no program binary\n";
  char line[96];
  std::snprintf(line, sizeof line, "# binary: format 0x%x, %zu bytes; its printable runs follow\n", dump->format, dump->binary_bytes);
  return text + line + dump->text;
}

}  // namespace blurlab::gl
