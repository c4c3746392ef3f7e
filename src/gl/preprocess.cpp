#include "gl/preprocess.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace blurlab::gl {

// Named rather than anonymous: the library builds in unity batches, where one file's anonymous
// namespace is its neighbours' too.
namespace choosing {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Why a conditional cannot be resolved; choose_program() then ships the source as it was.
struct Unresolved : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The code of a line without its comments, given whether a block comment is open where it starts;
// `in_comment` is left as it is where the line ends.
std::string code_of(std::string_view line, bool& in_comment) {
  std::string code;
  for (size_t i = 0; i < line.size(); ++i) {
    if (in_comment) {
      if (line[i] == '*' && i + 1 < line.size() && line[i + 1] == '/') {
        in_comment = false;
        ++i;
        code += ' ';
      }
      continue;
    }
    if (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    if (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '*') {
      in_comment = true;
      ++i;
      continue;
    }
    code += line[i];
  }
  return code;
}

std::vector<std::string> identifiers(std::string_view code) {
  std::vector<std::string> names;
  for (size_t i = 0; i < code.size();) {
    if (std::isdigit(static_cast<unsigned char>(code[i]))) {  // a number's letters (0x1F, 2u) are no names
      while (i < code.size() && (name_char(code[i]) || code[i] == '.')) ++i;
    } else if (name_start(code[i])) {
      const size_t start = i;
      while (i < code.size() && name_char(code[i])) ++i;
      names.emplace_back(code.substr(start, i - start));
    } else {
      ++i;
    }
  }
  return names;
}

struct Macro {
  bool function_like = false;
  std::string body;
};
using Macros = std::map<std::string, Macro, std::less<>>;

// --- #if expressions ------------------------------------------------------------------------

struct Token {
  enum Kind { Number, Name, Op, End } kind;
  std::string text;
  int64_t value = 0;
};

std::vector<Token> tokenize(std::string_view e) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < e.size();) {
    const char c = e[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = i;
      while (i < e.size() && name_char(e[i])) ++i;
      std::string digits(e.substr(start, i - start));
      while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U')) digits.pop_back();
      size_t used = 0;
      int64_t value = 0;
      try {
        value = static_cast<int64_t>(std::stoull(digits, &used, 0));
      } catch (const std::exception&) {
        throw Unresolved("the number '" + std::string(e.substr(start, i - start)) + "'");
      }
      if (used != digits.size()) throw Unresolved("the number '" + std::string(e.substr(start, i - start)) + "'");
      tokens.push_back({Token::Number, "", value});
    } else if (name_start(c)) {
      const size_t start = i;
      while (i < e.size() && name_char(e[i])) ++i;
      tokens.push_back({Token::Name, std::string(e.substr(start, i - start))});
    } else {
      static const char* const kTwo[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"};
      std::string op(1, c);
      for (const char* two : kTwo)
        if (e.substr(i, 2) == two) op = two;
      if (op.size() == 1 && std::string_view("()!~*/%+-<>&^|?:").find(c) == std::string_view::npos)
        throw Unresolved(std::string("the character '") + c + "'");
      i += op.size();
      tokens.push_back({Token::Op, op});
    }
  }
  return tokens;
}

// defined NAME / defined(NAME) replaced by 1 or 0, then the object-like macros expanded (at most
// 64 deep, none inside its own expansion); a function-like macro is not evaluated here.
std::vector<Token> expand(const std::vector<Token>& in, const Macros& macros, std::set<std::string>& expanding, int depth) {
  if (depth > 64) throw Unresolved("macros nested more than 64 deep");
  std::vector<Token> out;
  for (size_t i = 0; i < in.size(); ++i) {
    const Token& t = in[i];
    if (t.kind == Token::Name && t.text == "defined") {
      size_t j = i + 1;
      const bool paren = j < in.size() && in[j].kind == Token::Op && in[j].text == "(";
      if (paren) ++j;
      if (j >= in.size() || in[j].kind != Token::Name) throw Unresolved("defined without a name");
      const bool is = macros.count(in[j].text) > 0;
      if (paren && (j + 1 >= in.size() || in[j + 1].text != ")")) throw Unresolved("defined( without its )");
      i = paren ? j + 1 : j;
      out.push_back({Token::Number, "", is ? 1 : 0});
      continue;
    }
    if (t.kind != Token::Name || expanding.count(t.text)) {
      out.push_back(t);
      continue;
    }
    const auto m = macros.find(t.text);
    if (m == macros.end()) {
      out.push_back(t);
      continue;
    }
    if (m->second.function_like) throw Unresolved("the function-like macro " + t.text);
    expanding.insert(t.text);
    for (Token& e : expand(tokenize(m->second.body), macros, expanding, depth + 1)) out.push_back(std::move(e));
    expanding.erase(t.text);
  }
  return out;
}

class Evaluator {
 public:
  explicit Evaluator(std::vector<Token> tokens) : tokens_(std::move(tokens)) { tokens_.push_back({Token::End, ""}); }
  int64_t run() {
    const int64_t v = conditional(0);
    if (peek().kind != Token::End) throw Unresolved("'" + peek().text + "' after the expression");
    return v;
  }

