#pragma once
// --list-variants: the registry's variants, for people (grouped by family) or, with --json, as a
// JSON document for scripts (tests/listing.cmake reads it); and the JSON output both list modes
// share.
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace blurlab::app {

// The human listing: a line per family (its name and what it is), then a line per variant of the
// family in the registry's order: name, stage, tolerance, kernels, summary. With `json_file`
// ("-": stdout) the JSON document instead (docs/USAGE.md, "Listings as JSON").
void list_variants(const std::string& json_file);

// A listing's JSON document, indented, to stdout ("-") or written whole to the file (--json).
void write_listing_json(const nlohmann::ordered_json& document, const std::string& json_file);

}  // namespace blurlab::app
