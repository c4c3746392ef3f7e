// Fuzz target: the recipe runner's reading of recipe.json (tests/tools/run_recipe.cpp), which ships
// with every export and must take a tampered recipe as blurlab takes bad input. Every input is
// either refused in one line (a Failure, or a library's exception made one line by message_of), or
// passes check_recipe; from there on only Failure may be thrown: every value run() and the formula
// reader use was checked (groups at least 1, shaders by plain names, data files checked by the
// radius_map or the frame), and formulas evaluate without overflow or unbounded recursion at any size.
#include <cstddef>
#include <cstdint>
#include <string>

#define RUN_RECIPE_NO_MAIN
#include "../tools/run_recipe.cpp"
#include "fuzz_check.h"

namespace {

[[maybe_unused]] const auto kRun = &run;  // the runner's GL half, compiled here but not fuzzed

// One line, no control character: what reaches stderr.
void check_message(const std::string& message) {
  FUZZ_CHECK(!message.empty());
  for (const char c : message) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  json recipe;
  try {
    recipe = parse_recipe(text, "fuzz.json");
    check_recipe(recipe);
  } catch (const std::exception& e) {
    check_message(message_of(e));
    return 0;
  }
  try {
    for (const json& p : recipe.at("passes"))
      if (p.contains("groups"))
        for (const json& g : p.at("groups")) FUZZ_CHECK(g.get<long long>() >= 1 && g.get<long long>() <= kMaxGroups);
    check_formulas(recipe);
    // Data files as the recipe sizes them, zero-filled where small, through the radius_map's and the frame's checks.
    std::map<std::string, std::vector<uint8_t>> contents;
    for (const json& t : recipe.at("textures"))
      if (t.contains("contents")) {
        const size_t bytes = static_cast<size_t>(t.at("width").get<long long>() * t.at("height").get<long long>() *
                                                 t.at("contents").at("bytes_per_texel").get<long long>());
        if (bytes <= (1u << 20)) contents[t.at("name")] = std::vector<uint8_t>(bytes);
      }
    if (recipe.contains("radius_map")) check_radius_map(recipe, contents);
    if (recipe.contains("frame")) check_frame(recipe, contents);
  } catch (const Failure& e) {
    check_message(printable(e.what()));
  }
  for (const auto& [w, h] : {std::pair{1LL, 1LL}, std::pair{7LL, 5LL}, std::pair{kMaxSide, kMaxSide}}) {
    try {
      check_recipe(at_size(recipe, w, h, "in.png"));
    } catch (const Failure& e) {
      check_message(printable(e.what()));
    }
  }
  return 0;
}
