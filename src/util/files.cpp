#include "util/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <unistd.h>

#include "util/error.h"

namespace blurlab {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  const std::string name = path.string();
  std::error_code ec;
  if (path.empty()) throw Error("cannot write '': no file name");
  if (std::filesystem::is_directory(path, ec)) throw Error("cannot write '" + name + "': it is a directory");
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir, ec)) throw Error("cannot write '" + name + "': no such directory '" + dir.string() + "'");
  const std::filesystem::path temp = dir / ("." + path.filename().string() + "." + std::to_string(::getpid()) + ".partial");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write '" + name + "': " + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      const std::string why = std::strerror(errno);
      out.close();
      std::filesystem::remove(temp, ec);
      throw Error("cannot write '" + name + "': " + why);
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw Error("cannot write '" + name + "': " + ec.message());
  }
}

void check_writable(const std::filesystem::path& path, std::string_view option) {
  if (path.empty()) return;
  const std::string name = path.string();
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(std::string(option) + " '" + name + "' is a directory");
  if (!std::filesystem::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0)
    throw Error(std::string(option) + " '" + name + "': cannot write into '" + dir.string() + "'");
}

}  // namespace blurlab
