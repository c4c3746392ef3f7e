#pragma once
// What a driver compiled a program into, read back with glGetProgramBinary, as text a person can
// read offline. NVIDIA's driver keeps its assembly in the binary as text (NV_gpu_program5: the
// TEMP registers, `lmem` local-memory arrays, loops that stayed loops, every instruction), so one
// GPU run that dumps its programs explains a slow one without timing guesses
// (docs/tools/program_dump.py summarizes a folder of them). Other drivers' binaries are shown as
// the printable runs they hold.
#include <optional>
#include <string>
#include <string_view>

#include "gl/gl.h"
#include "gl/shader.h"

namespace blurlab::gl {

struct ProgramDump {
  GLenum format = 0;        // the driver's binary format
  size_t binary_bytes = 0;  // the whole binary
  std::string text;         // its printable runs, one per line
};

// nullopt when the driver offers no binary format (GL_NUM_PROGRAM_BINARY_FORMATS is 0).
std::optional<ProgramDump> dump_program(GLuint program);

// The runs of at least `min_run` printable ASCII characters (tabs included) in `bytes`, each on a
// line of its own; a line break inside the binary ends a run and starts the next line, so text
// the binary holds keeps its lines.
std::string printable_runs(std::string_view bytes, size_t min_run);

// The file a program's dump is written to: its number in the run, then the shader's name
// ("007_compute_separable_regblock.txt"), and the dump's text headed by the shader files and
// defines it was compiled from (which say the variant's settings: RADIUS, the knobs' defines).
std::string dump_file_name(size_t index, const std::vector<ShaderFile>& files);
std::string dump_file_text(const std::vector<ShaderFile>& files, const Defines& defines, const std::optional<ProgramDump>& dump);

}  // namespace blurlab::gl
