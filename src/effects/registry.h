#pragma once
// Every effect, in the order the window's key cycles through them (after "none": blurs alone).
#include <span>
#include <string_view>

#include "effects/effect.h"

namespace blurlab {

std::span<const EffectInfo* const> effects();
// nullptr if unknown.
const EffectInfo* find_effect(std::string_view name);

}  // namespace blurlab
