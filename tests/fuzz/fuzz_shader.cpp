// Fuzz target: the shader preprocessor (gl::expand_source: #include, #version, the #line table)
// and the compile-log mapper (gl::map_log_to_files), which read --shader-dir files and what a
// driver says about them. The input is up to four files, main.comp then a.glsl, b.glsl, c.glsl,
// separated by lines "---". Every input either throws blurlab::Error with one line, or expands to
// text GL can take whole (no NUL, within kMaxExpandedShaderBytes, defines and statements within
// util/glsl_limits.h's bounds) whose file table names only these files, main.comp first. No input may crash, recurse or backtrack in proportion to its
// length (a 50 KB #version line once overflowed std::regex's stack).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "gl/shader.h"
#include "util/error.h"

namespace {

constexpr const char* kNames[] = {"main.comp", "a.glsl", "b.glsl", "c.glsl"};

size_t line_count(std::string_view text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + (!text.empty() && text.back() != '\n'); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace blurlab;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> files;
  size_t start = 0;
  for (const char* name : kNames) {
    const size_t end = input.find("\n---\n", start);
    files[name] = std::string(input.substr(start, end == std::string_view::npos ? std::string_view::npos : end + 1 - start));
    if (end == std::string_view::npos) break;
    start = end + 5;
  }
  try {
    const gl::ExpandedSource out = gl::expand_source(gl::ShaderSources::in_memory(files), "main.comp", {{"RADIUS", "3"}});
    FUZZ_CHECK(out.text.find('\0') == std::string::npos);
    FUZZ_CHECK(out.text.size() <= gl::kMaxExpandedShaderBytes);
    FUZZ_CHECK(!out.files.empty() && out.files.front() == "main.comp");
    for (const std::string& file : out.files) FUZZ_CHECK(files.count(file) == 1);
  } catch (const Error& e) {
    const std::string message = e.what();
    FUZZ_CHECK(!message.empty() && message.find('\n') == std::string::npos);
  }
  // The same bytes as a driver's compile log: one line out for each line in, whatever they hold.
  const std::string mapped = gl::map_log_to_files(input, {"main.comp", "a.glsl"});
  FUZZ_CHECK(line_count(mapped) == line_count(input));
  return 0;
}
