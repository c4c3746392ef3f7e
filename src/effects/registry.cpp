#include "effects/registry.h"

#include <array>

// One line per effect: its EffectInfo is defined in src/effects/<id>.cpp.
#define BLURLAB_EFFECTS(X) \
  X(bloom)                  \
  X(dof)

namespace blurlab::effect {
#define BLURLAB_DECLARE(id) extern const EffectInfo id;
BLURLAB_EFFECTS(BLURLAB_DECLARE)
#undef BLURLAB_DECLARE
}  // namespace blurlab::effect

namespace blurlab {

std::span<const EffectInfo* const> effects() {
#define BLURLAB_ENTRY(id) &effect::id,
  static const std::array all{BLURLAB_EFFECTS(BLURLAB_ENTRY)};
#undef BLURLAB_ENTRY
  return all;
}

const EffectInfo* find_effect(std::string_view name) {
  for (const EffectInfo* e : effects())
    if (e->name == name) return e;
  return nullptr;
}

}  // namespace blurlab
