#include "gl/bindings.h"

namespace blurlab::gl {

std::string binding_defines() {
  std::string lines;
  for (const UnitInfo& u : kUnits) lines += "#define BINDING_" + std::string(u.name) + " " + std::to_string(u.number) + "\n";
  return lines;
}

}  // namespace blurlab::gl
