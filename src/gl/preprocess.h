#pragma once
// The program a shader source is once its preprocessor has chosen: the conditional groups
// (#if, #ifdef, #ifndef, #elif, #else, #endif) resolved with the defines in force where they stand,
// the groups not taken left out with their directives, and then every #define that nothing left
// uses left out too. Everything else stays as written: comments, the licence header, macros that
// are used (not expanded), #version, #extension. What an exported shader (src/export/) ships:
// the code its recipe runs, readable, and no more.
#include <string>
#include <string_view>

namespace blurlab::gl {

struct ChosenProgram {
  std::string text;
  // Empty when every conditional was resolved; else why none was (an #if this cannot evaluate,
  // groups that do not balance), and `text` is the source as it was.
  std::string unresolved;
};

// `source`: a whole shader (its includes inlined, its defines after #version). Expressions of #if
// and #elif: integers (decimal, octal, hex, u suffixes), defined NAME and defined(NAME), object-like
// macros expanded (an identifier left is 0, as C's preprocessor has it), the operators of C's
// preprocessor with their precedence, nested at most 64 deep.
ChosenProgram choose_program(std::string_view source);

}  // namespace blurlab::gl
