#include "util/glsl_limits.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <optional>
#include <utility>

#include "util/error.h"
#include "util/strings.h"

namespace blurlab {

namespace {

// Token counts saturate here: far above any bound, far below overflow.
constexpr uint64_t kSaturated = uint64_t{1} << 50;
uint64_t add(uint64_t a, uint64_t b) { return std::min(kSaturated, a + b); }
uint64_t mul(uint64_t a, uint64_t b) { return a == 0 || b == 0 ? 0 : a > kSaturated / b ? kSaturated : std::min(kSaturated, a * b); }

// How many tokens something expands to, as an upper bound in the number n of tokens of the
// arguments a function-like macro is given: constant + per_argument_token * n.
struct Size {
  uint64_t constant = 0, per_argument_token = 0;
  Size& operator+=(const Size& o) {
    constant = add(constant, o.constant);
    per_argument_token = add(per_argument_token, o.per_argument_token);
    return *this;
  }
};

struct Token {
  std::string_view text;
  bool identifier = false;
};

struct Where {
  size_t file = 0;
  long long line = 1;
};

struct Definition {
  std::vector<std::string_view> parameters;
  bool function_like = false;
  std::vector<Token> body;
  Where where;
};

struct Statement {
  std::vector<Token> tokens;
  Where where;
};

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The text cut into tokens, comments dropped, directives apart, logical lines joined: one pass.
class Scanner {
 public:
  Scanner(std::string_view text, const std::vector<std::string>& files) : text_(text), files_(files) {}

  std::map<std::string_view, std::vector<Definition>, std::less<>> definitions;
  std::vector<Statement> statements;

  void scan() {
    Statement current;
    size_t at = 0;
    long long physical = 1;  // the line number, in the current file, of the next physical line
    while (at < text_.size()) {
      // One logical line: physical lines joined where one ends with a backslash.
      const Where start{file_, physical};
      std::string joined;
      std::string_view line;
      for (size_t end;; at = end + 1) {
        end = std::min(text_.find('\n', at), text_.size());
        std::string_view piece = text_.substr(at, end - at);
        if (!piece.empty() && piece.back() == '\r') piece.remove_suffix(1);
        ++physical;
        const bool continued = !piece.empty() && piece.back() == '\\' && end < text_.size();
        if (!continued && joined.empty()) {
          line = piece;
          at = end + 1;
          break;
        }
        joined.append(piece.substr(0, continued ? piece.size() - 1 : piece.size()));
        if (!continued) {
          at = end + 1;
          line = lines_.emplace_back(std::move(joined));
          break;
        }
      }
      std::vector<Token> tokens = tokens_of(line);
      if (!directive_) {
        for (const Token& t : tokens) {
          if (current.tokens.empty()) current.where = start;
          current.tokens.push_back(t);
          if (!t.identifier && (t.text == ";" || t.text == "{" || t.text == "}")) statements.push_back(std::exchange(current, {}));
        }
        continue;
      }
      // "# NAME ...": tokens[0] is '#'.
      const std::string_view name = tokens.size() > 1 ? tokens[1].text : std::string_view();
      if (name == "line" && tokens.size() > 2) {
        const auto number = parse_int(tokens[2].text);
        const auto index = tokens.size() > 3 ? parse_int(tokens[3].text) : std::optional<long long>(static_cast<long long>(file_));
        if (number && index && *index >= 0 && static_cast<size_t>(*index) < std::max<size_t>(files_.size(), 1)) {
          physical = *number;
          file_ = static_cast<size_t>(*index);
        }
      } else if (name == "define") {
        if (line.size() > kMaxDefineBytes)
          throw Error(location(start) + ": a #define of " + format_bytes(line.size()) + "; blurlab hands a GL compiler at most " +
                      format_bytes(kMaxDefineBytes));
        define(tokens, start);
      } else if (name == "if" || name == "elif") {
        statements.push_back({std::vector<Token>(tokens.begin() + 2, tokens.end()), start});
      }
    }
    if (!current.tokens.empty()) statements.push_back(std::move(current));
  }

