#include "util/code_digest.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "util/error.h"

namespace blurlab {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// The literal starting at `at` (a quote, or R" of a raw string) up to its end, as it is.
size_t literal_end(std::string_view s, size_t at) {
  if (s[at] == 'R') {  // R"delimiter( ... )delimiter"
    const size_t open = s.find('(', at + 2);
    if (open == std::string_view::npos) return s.size();
    const std::string close = ")" + std::string(s.substr(at + 2, open - at - 2)) + "\"";
    const size_t end = s.find(close, open + 1);
    return end == std::string_view::npos ? s.size() : end + close.size();
  }
  const char quote = s[at];
  size_t i = at + 1;
  while (i < s.size() && s[i] != quote && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
  return std::min(s.size(), i + 1);
}

// The string literals of C++ code that name a shader file ("fft.comp", "blur_common.glsl").
std::vector<std::string> named_shaders(std::string_view code) {
  std::vector<std::string> names;
  for (size_t at = code.find('"'); at != std::string_view::npos; at = code.find('"', at)) {
    const size_t end = code.find('"', at + 1);
    if (end == std::string_view::npos) break;
    const std::string_view text = code.substr(at + 1, end - at - 1);
    at = end + 1;
    const size_t dot = text.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || !std::all_of(text.begin(), text.begin() + static_cast<long>(dot), is_name_char))
      continue;
    const std::string_view extension = text.substr(dot + 1);
    if (extension == "comp" || extension == "frag" || extension == "vert" || extension == "glsl") names.emplace_back(text);
  }
  return names;
}

// The files `#include "NAME"` names, each line of the code that starts with it.
std::vector<std::string> included(std::string_view code) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string_view::npos) end = code.size();
    const std::string_view line = code.substr(start, end - start);
    start = end + 1;
    constexpr std::string_view directive = "#include \"";
    if (line.substr(0, directive.size()) != directive) continue;
    const size_t close = line.find('"', directive.size());
    if (close != std::string_view::npos) names.emplace_back(line.substr(directive.size(), close - directive.size()));
  }
  return names;
}

}  // namespace

std::string code_text(std::string_view s) {
  std::string out, line;
  bool pending_space = false;
  const auto end_line = [&] {
    if (!line.empty()) out += line + "\n";
    line.clear();
    pending_space = false;
  };
  const auto put = [&](std::string_view text) {
    if (pending_space && !line.empty()) line += ' ';
    pending_space = false;
    line += text;
  };
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      end_line();
      ++i;
    } else if (is_space(c)) {
      pending_space = true;
      ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const size_t close = s.find("*/", i + 2);
      const size_t stop = close == std::string_view::npos ? s.size() : close + 2;
      // A comment that spans lines ends the line it began on, as the code after it starts another.
      if (s.substr(i, stop - i).find('\n') != std::string_view::npos) end_line();
      else pending_space = true;
      i = stop;
    } else if (c == '"' || c == '\'' || (c == 'R' && i + 1 < s.size() && s[i + 1] == '"' && (i == 0 || !is_name_char(s[i - 1])))) {
      const size_t stop = literal_end(s, i);
      put(s.substr(i, stop - i));
      i = stop;
    } else {
      size_t stop = i + 1;
      while (stop < s.size() && !is_space(s[stop]) && s[stop] != '\n' && s[stop] != '/' && s[stop] != '"' && s[stop] != '\'') ++stop;
      put(s.substr(i, stop - i));
      // A word directly after another (no space between) stays joined.
      i = stop;
      continue;
    }
  }
  end_line();
  return out;
}

std::vector<std::string> registry_ids(std::string_view registry) {
  std::vector<std::string> ids;
  const size_t list = registry.find("#define BLURLAB_VARIANTS(X)");
  if (list == std::string_view::npos) throw Error("src/blur/registry.cpp has no BLURLAB_VARIANTS list");
  size_t at = list;
  while (true) {
    const size_t end = registry.find('\n', at);
    const std::string_view line = registry.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (const size_t x = line.find("X("); x != std::string_view::npos && at != list) {
      const size_t close = line.find(')', x);
      if (close != std::string_view::npos) ids.emplace_back(line.substr(x + 2, close - x - 2));
    }
    // The list ends at its first line without a continuation.
    if (end == std::string_view::npos || line.find('\\') == std::string_view::npos) break;
    at = end + 1;
  }
  if (ids.empty()) throw Error("src/blur/registry.cpp's BLURLAB_VARIANTS list names no variant");
  return ids;
}

std::vector<std::string> variant_code_files(const std::string& id, const ReadTreeFile& read) {
  std::set<std::string> files;
  std::vector<std::string> queue{"src/variants/" + id + ".cpp"};
  const auto add = [&](const std::string& path) {
    if (!files.count(path)) queue.push_back(path);
  };
  while (!queue.empty()) {
    const std::string path = queue.back();
    queue.pop_back();
    if (files.count(path)) continue;
    const std::optional<std::string> text = read(path);
    if (!text) throw Error("the code of variant " + id + ": " + path + " is missing");
    files.insert(path);
    const std::string code = code_text(*text);
    const bool shader = path.rfind("glsl/", 0) == 0;
    for (const std::string& name : included(code)) {
      if (shader) {
        add("glsl/" + name);
      } else if (name.rfind("variants/", 0) == 0) {
        add("src/" + name);
        const std::string source = "src/" + name.substr(0, name.rfind('.')) + ".cpp";  // the helper's own code
        if (read(source)) add(source);
      }
    }
    if (!shader)
      for (const std::string& name : named_shaders(code)) add("glsl/" + name);
  }
  return {files.begin(), files.end()};
}

namespace {

// The code a variant's C++ file runs: code_text() less the line naming its family, which says where
// the docs and listings group the variant and changes nothing it computes or times (a results
// file's rows stay today's when a variant moves to another family).
std::string digested_text(const std::string& path, const std::string& source) {
  std::string code = code_text(source);
  if (path.rfind("glsl/", 0) == 0) return code;
  std::string kept;
  std::istringstream lines(code);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(".family =", 0) != 0) kept += line + "\n";
  return kept;
}

}  // namespace

std::string variant_code_digest(const std::string& id, const ReadTreeFile& read) {
  uLong crc = crc32(0L, Z_NULL, 0), adler = adler32(0L, Z_NULL, 0);
  for (const std::string& path : variant_code_files(id, read)) {
    const std::string text = path + "\n" + digested_text(path, *read(path));
    const auto* bytes = reinterpret_cast<const Bytef*>(text.data());
    crc = crc32_z(crc, bytes, text.size());
    adler = adler32_z(adler, bytes, text.size());
  }
  char hex[24];
  std::snprintf(hex, sizeof hex, "%08lx%08lx", crc & 0xffffffffUL, adler & 0xffffffffUL);
  return hex;
}

std::string variant_name_of_id(std::string_view id) {
  std::string name(id);
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

}  // namespace blurlab
