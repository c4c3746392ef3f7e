#include "image/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "util/error.h"
#include "util/files.h"
#include "util/strings.h"

namespace blurlab {

namespace {

// A cgroup limit file's number; nullopt for "max", an unreadable file or anything unexpected
// (no limit is known then, and physical memory still bounds the run).
std::optional<uint64_t> read_limit(const std::filesystem::path& file) {
  try {
    const auto value = parse_int(trim(read_regular_file(file, 4096, "the cgroup limit")));
    if (value && *value > 0) return static_cast<uint64_t>(*value);
  } catch (const Error&) {
  }
  return std::nullopt;
}

// The lowest memory limit of this process's cgroup and its ancestors (v2 memory.max, v1
// memory.limit_in_bytes). In a container the path in /proc/self/cgroup may not exist in its
// view of /sys/fs/cgroup; the walk up then ends at the container's own root.
std::optional<uint64_t> cgroup_limit() {
  std::string table;
  try {
    table = read_regular_file("/proc/self/cgroup", 1 << 16, "the cgroup table");
  } catch (const Error&) {
    return std::nullopt;
  }
  std::optional<uint64_t> lowest;
  for (const std::string& line : split(table, '\n')) {
    const std::vector<std::string> fields = split(line, ':');  // ID:CONTROLLERS:PATH
    if (fields.size() != 3 || fields[2].empty() || fields[2][0] != '/') continue;
    std::filesystem::path root, file;
    if (fields[0] == "0" && fields[1].empty()) {
      root = "/sys/fs/cgroup";
      file = "memory.max";
    } else if (const auto controllers = split(fields[1], ',');
               std::find(controllers.begin(), controllers.end(), "memory") != controllers.end()) {
      root = "/sys/fs/cgroup/memory";
      file = "memory.limit_in_bytes";
    } else {
      continue;
    }
    for (std::filesystem::path dir = fields[2];; dir = dir.parent_path()) {
      if (const auto limit = read_limit(root / dir.relative_path() / file)) lowest = std::min(lowest.value_or(*limit), *limit);
      if (dir == dir.parent_path()) break;
    }
  }
  return lowest;
}

std::optional<uint64_t> process_limit() {
  std::optional<uint64_t> lowest;
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit value {};
    if (getrlimit(resource, &value) == 0 && value.rlim_cur != RLIM_INFINITY)
      lowest = std::min<uint64_t>(lowest.value_or(value.rlim_cur), value.rlim_cur);
  }
  return lowest;
}

}  // namespace

MemoryEstimate estimate_run_memory(int width, int height, const RunMemoryPlan& plan) {
  const int input_bytes = plan.texture_bytes_per_texel;
  const uint64_t kernels = std::max<size_t>(plan.kernels, 1);
  std::vector<std::pair<std::string, uint64_t>> parts;
  if (plan.image_file) parts.push_back({"image 16", 16});
  parts.push_back({"textures " + std::to_string(2 * input_bytes), 2 * static_cast<uint64_t>(input_bytes)});
  const int intermediate = std::max(plan.intermediate_bytes_per_texel, 0);
  parts.push_back({"intermediate " + std::to_string(intermediate), static_cast<uint64_t>(intermediate)});
  parts.push_back({"read-backs 32", 32});
  parts.push_back({"references 32" + (kernels > 1 ? " x " + std::to_string(kernels) + " kernels" : std::string()), 32 * kernels});
  parts.push_back({"reference pass 32", 32});

  MemoryEstimate estimate;
  for (const auto& [text, bytes] : parts) {
    estimate.parts += (estimate.parts.empty() ? "" : " + ") + text;
    estimate.bytes_per_texel += bytes;
  }
  const uint64_t texels = static_cast<uint64_t>(std::max(width, 0)) * static_cast<uint64_t>(std::max(height, 0));
  const uint64_t decoding = plan.image_file ? plan.file_bytes + texels * (16 + static_cast<uint64_t>(plan.decoder_bytes_per_texel)) : 0;
  estimate.bytes = kFixedRunBytes + std::max(texels * estimate.bytes_per_texel, decoding);
  return estimate;
}

MemoryBound memory_bound_from(uint64_t physical, std::optional<uint64_t> cgroup, std::optional<uint64_t> process_limit) {
  uint64_t limit = physical;
  std::string source = format_bytes(physical) + " of physical memory";
  if (cgroup && *cgroup < limit) {
    limit = *cgroup;
    source = "the cgroup memory limit of " + format_bytes(limit);
  }
  if (process_limit && *process_limit < limit) {
    limit = *process_limit;
    source = "the RLIMIT_AS / RLIMIT_DATA limit of " + format_bytes(limit);
  }
  return {limit / 4 * 3, "3/4 of " + source};
}

MemoryBound memory_bound() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
  const uint64_t physical = pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size) : 0;
  return memory_bound_from(physical, cgroup_limit(), process_limit());
}

std::optional<std::string> map_memory_problem(int width, int height, uint64_t file_bytes, int decoder_bytes_per_texel,
                                              const MemoryBound& bound) {
  const uint64_t per_texel = 16 + 2 + static_cast<uint64_t>(std::max(decoder_bytes_per_texel, 0));
  const uint64_t texels = static_cast<uint64_t>(std::max(width, 0)) * static_cast<uint64_t>(std::max(height, 0));
  const uint64_t bytes = kFixedRunBytes + file_bytes + texels * per_texel;
  if (bytes <= bound.bytes) return std::nullopt;
  return std::to_string(width) + "x" + std::to_string(height) + " needs about " + format_bytes(bytes) + " to decode (" +
         std::to_string(per_texel) + " bytes per texel: decoded 16 + values 2" +
         (decoder_bytes_per_texel > 0 ? " + decoder " + std::to_string(decoder_bytes_per_texel) : std::string()) +
         "; the file and " + format_bytes(kFixedRunBytes) + " for the program and GL driver), more than the bound of " +
         format_bytes(bound.bytes) + " (" + bound.source + ")";
}

std::optional<std::string> run_memory_problem(int width, int height, const RunMemoryPlan& plan, const MemoryBound& bound) {
  const MemoryEstimate estimate = estimate_run_memory(width, height, plan);
  if (estimate.bytes <= bound.bytes) return std::nullopt;
  return std::to_string(width) + "x" + std::to_string(height) + " needs about " + format_bytes(estimate.bytes) + " (" +
         std::to_string(estimate.bytes_per_texel) + " bytes per texel: " + estimate.parts + "; and " +
         format_bytes(kFixedRunBytes) + " for the program and GL driver), more than the bound of " +
         format_bytes(bound.bytes) + " (" + bound.source + ")";
}

}  // namespace blurlab
