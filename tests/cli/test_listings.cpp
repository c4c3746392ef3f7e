// The listings as JSON (--list-variants --json, --list-refusals --json) against the registry, read
// here field by field, and the human listings they stand beside (grouped by family; a line a
// variant). The program prints them; the expected values come from the VariantInfo entries.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "blur/registry.h"
#include "cli/run_program.h"
#include "util/strings.h"

namespace blurlab::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// An empty folder of its own, removed afterwards.
struct Folder {
  fs::path dir = fs::temp_directory_path() / ("blurlab_listings_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  Folder() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Folder() { fs::remove_all(dir); }
  static inline int counter = 0;
};

json listed_document(const std::vector<std::string>& args, const fs::path& dir) {
  const ProgramResult r = run_program(BLURLAB_PROGRAM, args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);  // throws (and fails the test) on anything but one JSON document
}

// What the listing must say of a variant, from its VariantInfo.
std::string expected_stage(const VariantInfo& v) { return v.stage == Stage::Fragment ? "fragment" : "compute"; }
std::string expected_role(const VariantInfo& v) {
  switch (v.role) {
    case Role::Floor: return "floor";
    case Role::Baseline: return "baseline";
    case Role::Blur: return "blur";
    case Role::Approximation: return "approximation";
  }
  return "";
}
json expected_kernels(const VariantInfo& v) {
  switch (v.kernels) {
    case KernelSupport::BoxOnly: return json::array({"box"});
    case KernelSupport::GaussOnly: return json::array({"gauss"});
    case KernelSupport::BoxAndGauss: return json::array({"box", "gauss"});
  }
  return json::array();
}
json expected_tolerance(const VariantInfo& v) {
  if (v.role == Role::Approximation) return "model";  // its CPU model's, which depends on the settings
  if (v.tolerance_lsb == 0) return "exact";
  return v.tolerance_lsb;
}

TEST(JsonListings, VariantsAgreeWithTheRegistry) {
  Folder folder;
  const json doc = listed_document({"--list-variants", "--json", "-"}, folder.dir);
  EXPECT_EQ(doc.at("format"), "blurlab-variants");
  EXPECT_EQ(doc.at("version"), 1);
  ASSERT_EQ(doc.at("families").size(), families().size());
  for (size_t i = 0; i < families().size(); ++i) {
    EXPECT_EQ(doc.at("families")[i].at("name"), families()[i].name);
    EXPECT_EQ(doc.at("families")[i].at("description"), families()[i].description);
  }
  const json& listed = doc.at("variants");
  ASSERT_EQ(listed.size(), variants().size());
  for (size_t i = 0; i < variants().size(); ++i) {  // the registry's order: the window's keys follow it
    const VariantInfo& v = *variants()[i];
    const json& e = listed[i];
    SCOPED_TRACE(std::string(v.name));
    EXPECT_EQ(e.at("name"), v.name);
    EXPECT_EQ(e.at("family"), family_info(v.family).name);
    EXPECT_EQ(e.at("stage"), expected_stage(v));
    EXPECT_EQ(e.at("role"), expected_role(v));
    EXPECT_EQ(e.at("tolerance"), expected_tolerance(v));
    EXPECT_EQ(e.at("kernels"), expected_kernels(v));
    EXPECT_EQ(e.at("summary"), v.summary);
    ASSERT_EQ(e.at("knobs").size(), v.knobs.size());
    for (size_t k = 0; k < v.knobs.size(); ++k) {
      const Knob& knob = v.knobs[k];
      const json& listed_knob = e.at("knobs")[k];
      EXPECT_EQ(listed_knob.at("name"), knob.name);
      EXPECT_EQ(listed_knob.at("form"), knob.form());
      ASSERT_EQ(listed_knob.at("candidates").size(), knob.candidates.size()) << knob.name;
      for (size_t c = 0; c < knob.candidates.size(); ++c) EXPECT_EQ(listed_knob.at("candidates")[c], knob.text(knob.candidates[c]));
    }
  }
}

// --json FILE writes the same document to the file, and nothing to stdout.
TEST(JsonListings, ToAFileAsToStdout) {
  Folder folder;
  const json to_stdout = listed_document({"--list-variants", "--json", "-"}, folder.dir);
  const ProgramResult r = run_program(BLURLAB_PROGRAM, {"--list-variants", "--json", "variants.json"}, folder.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::ifstream file(folder.dir / "variants.json");
  ASSERT_TRUE(file) << "no variants.json";
  EXPECT_EQ(json::parse(file), to_stdout);
  const std::vector<std::string> refusals = {"--list-refusals", "--size", "8x8", "--kernel", "gauss", "--radius", "3"};
  std::vector<std::string> to_file = refusals, to_out = refusals;
  to_file.insert(to_file.end(), {"--json", "refusals.json"});
  to_out.insert(to_out.end(), {"--json", "-"});
  const ProgramResult f = run_program(BLURLAB_PROGRAM, to_file, folder.dir);
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(f.out, "");
  std::ifstream refusals_file(folder.dir / "refusals.json");
  ASSERT_TRUE(refusals_file) << "no refusals.json";
  EXPECT_EQ(json::parse(refusals_file), listed_document(to_out, folder.dir));
}

// The JSON says what the human listing says (a variant and its limit, or "-"), in its order, with
// the reason; and a refusal the registry declares: the box-only variants' of the Gaussian.
TEST(JsonListings, RefusalsMirrorTheHumanListing) {
  Folder folder;
  const std::vector<std::string> settings = {"--list-refusals", "--size", "8x8", "--kernel", "gauss", "--radius", "3"};
  const ProgramResult human = run_program(BLURLAB_PROGRAM, settings, folder.dir);
  ASSERT_EQ(human.exit_code, 0) << human.err;
  std::vector<std::string> as_json = settings;
  as_json.insert(as_json.end(), {"--json", "-"});
  const json doc = listed_document(as_json, folder.dir);
  EXPECT_EQ(doc.at("format"), "blurlab-refusals");
  EXPECT_EQ(doc.at("version"), 1);
  std::vector<std::string> lines = split(human.out, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  const json& refusals = doc.at("refusals");
  ASSERT_EQ(refusals.size(), lines.size()) << human.out;
  ASSERT_EQ(refusals.size(), variants().size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const json& r = refusals[i];
    const VariantInfo& v = *variants()[i];
    SCOPED_TRACE(lines[i]);
    EXPECT_EQ(r.at("variant"), v.name);
    const bool refused = !r.at("limit").is_null();
    EXPECT_EQ(lines[i], std::string(v.name) + " " + (refused ? r["limit"].get<std::string>() : "-"));
    EXPECT_EQ(r.at("reason").is_null(), !refused);
    if (refused) {
      EXPECT_FALSE(r["reason"].get<std::string>().empty());
    }
    if (v.kernels == KernelSupport::BoxOnly) {
      EXPECT_EQ(r["limit"], "kernel");
      EXPECT_NE(r["reason"].get<std::string>().find("box kernel only"), std::string::npos) << r["reason"];
    }
  }
}

// For people: a line per family (its name and what it is), then its variants' lines, indented, in
// the registry's order; every variant once, under its own family.
TEST(JsonListings, HumanListingGroupsByFamily) {
  Folder folder;
  const ProgramResult r = run_program(BLURLAB_PROGRAM, {"--list-variants"}, folder.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> expected;
  for (const FamilyInfo& f : families()) {
    expected.push_back(std::string(f.name) + ": " + std::string(f.description));
    for (const VariantInfo* v : variants())
      if (v->family == f.family) expected.push_back("  " + std::string(v->name));
  }
  std::vector<std::string> got;
  for (const std::string& line : split(r.out, '\n')) {
    if (line.empty()) continue;
    // A variant's line: its name, then its columns; a family's line as it is.
    got.push_back(line.rfind("  ", 0) == 0 ? line.substr(0, 2 + line.substr(2).find(' ')) : line);
  }
  EXPECT_EQ(got, expected) << r.out;
}

}  // namespace
}  // namespace blurlab::test
