#pragma once
// JSON read from files the user gives (tuning files, recipes) in messages: what the file holds and
// what the parser says is wrong, each short, on one line, and made without recursing as deep as the
// file nests (a file decides its depth: 100000 nested arrays crashed a quoting that dumped them).
#include <exception>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace blurlab {

// A value as the file holds it: a number, string, boolean or null as JSON text (about 60 bytes at
// most, shortened()), an array or object by its kind and size alone ("an array of 3 items").
std::string json_value_text(const nlohmann::json& value);

// What nlohmann-json's exception says, without its "[json.exception.parse_error.101] " and shortened
// at a word (a parse error quotes what it last read, which may be long).
std::string json_error_text(const std::exception& error);

}  // namespace blurlab
