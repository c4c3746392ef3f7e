#include <gtest/gtest.h>

#include <regex>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "blur/radius_map.h"
#include "blur/registry.h"
#include "fixtures/measurements.h"
#include "report/report.h"
#include "report/tuning.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::report {
namespace {

using test_fixtures::timed;

Report sample() {
  Report r;
  r.gl.renderer = "Test GPU";
  r.frames = 3;
  r.rows.push_back(timed("copy", 16, {0.5, 0.5, 0.5}));
  r.rows.push_back(timed("frag-naive", 16, {40.0, 41.0, 39.0}));
  r.rows.push_back(timed("frag-separable", 16, {2.0, 2.2, 1.8}));
  r.rows.push_back(timed("compute-separable", 16, {1.0, 1.0, 1.0}));
  Measurement refused = timed("compute-naive", 16, {});
  refused.unsupported = Refusal{Limit::SharedMemory, "needs \"more\" shared memory, 48 KiB", 49152, 32768};
  refused.spans_ms.clear();
  refused.check.reset();
  r.rows.push_back(refused);
  return r;
}

TEST(Report, Stats) {
  const Stats s = stats_of({5.0, 1.0, 3.0, 2.0, 4.0});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.spread, 4.6 - 1.4);  // p90 - p10, interpolated
  EXPECT_DOUBLE_EQ(stats_of({1.0, 2.0}).median, 1.5);
  EXPECT_EQ(stats_of({}).count, 0u);
}

// The middle value of an odd count of frames, found without sorting them (std::nth_element): the
// test's own computation of the median the report must state.
double middle_of(std::vector<double> frames) {
  const auto middle = frames.begin() + static_cast<std::ptrdiff_t>(frames.size() / 2);
  std::nth_element(frames.begin(), middle, frames.end());
  return *middle;
}

// Frames in the order a GPU gives them: distinct, unsorted, the first neither the median nor an
// extreme (sample()'s rows list their median first, where the first frame would pass for it). Every
// number made from a row's time (the total, x copy, speed-up, GB/s, the JSON and CSV columns) is
// the median's.
TEST(Report, TimesAreTheMedianOfTheFramesNotTheFirst) {
  const std::vector<double> copy_frames{0.45, 0.8, 0.5, 0.4, 0.55}, naive_frames{42.0, 39.0, 44.0, 40.0, 41.0},
      separable_frames{2.2, 1.7, 2.6, 1.9, 2.0};
  Report r;
  r.frames = 5;
  r.rows.push_back(timed("copy", 16, copy_frames));
  r.rows.push_back(timed("frag-naive", 16, naive_frames));
  r.rows.push_back(timed("frag-separable", 16, separable_frames));
  const double copy = middle_of(copy_frames), naive = middle_of(naive_frames), separable = middle_of(separable_frames);
  ASSERT_NE(separable, separable_frames.front());
  ASSERT_NE(copy, copy_frames.front());
  ASSERT_NE(naive, naive_frames.front());
  EXPECT_DOUBLE_EQ(*r.rows[2].total_median(), separable);
  const Derived d = r.derive(r.rows[2]);
  EXPECT_DOUBLE_EQ(*d.copy_ms, copy);
  EXPECT_DOUBLE_EQ(*d.x_copy, separable / copy);
  EXPECT_DOUBLE_EQ(*d.speedup, naive / separable);
  EXPECT_NEAR(*d.gbps, 4e6 / (separable * 1e-3) / 1e9, 1e-9);  // 1000x500 rgba8 read once, written once
  std::ostringstream json_text, csv_text;
  write_json(r, json_text);
  write_csv(r, csv_text);
  const auto row = nlohmann::json::parse(json_text.str())["results"][2];
  EXPECT_DOUBLE_EQ(row["spans"]["total"]["median_ms"].get<double>(), separable);
  EXPECT_DOUBLE_EQ(row["spans"]["total"]["min_ms"].get<double>(), 1.7);
  EXPECT_DOUBLE_EQ(row["spans"]["total"]["max_ms"].get<double>(), 2.6);
  EXPECT_DOUBLE_EQ(row["x_copy"].get<double>(), separable / copy);
  const std::vector<std::string> lines = split(csv_text.str(), '\n');
  const std::vector<std::string> header = split(lines[0], ',');
  const auto column = static_cast<size_t>(std::find(header.begin(), header.end(), "total_median_ms") - header.begin());
  ASSERT_LT(column, header.size()) << lines[0];
  EXPECT_DOUBLE_EQ(std::stod(split(lines[3], ',').at(column)), separable) << lines[3];
}

TEST(Report, DerivedNumbers) {
  const Report r = sample();
  const Derived separable = r.derive(r.rows[2]);
  EXPECT_DOUBLE_EQ(*separable.copy_ms, 0.5);
  EXPECT_DOUBLE_EQ(*separable.x_copy, 4.0);
  EXPECT_DOUBLE_EQ(*separable.speedup, 20.0);  // frag-naive 40 ms / 2 ms: same stage
  // 1000x500 rgba8 read once and written once = 4 MB in 2 ms.
  EXPECT_DOUBLE_EQ(*separable.gbps, 2.0);
  EXPECT_FALSE(r.derive(r.rows[3]).speedup) << "compute-naive (refused) gives no speed-up";
  EXPECT_FALSE(r.derive(r.rows[4]).x_copy) << "an unsupported row has no time";
  EXPECT_DOUBLE_EQ(minimum_traffic_bytes({10, 10}, gl::Format::rgba16f), 1600.0);
}

