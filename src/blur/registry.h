#pragma once
// Every blur variant, in the order the app numbers them.
#include <span>
#include <string_view>

#include "blur/blur.h"

namespace blurlab {

std::span<const VariantInfo* const> variants();
const VariantInfo* find_variant(std::string_view name);

}  // namespace blurlab
