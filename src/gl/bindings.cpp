#include "gl/bindings.h"

namespace blurlab::gl {

std::string binding_defines() {
  std::string lines;
  for (const UnitInfo& u : kUnits) lines += "#define BINDING_" + std::string(u.name) + " " + std::to_string(u.number) + "\n";
  return lines;
}

std::vector<std::pair<std::string, std::string>> slot_defines(std::span<const NamedUnit> slots) {
  std::vector<std::pair<std::string, std::string>> defines;
  for (const NamedUnit& slot : slots) defines.emplace_back("BINDING_" + std::string(slot.name), std::to_string(slot.number));
  return defines;
}

}  // namespace blurlab::gl
