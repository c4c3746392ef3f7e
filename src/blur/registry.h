#pragma once
// Every blur variant, in the order the app numbers them.
#include <span>
#include <string_view>

#include "blur/blur.h"

namespace blurlab {

std::span<const VariantInfo* const> variants();
const VariantInfo* find_variant(std::string_view name);

// One of each knob name the variants declare, in registry order (the command line has one
// option per entry). Variants that share a name share its definition (Knob::same_definition).
const std::vector<Knob>& all_knobs();
// The registered knob of that name, or nullptr.
const Knob* find_any_knob(std::string_view name);

}  // namespace blurlab