TEST(Report, CsvHasOneLinePerRowAndAStableHeader) {
  std::ostringstream out;
  write_csv(sample(), out);
  const std::vector<std::string> lines = split(out.str(), '\n');
  ASSERT_EQ(lines.size(), 7u);  // header, 5 rows, trailing empty
  const size_t columns = split(lines[0], ',').size();
  EXPECT_EQ(columns, 44u + all_knobs().size()) << "a column per knob name of the registry";
  EXPECT_NE(lines[0].find(",input_format,linear,intermediate,radius_map,"), std::string::npos);
  EXPECT_EQ(lines[0].substr(0, 33), "variant,stage,role,kernel,radius,");
  for (size_t i = 1; i < 5; ++i) EXPECT_EQ(split(lines[i], ',').size(), columns) << lines[i];
  EXPECT_NE(lines[3].find("frag-separable,fragment,blur,gauss,16,"), std::string::npos);
  EXPECT_NE(lines[2].find("frag-naive,fragment,baseline,"), std::string::npos);
  // RFC 4180: a field with a comma or a quote is quoted, its quotes doubled.
  EXPECT_NE(lines[5].find(",no,\"needs \"\"more\"\" shared memory, 48 KiB\","), std::string::npos) << lines[5];
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
}

TEST(Report, JsonCarriesGpuSettingsAndResults) {
  std::ostringstream out;
  write_json(sample(), out);
  const auto doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(doc["gl"]["renderer"], "Test GPU");
  ASSERT_EQ(doc["results"].size(), 5u);
  const auto& separable = doc["results"][2];
  EXPECT_EQ(separable["variant"], "frag-separable");
  EXPECT_EQ(separable["settings"]["radius"], 16);
  EXPECT_EQ(separable["settings"]["intermediate"], "rgba8");
  EXPECT_EQ(separable["role"], "blur");
  EXPECT_EQ(doc["results"][0]["role"], "floor");
  EXPECT_EQ(doc["results"][3]["settings"]["knobs"]["workgroup"], "16x16");
  EXPECT_DOUBLE_EQ(separable["spans"]["total"]["median_ms"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(separable["x_copy"].get<double>(), 4.0);
  EXPECT_EQ(separable["error"]["max"].size(), 4u);
  EXPECT_FALSE(separable["settings"]["linear"].get<bool>());
  EXPECT_EQ(doc["variants"].size(), variants().size()) << "every variant, so charts keep each one's colour";
  EXPECT_EQ(doc["variants"][0], variants()[0]->name);
  EXPECT_FALSE(doc["results"][4]["supported"].get<bool>());
  EXPECT_EQ(doc["results"][4]["reason"], "needs \"more\" shared memory, 48 KiB");
}

TEST(Report, TheRooflineSaysWhichBoundLimitsARow) {
  Report r = sample();
  EXPECT_FALSE(r.bound(r.rows[2])) << "no roofline measured";
  // 1000x500: 4 MB of minimum traffic at 2 GB/s = 2 ms; a Gaussian r = 16 needs 8 x 33 FMAs per
  // pixel = 132 M FMAs, at 1e11 FMA/s 1.32 ms.
  r.roofline = Roofline{{4096, 4096}, 2.0, "copy", 3.0, 1e11};
  const Bound separable = *r.bound(r.rows[2]);  // 2 ms measured
  EXPECT_EQ(separable.limit, "memory");
  EXPECT_DOUBLE_EQ(separable.ms, 2.0);
  EXPECT_DOUBLE_EQ(separable.fraction, 1.0);
  r.roofline->fma_per_s = 5e10;  // 2.64 ms of FMAs: arithmetic limits
  const Bound slow_fma = *r.bound(r.rows[3]);  // compute-separable, 1 ms measured
  EXPECT_EQ(slow_fma.limit, "arithmetic");
  EXPECT_NEAR(slow_fma.fraction, 2.64, 1e-9);
  EXPECT_FALSE(r.bound(r.rows[4])) << "an unsupported row has no bound";
  EXPECT_DOUBLE_EQ(minimal_fmas_per_pixel(make_kernel(KernelType::Box, 64, std::nullopt), true), 16.0);
  EXPECT_DOUBLE_EQ(minimal_fmas_per_pixel(make_kernel(KernelType::Gauss, 16, std::nullopt), false), 0.0);
  std::ostringstream json;
  write_json(r, json);
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_DOUBLE_EQ(doc["roofline"]["fma_tflops"].get<double>(), 0.1);
  EXPECT_EQ(doc["results"][3]["bound"]["limit"], "arithmetic");
}

TEST(Report, TableGroupsAndSaysWhyARowIsMissing) {
  std::ostringstream out, fit;
  write_table(sample(), out, Columns::All);
  write_table(sample(), fit);
  const std::string text = out.str();
  EXPECT_NE(text.find("== 1000x500 rgba8 copy pass (the floor)"), std::string::npos);
  EXPECT_NE(text.find("== 1000x500 rgba8 gauss r=16"), std::string::npos);
  EXPECT_NE(text.find("unsupported: needs \"more\" shared memory"), std::string::npos);
  EXPECT_NE(fit.str().find("n/a [1]"), std::string::npos);
  EXPECT_NE(fit.str().find("[1] needs \"more\" shared memory, 48 KiB"), std::string::npos) << fit.str();
  EXPECT_NE(text.find("workgroup=16x16"), std::string::npos) << "knobs by name";
  // Fastest first within the group.
  EXPECT_LT(text.find("compute-separable"), text.find("frag-separable"));
  EXPECT_LT(text.find("frag-separable"), text.find("frag-naive"));
}

// An approximation's row says what it chose and how close it came to the exact Gaussian; an exact
// variant's Gaussian row says it is exact rather than a measured fidelity.
TEST(Report, ApproximationsCarryTheirChoiceAndFidelity) {
  Report r = sample();
  Measurement approx = timed("kawase", 16, {0.8, 0.8, 0.8});
  approx.approximation = ApproxChoice{5.3, "5 passes, offsets 0,1,2,2,3"};
  approx.fidelity = Fidelity{5.3, 12.5, 1.25, 46.2};
  r.rows.push_back(approx);
  std::ostringstream json, csv, table, wide;
  write_json(r, json);
  write_csv(r, csv);
  write_table(r, table);
  write_table(r, wide, Columns::All);
  const auto doc = nlohmann::json::parse(json.str());
  const auto& k = doc["results"][5];
  EXPECT_EQ(k["role"], "approximation");
  EXPECT_EQ(k["kernels"], "gauss");
  EXPECT_DOUBLE_EQ(k["settings"]["approximation"]["sigma"].get<double>(), 5.3);
  EXPECT_EQ(k["settings"]["approximation"]["parameters"], "5 passes, offsets 0,1,2,2,3");
  EXPECT_DOUBLE_EQ(k["fidelity"]["rms_lsb"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(k["fidelity"]["max_lsb"].get<double>(), 12.5);
  EXPECT_TRUE(doc["results"][3]["fidelity"]["exact"].get<bool>()) << "compute-separable blurs the exact Gaussian";
  EXPECT_FALSE(doc["results"][0].contains("fidelity")) << "the copy pass does not blur";
  const std::vector<std::string> lines = split(csv.str(), '\n');
  EXPECT_NE(lines[6].find(",5.3,\"5 passes, offsets 0,1,2,2,3\",12.5,1.25,46.2"), std::string::npos) << lines[6];
  EXPECT_NE(lines[4].find(",exact,exact,"), std::string::npos) << lines[4];
  // The narrow table: the sigma and the PSNR; --wide: the choice and max and RMS too.
  const std::string text = table.str(), all = wide.str();
  EXPECT_NE(text.find("~sigma 5.3"), std::string::npos) << text;
  EXPECT_NE(text.find("46.2 dB"), std::string::npos) << text;
  EXPECT_EQ(text.find("rms 1.25"), std::string::npos) << text;
  EXPECT_NE(all.find("~sigma=5.3 5 passes, offsets 0,1,2,2,3"), std::string::npos) << all;
  EXPECT_NE(all.find("max 12.5 rms 1.25 46.2 dB"), std::string::npos) << all;
  // Its bound is its memory traffic: an approximation's arithmetic is its own choice.
  r.roofline = Roofline{{4096, 4096}, 2.0, "copy", 3.0, 1e9};
  EXPECT_EQ(r.bound(r.rows[5])->limit, "memory");
  EXPECT_EQ(r.bound(r.rows[3])->limit, "arithmetic");
}

// A variable-radius row names its map in the CSV as in the JSON; other rows leave it empty.
TEST(Report, CsvNamesTheRadiusMap) {
  Report r = sample();
  Measurement banded = timed("variable-naive", 16, {2.0, 2.0, 2.0});
  banded.settings.radius_map = builtin_radius_map("band");
  r.rows.push_back(banded);
  r.rows.push_back(timed("variable-naive", 16, {2.0, 2.0, 2.0}));  // no map: every pixel at R
  std::ostringstream csv, json;
  write_csv(r, csv);
  write_json(r, json);
  const std::vector<std::string> lines = split(csv.str(), '\n');
  const std::vector<std::string> header = split(lines[0], ',');
  const size_t column = static_cast<size_t>(std::find(header.begin(), header.end(), "radius_map") - header.begin());
  ASSERT_LT(column, header.size());
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(split(lines[6], ',')[column], "band") << lines[6];
  EXPECT_EQ(doc["results"][5]["settings"]["radius_map"], "band");
  EXPECT_EQ(split(lines[7], ',')[column], "none (uniform r = R)") << lines[7];
  EXPECT_EQ(split(lines[4], ',')[column], "") << "frag-separable has no map: " << lines[4];
}

TEST(Report, BorderModesAreGroupsWithTheirCostAgainstClamp) {
  Report r = sample();
  Measurement wrap = timed("compute-separable", 16, {1.5, 1.5, 1.5});
  wrap.settings.border = {BorderMode::Wrap};
  Measurement constant = timed("frag-separable", 16, {2.5, 2.5, 2.5});
  constant.settings.border = {BorderMode::Constant, {0.5f, 0.0f, 0.0f, 1.0f}};
  Measurement other_knobs = wrap;  // no clamp twin: another workgroup
  other_knobs.settings.knobs["workgroup"] = {8, 8};
  r.rows.insert(r.rows.end(), {wrap, constant, other_knobs});
  EXPECT_DOUBLE_EQ(*r.derive(r.rows[5]).x_clamp, 1.5);  // compute-separable: 1.5 ms with wrap / 1 ms with clamp
  EXPECT_DOUBLE_EQ(*r.derive(r.rows[6]).x_clamp, 1.25);
  EXPECT_FALSE(r.derive(r.rows[7]).x_clamp) << "the same settings but the border, or nothing";
  EXPECT_FALSE(r.derive(r.rows[3]).x_clamp) << "clamp itself";
  EXPECT_FALSE(r.derive(r.rows[6]).speedup) << "frag-naive ran clamp only: no baseline with this border";

  std::ostringstream table;
  write_table(r, table);
  const std::string text = table.str();
  EXPECT_NE(text.find("== 1000x500 rgba8 gauss r=16 sigma=5.333, border clamp"), std::string::npos) << text;
  EXPECT_NE(text.find("== 1000x500 rgba8 gauss r=16 sigma=5.333, border wrap"), std::string::npos);
  EXPECT_NE(text.find("== 1000x500 rgba8 gauss r=16 sigma=5.333, border constant(0.5,0,0,1)"), std::string::npos);
  EXPECT_NE(text.find("x clamp"), std::string::npos);
  EXPECT_NE(text.find(" 1.25 "), std::string::npos);
  std::ostringstream plain;
  write_table(sample(), plain);
  EXPECT_EQ(plain.str().find("x clamp"), std::string::npos) << "no column without other modes";

  std::ostringstream csv;
  write_csv(r, csv);
  const std::vector<std::string> lines = split(csv.str(), '\n');
  EXPECT_EQ(lines[0].substr(0, 71), "variant,stage,role,kernel,radius,sigma,border,border_value,input_format");
  EXPECT_NE(lines[7].find(",constant,\"0.5,0,0,1\",rgba8,"), std::string::npos) << lines[7];
  EXPECT_NE(lines[6].find(",wrap,,rgba8,"), std::string::npos) << lines[6];
  EXPECT_NE(lines[1].find("copy,compute,floor,none,,,,,rgba8,"), std::string::npos) << "the copy pass has no border: " << lines[1];

  std::ostringstream json;
  write_json(r, json);
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["results"][5]["settings"]["border"], "wrap");
  EXPECT_DOUBLE_EQ(doc["results"][5]["x_clamp"].get<double>(), 1.5);
  EXPECT_EQ(doc["results"][6]["settings"]["border_value"], nlohmann::json({0.5, 0.0, 0.0, 1.0}));
  EXPECT_FALSE(doc["results"][0]["settings"].contains("border")) << "the copy pass";
  EXPECT_FALSE(doc["results"][2]["settings"].contains("border_value")) << "clamp has no value";
}

// The widest rows a default sweep makes: the longest variant name with knobs away from their
// defaults, an unsupported row with a long reason, a failed check.
Report wide_sample() {
  Report r = sample();
  Measurement regblock = timed("compute-inline-regblock", 16, {12.0, 12.5, 11.0});
  regblock.settings.knobs["block-x"] = {8, 0};
  regblock.tuned = true;
  r.rows.push_back(regblock);
  Measurement persistent = timed("compute-inline-persistent", 16, {123.456, 130.0, 120.0});
  persistent.check->ok = false;
  persistent.check->max_error = {3, 2, 1, 0};
  persistent.check->worst_fraction = 3.0;
  persistent.check->worst_x = 7;
  persistent.check->worst_y = 5;
  persistent.check->worst_gpu = 131;
  persistent.check->worst_reference = 128;
  persistent.check->worst_allowed = 1;
  r.rows.push_back(persistent);
  Measurement refused = timed("compute-naive-lds", 16, {});
  refused.unsupported = Refusal{Limit::SharedMemory,
                                "the (8+2r)^2 tile of 8x8 workgroups needs 43264 bytes of shared memory at fp32, more than the 32768 the "
                                "device has; fp16 halves it, a smaller workgroup or radius shrinks it, and the long reason wraps",
                                43264, 32768};
  refused.spans_ms.clear();
  r.rows.push_back(refused);
  // An approximation with its choice and fidelity (the fidelity column), and the roofline.
  Measurement blocks = timed("recursive-gaussian-blocks", 16, {998.6, 1500.0, 400.0});
  blocks.approximation = ApproxChoice{5.33333, "poles 0.7821, 0.7803+-0.1941i and a long parameter list"};
  blocks.fidelity = Fidelity{5.33333, 1.6, 0.29, 58.8};
  r.rows.push_back(blocks);
  r.roofline = Roofline{{1024, 1024}, 12.5, "workgroup 16x16", 10.0, 1e10};
  return r;
}

size_t longest_line(const std::string& text) {
  size_t longest = 0;
  for (const std::string& line : split(text, '\n')) longest = std::max(longest, line.size());
  return longest;
}

TEST(Report, TableFitsTheTerminalUnlessWide) {
  std::ostringstream fit, all;
  write_table(wide_sample(), fit);
  write_table(wide_sample(), all, Columns::All);
  EXPECT_LE(longest_line(fit.str()), kTableWidth) << fit.str();
  EXPECT_GT(longest_line(all.str()), kTableWidth);
  // Unsupported rows point to their reason below the table, once per reason, wrapped.
  EXPECT_NE(fit.str().find("n/a [1]"), std::string::npos);
  EXPECT_NE(fit.str().find("n/a [2]"), std::string::npos);
  EXPECT_NE(fit.str().find("[2] the (8+2r)^2 tile"), std::string::npos);
  EXPECT_NE(fit.str().find("FAIL 3 LSB\n"), std::string::npos) << fit.str();
  // GB/s in significant digits: 4 MB in 123.456 ms (--wide's: the bounds take its place here).
  EXPECT_NE(all.str().find(" 0.0324 "), std::string::npos) << all.str();
  EXPECT_NE(all.str().find("FAIL 3x at "), std::string::npos) << "--wide has the tolerance's multiple";
  // An approximation: its sigma and PSNR; its choice and max and RMS error are --wide's.
  EXPECT_NE(fit.str().find("~sigma 5.33 "), std::string::npos) << fit.str();
  EXPECT_NE(fit.str().find(" 58.8 dB "), std::string::npos) << fit.str();
  EXPECT_EQ(fit.str().find("poles"), std::string::npos);
  EXPECT_EQ(fit.str().find("rms 0.29"), std::string::npos);
  EXPECT_NE(all.str().find("~sigma=5.333 poles 0.7821"), std::string::npos);
  EXPECT_NE(all.str().find("max 1.6 rms 0.29 58.8 dB"), std::string::npos);
  // Knobs at their defaults are left to --wide; a changed one and "tuned" stay.
  EXPECT_NE(fit.str().find("block-x=8 (tuned)"), std::string::npos) << fit.str();
  EXPECT_EQ(fit.str().find("workgroup=16x16"), std::string::npos);
  EXPECT_NE(all.str().find("workgroup=16x16"), std::string::npos);
  auto header = [](const std::string& table) {
    for (const std::string& line : split(table, '\n'))
      if (line.rfind("variant ", 0) == 0) return line;
    return std::string();
  };
  const std::string fit_header = header(fit.str()), all_header = header(all.str());
  for (const char* column : {"family", "stage", "passes (median ms)", "cpu ms", "max error", "vs naive"}) {
    EXPECT_EQ(fit_header.find(column), std::string::npos) << column;
    EXPECT_NE(all_header.find(column), std::string::npos) << column;
  }
  // The wide table names each row's family (blur/family.h) beside its stage.
  for (const char* row : {"compute-inline-regblock register-blocked compute", "recursive-gaussian-blocks recursive compute"}) {
    const std::string words = std::regex_replace(all.str(), std::regex(" +"), " ");
    EXPECT_NE(words.find(row), std::string::npos) << row << "\n" << all.str();
    EXPECT_EQ(fit.str().find(" register-blocked "), std::string::npos);
  }
}

// A CPU rasterizer's slowest row: 4 MB in 100 s is 0.00004 GB/s, which at three significant digits
// would widen its column past the others' ("0.0000400"): a bound in as many characters as a
// number has. And an exact box blur's fidelity is "exact", as an exact Gaussian's.
TEST(Report, TinyGbpsKeepsItsColumnAndExactBoxesAreExact) {
  Report r = sample();
  r.rows[1].spans_ms["total"] = {100000.0, 100000.0, 100000.0};
  r.rows[3].settings.kernel = make_kernel(KernelType::Box, 16, std::nullopt);
  Measurement approx = timed("dual-kawase", 16, {0.4, 0.4, 0.4});  // a fidelity column to be in
  approx.approximation = ApproxChoice{5.3, "made up"};
  approx.fidelity = Fidelity{5.3, 12.5, 1.25, 46.2};
  r.rows.push_back(approx);
  std::ostringstream table, json, csv;
  write_table(r, table);
  write_json(r, json);
  write_csv(r, csv);
  const std::string t = table.str();
  EXPECT_NE(t.find(" <0.01 "), std::string::npos) << t;
  EXPECT_EQ(t.find("0.0000"), std::string::npos) << t;
  std::string gauss_line, box_line;
  for (const std::string& line : split(t, '\n')) {
    if (line.rfind("frag-separable ", 0) == 0) gauss_line = line;
    if (line.rfind("compute-separable ", 0) == 0) box_line = line;
  }
  ASSERT_FALSE(box_line.empty()) << t;
  EXPECT_NE(box_line.find(" exact "), std::string::npos) << "the box row's fidelity: " << box_line;
  EXPECT_NE(gauss_line.find(" exact "), std::string::npos) << gauss_line;
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  EXPECT_TRUE(doc["results"][3]["fidelity"]["exact"].get<bool>()) << "compute-separable blurs the exact box";
  // The columns after GB/s start where their headings do: the GB/s cell pushed none of them.
  std::string header;
  for (const std::string& line : split(t, '\n'))
    if (line.rfind("variant ", 0) == 0) header = line;
  const size_t fidelity = header.find("fidelity");
  ASSERT_NE(fidelity, std::string::npos) << t;
  for (const std::string& row : split(t, '\n'))
    for (const char* variant : {"frag-naive ", "frag-separable ", "compute-separable "})
      if (row.rfind(variant, 0) == 0) {
        EXPECT_EQ(row.substr(fidelity, 5), "exact") << row << "\n" << header;
      }
}

// With the roofline the narrow table shows both bounds (the problem's and the variant's own) in
// place of the speed-up and GB/s, and approximations their sigma and PSNR: still 120 columns
// with the longest names, a changed knob, an intermediate format and a failed check.
TEST(Report, TableWithBoundsAndApproximationsFits) {
  Report r = wide_sample();
  r.roofline = Roofline{{4096, 4096}, 20.0, "copy", 30.0, 1e12, 5e10};
  Measurement approx = timed("recursive-gaussian-blocks", 16, {1.23, 1.24, 1.22});
  approx.settings.knobs["workgroup"] = {256, 1};
  approx.settings.intermediate = gl::Format::rgba16f;
  approx.approximation = ApproxChoice{10.1234, "poles 0.8542, 0.7123+-0.2345i"};
  approx.fidelity = Fidelity{10.1234, 123.4, 12.34, 26.3};
  approx.check->ok = false;
  approx.check->max_error = {13, 2, 1, 0};
  approx.check->worst_fraction = 13.0;
  r.rows.push_back(approx);
  std::ostringstream fit, all;
  write_table(r, fit);
  write_table(r, all, Columns::All);
  EXPECT_LE(longest_line(fit.str()), kTableWidth) << fit.str();
  auto header = [](const std::string& table) { return table.substr(table.find("\nvariant "), table.find("\n---") - table.find("\nvariant ")); };
  for (const char* column : {"bound", "own", "fidelity"}) EXPECT_NE(header(fit.str()).find(column), std::string::npos) << column;
  for (const char* column : {"vs naive", "GB/s"}) {
    EXPECT_EQ(header(fit.str()).find(column), std::string::npos) << column;
    EXPECT_NE(header(all.str()).find(column), std::string::npos) << column;
  }
  EXPECT_NE(fit.str().find(" 26.3 dB "), std::string::npos) << fit.str();
  // The settings wrap onto a line of their own rather than widen the table.
  EXPECT_NE(fit.str().find("\n                           workgroup=256x1\n"), std::string::npos) << fit.str();
}

TEST(Report, MarkdownPageHasEverythingAndOnlyTheChartsItHas) {
  Report r = wide_sample();
  r.command = "blurlab --headless --report out";
  r.gl.vendor = "Test vendor";
  r.gl.version = "4.6 test";
  r.date = "2024-01-01T00:00:00+0000";
  std::ostringstream with, without;
  write_markdown(r, {.charts = {"time_vs_radius_1000x500_rgba8_gauss.png"}, .charts_note = "", .files = {"report.json"}}, with);
  write_markdown(r, {.charts = {}, .charts_note = "The charts could not be made here: no matplotlib.", .files = {}}, without);
  const std::string page = with.str();
  for (const char* part : {"# blurlab report", "```sh\nblurlab --headless --report out\n```", "| renderer | Test GPU |",
                           "| vendor | Test vendor |", "## Settings", "## Correctness", "**1 of 7 runs exceed their tolerance:**",
                           "worst at 7,5 R: GPU 131, reference 128, allowed 1 LSB (3x)",
                           "compute-inline-persistent", "## Results", "### 1000x500 rgba8 gauss r=16",
                           "| variant | family | stage | settings | total ms |", "![time_vs_radius_1000x500_rgba8_gauss.png](time_vs_radius_1000x500_rgba8_gauss.png)",
                           "- [report.json](report.json)", "needs \"more\" shared memory, 48 KiB"})
    EXPECT_NE(page.find(part), std::string::npos) << part << "\n" << page;
  EXPECT_EQ(without.str().find("!["), std::string::npos) << "no picture it does not have";
  EXPECT_NE(without.str().find("The charts could not be made here: no matplotlib."), std::string::npos);
}

TEST(Report, MarkdownRefusalsWithPipesStayWhole) {
  Report r = sample();
  r.rows[4].unsupported = Refusal{Limit::Knobs, "a | b"};
  std::ostringstream out;
  write_markdown(r, {}, out);
  EXPECT_EQ(out.str().find("unsupported: a"), std::string::npos) << "refused rows are listed once, not in the tables";
  // The pipe escaped as everywhere Markdown text is (it renders as "a | b").
  EXPECT_NE(out.str().find("- compute-naive: a \\| b (1000x500 gauss r=16 sigma=5.333)"), std::string::npos) << out.str();
}

// A variant refused in every group is listed once, not once per group, and its rows are left out
// of the result tables.
TEST(Report, MarkdownListsRefusedSettingsOncePerVariant) {
  Report r = sample();
  for (int radius : {4, 8}) {
    Measurement other = r.rows[4];
    other.settings.kernel = make_kernel(KernelType::Gauss, radius, std::nullopt);
    r.rows.push_back(other);
    r.rows.push_back(timed("compute-separable", radius, {1.0}));
  }
  std::ostringstream out;
  write_markdown(r, {}, out);
  const std::string page = out.str();
  size_t mentions = 0;
  for (size_t at = page.find("compute-naive"); at != std::string::npos; at = page.find("compute-naive", at + 1)) ++mentions;
  EXPECT_EQ(mentions, 1u) << page;
  EXPECT_NE(page.find("- compute-naive: needs \"more\" shared memory, 48 KiB (1000x500 gauss r=16 sigma=5.333, 1000x500 gauss r=4 "
                      "sigma=1.333, 1000x500 gauss r=8 sigma=2.667)"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("### 1000x500 rgba8 gauss r=4"), std::string::npos);
}

TEST(Strings, NearNames) {
  const std::vector<std::string_view> names{"compute-separable", "compute-separable-lds", "frag-separable", "kawase", "dual-kawase"};
  EXPECT_EQ(near_names("compute-seperable", names), std::vector<std::string>{"compute-separable"});  // one edit
  EXPECT_EQ(near_names("kawsae", names), std::vector<std::string>{"kawase"});                     // two edits
  EXPECT_EQ(near_names("kawase-dual", names), std::vector<std::string>{});  // too far, and not a part of a name
  EXPECT_EQ(near_names("separable", names),
            (std::vector<std::string>{"frag-separable", "compute-separable", "compute-separable-lds"}));  // parts, shortest first
  EXPECT_EQ(near_names("separable", names, 1), std::vector<std::string>{"frag-separable"});
  EXPECT_EQ(near_names("fast", names), std::vector<std::string>{});
  EXPECT_EQ(near_names("ka", names), std::vector<std::string>{}) << "two letters are part of too much";
}

TEST(Strings, Wrapped) {
  EXPECT_EQ(wrapped("one two three four", 9, "  "), "one two\n  three\n  four");
  EXPECT_EQ(wrapped("a verylongword b", 4), "a\nverylongword\nb");
  EXPECT_EQ(wrapped("", 10), "");
}

TEST(Tuning, SaveLoadAndNearestRadius) {
  TuningTable table;
  TunedEntry e;
  e.renderer = "GPU";
  e.variant = "compute-separable";
  e.size = {64, 32};
  e.radius = 4;
  e.knobs["workgroup"] = {256, 1};
  e.median_ms = 1.0;
  e.default_ms = 2.0;
  table.put(e);
  e.radius = 32;
  e.knobs["workgroup"] = {8, 8};
  table.put(e);
  e.knobs["workgroup"] = {16, 16};
  table.put(e);  // replaces the r=32 entry
  EXPECT_EQ(table.entries().size(), 2u);
  const auto path = std::filesystem::temp_directory_path() / ("blurlab_tune_" + std::to_string(::getpid()) + ".json");
  table.save(path);
  const TuningTable back = TuningTable::load(path);
  auto workgroup = [&](int radius) {
    return back.find("GPU", "compute-separable", {64, 32}, gl::Format::rgba8, KernelType::Gauss, radius)->knobs.at("workgroup");
  };
  EXPECT_EQ(workgroup(6), (KnobValue{256, 1}));
  EXPECT_EQ(workgroup(30), (KnobValue{16, 16}));
  EXPECT_FALSE(back.find("Other GPU", "compute-separable", {64, 32}, gl::Format::rgba8, KernelType::Gauss, 4));
  EXPECT_FALSE(back.find("GPU", "compute-separable", {64, 33}, gl::Format::rgba8, KernelType::Gauss, 4));
  std::filesystem::remove(path);
  EXPECT_THROW(TuningTable::load(path), Error);
}

TEST(Tuning, MergeKeepsTheEntriesOfOtherRuns) {
  const auto dir = std::filesystem::temp_directory_path() / ("blurlab_merge_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  TunedEntry e;
  e.renderer = "GPU";
  e.variant = "compute-separable";
  e.radius = 4;
  e.knobs["workgroup"] = {256, 1};
  TuningTable first, second;
  e.size = {64, 32};
  first.put(e);
  e.size = {128, 64};
  second.put(e);
  first.merge_into(dir / "t.json");
  second.merge_into(dir / "t.json");  // another run's, saved later: the first run's entry stays
  e.knobs["workgroup"] = {8, 8};
  TuningTable again;
  again.put(e);
  again.merge_into(dir / "t.json");  // the same key: replaced
  const TuningTable merged = TuningTable::load(dir / "t.json");
  ASSERT_EQ(merged.entries().size(), 2u);
  EXPECT_EQ(merged.find("GPU", "compute-separable", {64, 32}, gl::Format::rgba8, KernelType::Gauss, 4)->knobs.at("workgroup"), (KnobValue{256, 1}));
  EXPECT_EQ(merged.find("GPU", "compute-separable", {128, 64}, gl::Format::rgba8, KernelType::Gauss, 4)->knobs.at("workgroup"), (KnobValue{8, 8}));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "no lock file or temporary beside it";
  // A file that is not a tuning file is not merged into, or replaced.
  std::ofstream(dir / "other.json") << "not json";
  EXPECT_THROW(first.merge_into(dir / "other.json"), Error);
  EXPECT_THROW(TuningTable::check_target(dir / "other.json"), Error);
  std::filesystem::remove_all(dir);
}

// Every value of a tuning file is checked as the command line checks it; the message names the
// file and the entry.
std::string tuning_error(const std::string& entry) {
  const std::string text = R"({"entries": [)" + entry + "]}";
  try {
    TuningTable::parse(text, "--tuned 't.json'");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Tuning, EveryValueIsValidatedLikeTheCommandLine) {
  const std::string good =
      R"({"renderer": "GPU", "variant": "compute-sliding", "width": 64, "height": 32, "input_format": "rgba8", "kernel": "box",
          "radius": 16, "knobs": {"segment": "64", "workgroup": "32x1", "unroll": "8"}, "median_ms": 1.5, "default_ms": 2.0})";
  const TuningTable table = TuningTable::parse(R"({"entries": [)" + good + "]}", "--tuned 't.json'");
  ASSERT_EQ(table.entries().size(), 1u);
  EXPECT_EQ(table.entries()[0].knobs.at("workgroup"), (KnobValue{32, 1}));
  auto with = [&](const std::string& from, const std::string& to) {
    std::string entry = good;
    const auto at = entry.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return entry.replace(at, from.size(), to);
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {with(R"("segment": "64")", R"("segment": "0")"), "knob segment '0' is out of range 1..16384"},  // was SIGFPE
      {with(R"("segment": "64")", R"("segment": "99999999")"), "out of range"},
      {with(R"("workgroup": "32x1")", R"("workgroup": "0x0")"), "positive sides"},
      {with(R"("workgroup": "32x1")", R"("workgroup": "4096x4096")"), "larger than 1024"},
      {with(R"("unroll": "8")", R"("unroll": "-3")"), "out of range 1..32"},
      {with(R"("unroll": "8")", R"("unroll": 8)"), "not a string"},
      {with(R"("unroll": "8")", R"("cache": "fp16")"), "compute-sliding has no knob 'cache'"},
      {with(R"("compute-sliding")", R"("turbo")"), "unknown variant 'turbo'"},
      {with(R"("width": 64)", R"("width": 0)"), "\"width\" 0 is out of range 1..65536"},
      {with(R"("height": 32)", R"("height": 1e9)"), "\"height\" 1000000000.0 is not a whole number"},
      // Quoted as read: 2^64 - 1 was reported as -1.
      {with(R"("width": 64)", R"("width": 18446744073709551615)"), "\"width\" 18446744073709551615 is out of range 1..65536"},
      {with(R"("width": 64)", R"("width": -1)"), "\"width\" -1 is out of range 1..65536"},
      {with(R"("width": 64)", R"("width": "64")"), "\"width\" \"64\" is not a whole number"},
      {with(R"("radius": 16)", R"("radius": 513)"), "\"radius\" 513 is out of range 0..512"},
      {with(R"("rgba8")", R"("rgba32f")"), "input_format 'rgba32f'"},
      {with(R"("box")", R"("median")"), "kernel 'median'"},
      // Found by fuzz_tuning in CI (corpus/tuning/newline_in_kernel.json): a JSON "\n" in a quoted value.
      {with(R"("box")", R"("n\n")"), "kernel 'n\\n' is not box or gauss"},
      {with(R"("compute-sliding")", R"("a\u001b[2Jb")"), "unknown variant 'a\\e[2Jb'"},
      {with(R"("median_ms": 1.5)", R"("median_ms": -1)"), "\"median_ms\" -1 is not a time in ms"},
      // A NUL in a string cut the message short (what() of a std::runtime_error is a C string).
      {with(R"("box")", R"("b\u0000x")"), "kernel 'b\\x00x' is not box or gauss"},
      {with(R"("unroll": "8")", R"("unroll": "\u00008")"), "knob unroll '\\x008' is not a whole number"},
      {with(R"("renderer": "GPU", )", ""), "no \"renderer\""},
      {"7", "no \"renderer\""},
  };
  for (const auto& [entry, message] : cases) {
    const std::string error = tuning_error(entry);
    EXPECT_NE(error.find("--tuned 't.json', entry 0: "), std::string::npos) << error;
    EXPECT_NE(error.find(message), std::string::npos) << "expected '" << message << "' in: " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << "one line";
  }
  for (const char* not_tuning : {"", "[]", "{}", "{\"entries\": 3}", "this is not json"}) {
    try {
      TuningTable::parse(not_tuning, "--tuned 't.json'");
      ADD_FAILURE() << "accepted: " << not_tuning;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--tuned 't.json' is not a blurlab tuning file"), std::string::npos) << e.what();
    }
  }
}

// A tuning file is untrusted: its depth and its length must not decide how deep the program recurses
// or how a message is cut.
TEST(Tuning, NestingAndLengthOfAFileStayBounded) {
  // 100000 nested arrays where a string goes: quoting the value recursed once per level (SIGSEGV).
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const std::string& entry : {R"({"renderer": )" + deep + "}", R"({"renderer": {"a": )" + deep + "}}"}) {
    const std::string error = tuning_error(entry);
    EXPECT_NE(error.find("entry 0: \"renderer\" "), std::string::npos) << error.substr(0, 200);
    EXPECT_NE(error.find(" is not a string"), std::string::npos) << error.substr(0, 200);
    EXPECT_LT(error.size(), 200u) << "a value is quoted shortly";
  }
  // A long value is quoted shortly, never cut inside a character: 'é' is two bytes.
  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "\xc3\xa9";
  const std::string error = tuning_error(R"({"renderer": "GPU", "variant": "compute-sliding", "width": ")" + accents + "\"}");
  const size_t start = error.find("\"width\" \""), end = error.find("... is not a whole number");
  ASSERT_TRUE(start != std::string::npos && end != std::string::npos && end > start) << error;
  EXPECT_EQ((end - start - 9) % 2, 0u) << "cut inside a character: " << error;  // after `"width" "`: whole é
  // A parse error is said in whole words: it was cut at 120 bytes, mid-word ("...; l)").
  for (const std::string& text : {std::string(R"({"entries": [ {"renderer": "x", "variant": tru }]})"),
                                  R"({"entries": [ {"renderer": ")" + std::string(5000, 'x')}) {
    try {
      TuningTable::parse(text, "--tuned 't.json'");
      ADD_FAILURE() << "accepted: " << text.substr(0, 80);
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("--tuned 't.json' is not a blurlab tuning file (not JSON: ", 0), 0u) << message;
      EXPECT_EQ(message.find("json.exception"), std::string::npos) << "the library's own prefix: " << message;
      EXPECT_EQ(message.back(), ')') << message;
      EXPECT_LT(message.size(), 260u) << message;
      if (text.size() < 100) {
        EXPECT_NE(message.find("invalid literal; last read: '\"variant\": tru '"), std::string::npos) << message;
      } else {
        EXPECT_NE(message.find("xxx..."), std::string::npos) << message;
      }
    }
  }
}

}  // namespace
}  // namespace blurlab::report
