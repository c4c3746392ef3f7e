#include "util/json_text.h"

#include <nlohmann/json.hpp>
#include <string_view>

#include "util/strings.h"

namespace blurlab {

std::string json_value_text(const nlohmann::json& value) {
  if (value.is_array()) return "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " item" : " items");
  if (value.is_object()) return "an object of " + std::to_string(value.size()) + (value.size() == 1 ? " key" : " keys");
  return shortened(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 60);
}

std::string json_error_text(const std::exception& error) {
  std::string_view text = error.what();
  if (text.rfind("[json.exception.", 0) == 0 && text.find("] ") != std::string_view::npos) text.remove_prefix(text.find("] ") + 2);
  return shortened(text, 160);
}

}  // namespace blurlab
