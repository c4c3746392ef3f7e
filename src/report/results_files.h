#pragma once
// The results files of docs/results/ (one per GPU: blurlab's JSON reports of it joined by
// docs/tools/results.py), as the program was built with them. A run on a CPU rasterizer ranks how a
// CPU runs the shaders, which says nothing of a GPU; its conclusion shows beside its own answer
// what blurlab measured on GPUs, from these files.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>

#include "blur/kernel.h"

namespace blurlab::report {

// One timed blur of a results file, with what the conclusion ranks it by.
struct ResultsRow {
  std::string variant;
  glm::ivec2 size{0, 0};
  std::string input_format;  // "rgba8"
  bool linear = false;
  Kernel kernel;
  std::string border;      // "clamp" (rows written before border modes have none: clamp)
  std::string radius_map;  // a variable-radius row's map ("ramp"), else ""
  double median_ms = 0.0;
  double spread_ms = 0.0;  // p90 - p10
  // Time over the copy of the row's own run: a file joins several runs, whose milliseconds do not
  // compare (clocks, the machine's state) while their ratios do.
  double x_copy = 0.0;
  bool check_ok = true;
  bool approximation = false;
  std::optional<double> psnr_db;  // an approximation's against the exact kernel, where measured
  // What made it ("made_by"): the commit the program was built from and the digest of the
  // variant's code (util/code_digest.h); empty in rows written before blurlab recorded them.
  std::string commit;
  std::string code;
  std::vector<std::pair<std::string, std::string>> knobs;  // the knobs it ran with, as their text
  bool tuned = false;                                      // knobs from a --tuned file
};

struct ResultsFile {
  std::string name;      // "h200.json"
  std::string renderer;  // GL_RENDERER
  bool software = false;
  std::vector<ResultsRow> rows;  // the timed blurs of variants the registry has, in the file's order
};

// Why a results file's row does not answer for today's program, or nullopt where it does: it
// was made by other code of its variant than the program's (a code digest that differs, or none
// recorded), or with knobs other than the variant's defaults at its radius (a sweep of knobs, a
// tuned run). Such a row is no answer for what today's defaults of the variant do.
std::optional<std::string> older_than_code(const ResultsRow& row);

// The digest of each variant's code in the tree the program was built from (by name), and the
// commit it was built from (both made by the build: src/CMakeLists.txt).
std::vector<std::pair<std::string_view, std::string_view>> variant_code_digests();
std::string_view code_digest(std::string_view variant);
std::string_view build_commit();

// Reads one results file: the timed rows of blurs; the copy pass, refused settings and variants no
// longer in the registry are left out. Throws Error naming `name` when it is not a results file.
ResultsFile parse_results_file(std::string name, std::string_view json);

// docs/results/*.json as the program was built with them: name and text (made by
// src/embed_text.cmake), and parsed (once).
std::vector<std::pair<std::string_view, std::string_view>> embedded_results_texts();
const std::vector<ResultsFile>& embedded_results_files();

}  // namespace blurlab::report