  std::string location(const Where& w) const {
    return (w.file < files_.size() ? files_[w.file] : "source " + std::to_string(w.file)) + ":" + std::to_string(w.line);
  }

 private:
  // The tokens of one logical line; sets directive_ when it is a preprocessor line. Block comments
  // may go on across lines.
  std::vector<Token> tokens_of(std::string_view line) {
    std::vector<Token> tokens;
    directive_ = false;
    for (size_t i = 0; i < line.size();) {
      if (in_comment_) {
        const size_t end = line.find("*/", i);
        if (end == std::string_view::npos) return tokens;
        in_comment_ = false;
        i = end + 2;
        continue;
      }
      const char c = line[i];
      if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
      if (c == '/' && i + 1 < line.size() && line[i + 1] == '*') {
        in_comment_ = true;
        i += 2;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      size_t end = i + 1;
      const bool identifier = is_identifier_start(c);
      if (identifier) {
        while (end < line.size() && is_identifier_char(line[end])) ++end;
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])))) {
        // A number: digits, letters, dots and an exponent's sign (1.5e-3, 0x1Fu).
        while (end < line.size() && (is_identifier_char(line[end]) || line[end] == '.' ||
                                     ((line[end] == '+' || line[end] == '-') && (line[end - 1] == 'e' || line[end - 1] == 'E'))))
          ++end;
      }
      if (tokens.empty() && c == '#') directive_ = true;
      tokens.push_back({line.substr(i, end - i), identifier});
      i = end;
    }
    return tokens;
  }

  void define(const std::vector<Token>& tokens, const Where& where) {
    if (tokens.size() < 3 || !tokens[2].identifier) return;  // "#define" alone: the compiler's to refuse
    Definition d;
    d.where = where;
    size_t body = 3;
    // Function-like only when '(' follows the name at once.
    if (tokens.size() > 3 && tokens[3].text == "(" && tokens[3].text.data() == tokens[2].text.data() + tokens[2].text.size()) {
      d.function_like = true;
      for (body = 4; body < tokens.size() && tokens[body].text != ")"; ++body)
        if (tokens[body].identifier) d.parameters.push_back(tokens[body].text);
      ++body;
    }
    if (body < tokens.size()) d.body.assign(tokens.begin() + static_cast<std::ptrdiff_t>(body), tokens.end());
    definitions[tokens[2].text].push_back(std::move(d));
  }

  std::string_view text_;
  const std::vector<std::string>& files_;
  std::deque<std::string> lines_;  // joined logical lines, which tokens point into
  size_t file_ = 0;
  bool in_comment_ = false;
  bool directive_ = false;
};

// The sizes of every macro, and of any token list using them.
class Expansion {
 public:
  explicit Expansion(const Scanner& scanner) : scanner_(scanner) { compute_all(); }

  // How many tokens `tokens` expand to (the body of `self`, whose parameters count per argument
  // token, or a statement): one pass with a stack of the open parentheses, no recursion.
  Size size_of(const std::vector<Token>& tokens, const Definition* self = nullptr, std::string_view self_name = {}) const {
    struct Open {
      const Size* macro;  // a function-like macro's call, or nullptr for plain parentheses
      Size inside;
    };
    std::vector<Open> open;
    Size total;
    const auto top = [&]() -> Size& { return open.empty() ? total : open.back().inside; };
    for (size_t i = 0; i < tokens.size(); ++i) {
      const Token& t = tokens[i];
      if (t.identifier) {
        if (self && std::find(self->parameters.begin(), self->parameters.end(), t.text) != self->parameters.end()) {
          top() += {0, 1};
          continue;
        }
        const auto macro = sizes_.find(t.text);
        if (macro != sizes_.end() && t.text != self_name) {
          const bool function_like = function_like_.at(t.text);
          if (function_like && i + 1 < tokens.size() && tokens[i + 1].text == "(") {
            open.push_back({&macro->second, {}});
            ++i;
            continue;
          }
          if (!function_like) {
            top() += {macro->second.constant, 0};
            continue;
          }
        }
        top() += {1, 0};
      } else if (t.text == "(") {
        open.push_back({nullptr, {1, 0}});
      } else if (t.text == ")" && !open.empty()) {
        const Open closed = open.back();
        open.pop_back();
        top() += applied(closed);
      } else {
        top() += {1, 0};
      }
    }
    while (!open.empty()) {  // unbalanced: count what is open as if it closed here
      const Open closed = open.back();
      open.pop_back();
      top() += applied(closed);
    }
    return total;
  }

