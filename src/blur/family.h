#pragma once
// What kind of algorithm a variant is: its family. Each variant names its family in its
// VariantInfo; the families, their names and what each is, are this table's alone. The listings
// (--list-variants, its JSON), the wide report table and docs/VARIANTS.md group variants by it.
#include <span>
#include <string_view>

namespace blurlab {

enum class Family {
  Copy,
  Direct,
  Separable,
  Bilinear,
  SharedMemory,
  RegisterBlocked,
  RunningSums,
  FrequencyDomain,
  IteratedBox,
  Kawase,
  Recursive,
  VariableRadius,
};

struct FamilyInfo {
  Family family;
  std::string_view name;         // stable kebab-case, as the listings and reports print it
  std::string_view description;  // one line: what the family's variants have in common
};

// Every family once, in the order the listings group them.
std::span<const FamilyInfo> families();
const FamilyInfo& family_info(Family family);
std::string_view name(Family family);

}  // namespace blurlab
