#include "blur/registry.h"

#include <algorithm>
#include <array>

// One line per variant: its VariantInfo is defined in src/variants/<id>.cpp. The order is the
// app's (keys 1-9): the floor, then fragment and compute variants from naive to specialized, then
// the approximations of the Gaussian.
#define BLURLAB_VARIANTS(X)     \
  X(copy)                       \
  X(frag_naive)                 \
  X(frag_separable)             \
  X(frag_separable_linear)      \
  X(frag_linear_2d)             \
  X(compute_naive)              \
  X(compute_separable)          \
  X(compute_separable_linear)   \
  X(compute_naive_lds)          \
  X(compute_separable_lds)      \
  X(compute_inline_lds)         \
  X(compute_inline_persistent)  \
  X(compute_inline_regblock)    \
  X(compute_strip_regblock)     \
  X(compute_separable_regblock) \
  X(compute_sliding)            \
  X(compute_sliding_inline)     \
  X(compute_sliding_tiles)      \
  X(compute_sliding_subgroup)   \
  X(compute_scan)               \
  X(compute_box_prefix)         \
  X(compute_box_blocked)        \
  X(fft)                        \
  X(box_iterated)               \
  X(kawase)                     \
  X(dual_kawase)                \
  X(recursive_gaussian)         \
  X(recursive_gaussian_blocks)  \
  X(variable_naive)             \
  X(variable_sat)               \
  X(variable_pyramid)           \
  X(variable_layers)

namespace blurlab::variant {
#define BLURLAB_DECLARE(id) extern const VariantInfo id;
BLURLAB_VARIANTS(BLURLAB_DECLARE)
#undef BLURLAB_DECLARE
}  // namespace blurlab::variant

namespace blurlab {

std::span<const VariantInfo* const> variants() {
#define BLURLAB_ENTRY(id) &variant::id,
  static const std::array all{BLURLAB_VARIANTS(BLURLAB_ENTRY)};
#undef BLURLAB_ENTRY
  return all;
}

const VariantInfo* find_variant(std::string_view name) {
  for (const VariantInfo* v : variants())
    if (v->name == name) return v;
  return nullptr;
}

const std::vector<Knob>& all_knobs() {
  static const std::vector<Knob> knobs = [] {
    std::vector<Knob> list;
    for (const VariantInfo* v : variants())
      for (const Knob& k : v->knobs)
        if (std::none_of(list.begin(), list.end(), [&](const Knob& seen) { return seen.name == k.name; })) list.push_back(k);
    return list;
  }();
  return knobs;
}

const Knob* find_any_knob(std::string_view name) {
  for (const Knob& k : all_knobs())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace blurlab