 private:
  // A call: the macro's size with these arguments; plain parentheses: what they hold and ')'.
  static Size applied(const auto& open) {
    if (!open.macro) return {add(open.inside.constant, 1), open.inside.per_argument_token};
    return {add(open.macro->constant, mul(open.macro->per_argument_token, open.inside.constant)),
            mul(open.macro->per_argument_token, open.inside.per_argument_token)};
  }

  // The macros a name's definitions use, other than itself.
  std::vector<std::string_view> uses(std::string_view name, const std::vector<Definition>& definitions) const {
    std::vector<std::string_view> used;
    for (const Definition& d : definitions)
      for (const Token& t : d.body)
        if (t.identifier && t.text != name && scanner_.definitions.count(t.text) &&
            std::find(d.parameters.begin(), d.parameters.end(), t.text) == d.parameters.end() &&
            std::find(used.begin(), used.end(), t.text) == used.end())
          used.push_back(t.text);
    return used;
  }

  // Each macro after the macros it uses (a depth-first walk with a stack of its own), the largest
  // of its definitions (#if branches, redefinitions).
  void compute_all() {
    enum class State { Unseen, Open, Done };
    std::map<std::string_view, State, std::less<>> state;
    for (const auto& [name, definitions] : scanner_.definitions) {
      state[name] = State::Unseen;
      function_like_[name] = std::any_of(definitions.begin(), definitions.end(), [](const Definition& d) { return d.function_like; });
    }
    for (const auto& [root, root_definitions] : scanner_.definitions) {
      if (state[root] != State::Unseen) continue;
      struct Step {
        std::string_view name;
        std::vector<std::string_view> uses;
        size_t next = 0;
      };
      std::vector<Step> stack{{root, uses(root, root_definitions)}};
      state[root] = State::Open;
      while (!stack.empty()) {
        Step& step = stack.back();
        if (step.next < step.uses.size()) {
          const std::string_view used = step.uses[step.next++];
          if (state[used] == State::Open) {
            const Definition& d = scanner_.definitions.at(step.name).front();
            throw Error(scanner_.location(d.where) + ": macro " + std::string(step.name) + " uses " + std::string(used) +
                        ", which leads back to it (blurlab hands a GL compiler no macros that refer to one another in a cycle)");
          }
          if (state[used] == State::Unseen) {
            state[used] = State::Open;
            stack.push_back({used, uses(used, scanner_.definitions.at(used))});
          }
          continue;
        }
        Size largest;
        for (const Definition& d : scanner_.definitions.at(step.name)) {
          const Size s = size_of(d.body, &d, step.name);
          largest.constant = std::max(largest.constant, s.constant);
          largest.per_argument_token = std::max(largest.per_argument_token, s.per_argument_token);
        }
        sizes_[step.name] = largest;
        state[step.name] = State::Done;
        stack.pop_back();
      }
    }
  }

  const Scanner& scanner_;
  std::map<std::string_view, Size, std::less<>> sizes_;
  std::map<std::string_view, bool, std::less<>> function_like_;
};

}  // namespace

void check_glsl_limits(std::string_view text, const std::vector<std::string>& files) {
  Scanner scanner(text, files);
  scanner.scan();
  const Expansion expansion(scanner);
  for (const Statement& s : scanner.statements) {
    const uint64_t tokens = expansion.size_of(s.tokens).constant;
    if (tokens > kMaxStatementTokens)
      throw Error(scanner.location(s.where) + ": a statement of " + (tokens >= kSaturated ? std::string("over 10^15") : std::to_string(tokens)) +
                  " tokens with its macros expanded; blurlab hands a GL compiler at most " + std::to_string(kMaxStatementTokens) +
                  " (a longer one crashed Mesa's)");
  }
}

}  // namespace blurlab
