#pragma once
// What blurlab hands a GL driver's GLSL compiler is bounded, whoever wrote it (--shader-dir, an
// exported shader the recipe runner reads): Mesa's compiler recursed once per operator of an
// expression, so a statement of 20000 additions (an 800 kB #define used once) crashed it with
// SIGSEGV; and a chain of macros that each use the next twice expanded to billions of tokens (its
// preprocessor ran until it was killed). The driver cannot be told to stop, so the text is checked
// before it is handed on: one pass over it, and no recursion whatever it nests.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace blurlab {

// The longest #define (its logical line, continuations joined): blurlab's own, the baked weights
// of radius 128, take about 5 KiB.
inline constexpr size_t kMaxDefineBytes = 64 << 10;
// The most tokens one statement (between ';', '{' and '}', or the expression of an #if) may hold
// once its macros are expanded: Mesa 22 crashed at about 40000 tokens of a chain of additions and
// handled 28000; blurlab's own statements hold at most about a thousand.
inline constexpr uint64_t kMaxStatementTokens = 16384;

// Throws blurlab::Error "FILE:LINE: REASON" when a #define is longer than kMaxDefineBytes, macros
// refer to one another in a cycle (a macro naming itself is left alone, as the preprocessor
// leaves it), or a statement would hold more than kMaxStatementTokens tokens once its macros are
// expanded (counted as an upper bound: a macro's arguments as if each use of a parameter took all
// of them). `files` names the source strings of the text's `#line N I` directives (index I); the
// text starts in files[0].
void check_glsl_limits(std::string_view text, const std::vector<std::string>& files);

}  // namespace blurlab