 private:
  const Token& peek() const { return tokens_[at_]; }
  bool take(const char* op) {
    if (peek().kind == Token::Op && peek().text == op) {
      ++at_;
      return true;
    }
    return false;
  }
  void guard(int depth) const {
    if (depth > 64) throw Unresolved("an expression nested more than 64 deep");
  }
  int64_t conditional(int depth) {
    guard(depth);
    const int64_t c = binary(0, depth);
    if (!take("?")) return c;
    const int64_t a = conditional(depth + 1);
    if (!take(":")) throw Unresolved("? without :");
    const int64_t b = conditional(depth + 1);
    return c ? a : b;
  }
  // Precedence climbing over C's binary operators, lowest first.
  int64_t binary(int level, int depth) {
    static const std::vector<std::vector<std::string>> kLevels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(kLevels.size())) return unary(depth);
    int64_t v = binary(level + 1, depth);
    while (true) {
      std::string op;
      for (const std::string& o : kLevels[static_cast<size_t>(level)])
        if (peek().kind == Token::Op && peek().text == o) op = o;
      if (op.empty()) return v;
      ++at_;
      const int64_t r = binary(level + 1, depth);
      if ((op == "/" || op == "%") && r == 0) throw Unresolved("a division by zero");
      if (op == "||") v = v || r;
      else if (op == "&&") v = v && r;
      else if (op == "|") v |= r;
      else if (op == "^") v ^= r;
      else if (op == "&") v &= r;
      else if (op == "==") v = v == r;
      else if (op == "!=") v = v != r;
      else if (op == "<") v = v < r;
      else if (op == ">") v = v > r;
      else if (op == "<=") v = v <= r;
      else if (op == ">=") v = v >= r;
      else if (op == "<<") v = static_cast<int64_t>(static_cast<uint64_t>(v) << (r & 63));
      else if (op == ">>") v >>= (r & 63);
      else if (op == "+") v = static_cast<int64_t>(static_cast<uint64_t>(v) + static_cast<uint64_t>(r));
      else if (op == "-") v = static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(r));
      else if (op == "*") v = static_cast<int64_t>(static_cast<uint64_t>(v) * static_cast<uint64_t>(r));
      else if (op == "/") v = v == INT64_MIN && r == -1 ? v : v / r;
      else v = v == INT64_MIN && r == -1 ? 0 : v % r;
    }
  }
  int64_t unary(int depth) {
    guard(depth);
    if (take("!")) return !unary(depth + 1);
    if (take("~")) return ~unary(depth + 1);
    if (take("-")) return static_cast<int64_t>(0 - static_cast<uint64_t>(unary(depth + 1)));
    if (take("+")) return unary(depth + 1);
    if (take("(")) {
      const int64_t v = conditional(depth + 1);
      if (!take(")")) throw Unresolved("( without )");
      return v;
    }
    const Token t = peek();
    if (t.kind == Token::Number) {
      ++at_;
      return t.value;
    }
    if (t.kind == Token::Name) {  // a name no macro defines: 0
      ++at_;
      return 0;
    }
    throw Unresolved(t.kind == Token::End ? "an expression that ends early" : "'" + t.text + "' where a value belongs");
  }

  std::vector<Token> tokens_;
  size_t at_ = 0;
};

bool evaluate(std::string_view expression, const Macros& macros) {
  std::set<std::string> expanding;
  return Evaluator(expand(tokenize(expression), macros, expanding, 0)).run() != 0;
}

// --- lines ----------------------------------------------------------------------------------

struct Line {
  std::string text;       // as written (continuation lines joined with their newlines)
  std::string code;       // without comments, continuations joined
  bool directive = false;
  std::string keyword;    // "if", "define", ...
  std::string rest;       // the directive's code after its keyword
};

std::vector<Line> source_lines(std::string_view source) {
  std::vector<Line> lines;
  bool in_comment = false;
  size_t at = 0;
  while (at <= source.size()) {
    size_t end = source.find('\n', at);
    if (end == std::string_view::npos) end = source.size();
    Line line;
    const bool comment_before = in_comment;
    line.text = std::string(source.substr(at, end - at));
    line.code = code_of(line.text, in_comment);
    // A directive's continuation lines (a final backslash) belong to it.
    while (!comment_before && !line.code.empty() && line.code.back() == '\\' && end < source.size()) {
      const size_t next = source.find('\n', end + 1);
      const size_t stop = next == std::string_view::npos ? source.size() : next;
      const std::string_view more = source.substr(end + 1, stop - end - 1);
      line.text += "\n" + std::string(more);
      line.code.pop_back();
      line.code += " " + code_of(more, in_comment);
      end = stop;
    }
    at = end + 1;
    const size_t hash = line.code.find_first_not_of(" \t");
    if (!comment_before && hash != std::string::npos && line.code[hash] == '#') {
      line.directive = true;
      size_t k = line.code.find_first_not_of(" \t", hash + 1);
      size_t k_end = k;
      while (k_end < line.code.size() && name_char(line.code[k_end])) ++k_end;
      line.keyword = k == std::string::npos ? "" : line.code.substr(k, k_end - k);
      line.rest = k_end < line.code.size() ? line.code.substr(k_end) : "";
    }
    lines.push_back(std::move(line));
    if (end == source.size()) break;
  }
  return lines;
}

std::string first_name(std::string_view rest) {
  size_t i = rest.find_first_not_of(" \t");
  if (i == std::string_view::npos || !name_start(rest[i])) return "";
  const size_t start = i;
  while (i < rest.size() && name_char(rest[i])) ++i;
  return std::string(rest.substr(start, i - start));
}

void define(Macros& macros, std::string_view rest) {
  const std::string name = first_name(rest);
  if (name.empty()) throw Unresolved("#define without a name");
  const size_t after = rest.find(name) + name.size();
  Macro m;
  m.function_like = after < rest.size() && rest[after] == '(';
  const size_t body = m.function_like ? rest.find(')', after) : after;
  if (body == std::string_view::npos) throw Unresolved("#define " + name + "( without its )");
  m.body = std::string(rest.substr(m.function_like ? body + 1 : body));
  macros[name] = std::move(m);
}

struct Group {
  bool parent_active, taken, active;
};

}  // namespace choosing

ChosenProgram choose_program(std::string_view source) {
  const std::vector<choosing::Line> lines = choosing::source_lines(source);
  std::vector<const choosing::Line*> kept;
  try {
    choosing::Macros macros;
    std::vector<choosing::Group> groups;
    const auto active = [&] { return groups.empty() || groups.back().active; };
    for (const choosing::Line& line : lines) {
      if (!line.directive) {
        if (active()) kept.push_back(&line);
        continue;
      }
      const std::string& k = line.keyword;
      if (k == "if" || k == "ifdef" || k == "ifndef") {
        const bool parent = active();
        bool condition = false;
        if (parent) {
          if (k == "if") condition = choosing::evaluate(line.rest, macros);
          else condition = (macros.count(choosing::first_name(line.rest)) > 0) == (k == "ifdef");
          if (k != "if" && choosing::first_name(line.rest).empty()) throw choosing::Unresolved("#" + k + " without a name");
        }
        groups.push_back({parent, condition, condition});
      } else if (k == "elif") {
        if (groups.empty()) throw choosing::Unresolved("#elif outside a group");
        choosing::Group& g = groups.back();
        g.active = g.parent_active && !g.taken && choosing::evaluate(line.rest, macros);
        g.taken = g.taken || g.active;
      } else if (k == "else") {
        if (groups.empty()) throw choosing::Unresolved("#else outside a group");
        choosing::Group& g = groups.back();
        g.active = g.parent_active && !g.taken;
        g.taken = true;
      } else if (k == "endif") {
        if (groups.empty()) throw choosing::Unresolved("#endif outside a group");
        groups.pop_back();
      } else if (active()) {
        if (k == "define") choosing::define(macros, line.rest);
        else if (k == "undef") macros.erase(choosing::first_name(line.rest));
        kept.push_back(&line);
      }
    }
    if (!groups.empty()) throw choosing::Unresolved(std::to_string(groups.size()) + " #if groups without their #endif");
  } catch (const choosing::Unresolved& e) {
    return {std::string(source), e.what()};
  }

  // The defines nothing left uses: a name's uses are its identifiers in the kept code, less those
  // of its own #define and #undef lines; a define left out takes its body's uses with it.
  std::map<std::string, int> uses;
  std::vector<std::vector<std::string>> names(kept.size());
  std::vector<std::string> defined(kept.size());
  for (size_t i = 0; i < kept.size(); ++i) {
    const choosing::Line& line = *kept[i];
    names[i] = choosing::identifiers(line.code);
    if (line.directive && (line.keyword == "define" || line.keyword == "undef")) {
      defined[i] = choosing::first_name(line.rest);
      // The directive's own name is no use of it.
      const auto own = std::find(names[i].begin(), names[i].end(), defined[i]);
      if (own != names[i].end()) names[i].erase(own);
    }
    for (const std::string& n : names[i]) ++uses[n];
  }
  std::vector<bool> dropped(kept.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < kept.size(); ++i) {
      if (dropped[i] || defined[i].empty() || uses[defined[i]] > 0) continue;
      dropped[i] = true;
      changed = true;
      for (const std::string& n : names[i]) --uses[n];
    }
  }
  ChosenProgram chosen;
  bool blank = false;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (dropped[i]) continue;
    const bool empty = kept[i]->text.find_first_not_of(" \t\r") == std::string::npos;
    if (empty && blank) continue;  // one blank line where several were
    blank = empty;
    chosen.text += kept[i]->text + "\n";
  }
  return chosen;
}

}  // namespace blurlab::gl
