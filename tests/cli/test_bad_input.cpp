// Bad input against the real program: every case must end with exit code 2 (usage) or 1 (run
// time), exactly one line on stderr that starts with "blurlab: ", no crash, and no file written.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>
#include <csignal>
#include <functional>
#include <thread>

#include "blur/registry.h"
#include "fixtures/image_bytes.h"
#include "fixtures/immutable.h"
#include "fixtures/processes.h"
#include "image/image_file.h"
#include "image/memory_budget.h"
#include "report/tuning.h"
#include "run_program.h"

#include <nlohmann/json.hpp>

namespace blurlab::test {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::vector<std::string> args;
  int exit_code;
  std::string message;  // a part of the stderr line
  std::map<std::string, std::string> env = {};
  bool devices = false;  // uses the sandbox's "null" and "full" (Sandbox::make_devices)
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// A directory per test with the files the cases refer to.
class Sandbox {
 public:
  Sandbox() {
    dir_ = fs::temp_directory_path() / ("blurlab_bad_input_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "adir");
    fs::create_directories(dir_ / "adir.png");  // an output name with a good extension
    fs::create_directories(dir_ / "empty_glsl");
    save_image(Image(37, 23), dir_ / "in.png");
    ::mkfifo((dir_ / "fifo").c_str(), 0600);  // not a regular file: files_below() does not list it
    std::ofstream(dir_ / "garbage.json") << "this is not json";
    // Tuning files whose knob values the command line would refuse (they once crashed with
    // SIGFPE, hung with gigabytes, or blurred into the poison colour).
    for (const auto& [name, knobs] : {std::pair{"segment_zero", R"("segment": "0", "unroll": "4")"},
                                      std::pair{"workgroup_huge", R"("workgroup": "100000x1")"},
                                      std::pair{"workgroup_zero", R"("workgroup": "0x0")"},
                                      std::pair{"unknown_knob", R"("turbo": "1")"}})
      std::ofstream(dir_ / ("tuned_" + std::string(name) + ".json"))
          << R"({"entries": [{"renderer": "any", "variant": "compute-sliding", "width": 37, "height": 23, "input_format": "rgba8",)"
          << R"( "kernel": "box", "radius": 2, "knobs": {)" << knobs << R"(}, "median_ms": 1, "default_ms": 1}]})";
    // Values the file holds that a message must quote as they are (2^64 - 1 was shown as -1, and a
    // NUL cut the message short).
    for (const auto& [name, fields] : {std::pair{"width_max", R"("width": 18446744073709551615, "height": 23, "kernel": "box")"},
                                       std::pair{"nul_kernel", R"("width": 37, "height": 23, "kernel": "b\u0000x")"}})
      std::ofstream(dir_ / ("tuned_" + std::string(name) + ".json"))
          << R"({"entries": [{"renderer": "any", "variant": "compute-sliding", )" << fields
          << R"(, "input_format": "rgba8", "radius": 2, "knobs": {}, "median_ms": 1, "default_ms": 1}]})";
    // Radius maps: a grey 8-bit PNG, the same cut short, and one named like a built-in map.
    const std::string map = png_file(5, 3, 8, 0, {std::string("\x00\x40\x80\xc0\xff", 5), std::string(5, '\x20'), std::string(5, '\xff')});
    std::ofstream(dir_ / "map.png", std::ios::binary) << map;
    std::ofstream(dir_ / "map_cut.png", std::ios::binary) << map.substr(0, map.size() - 20);
    std::ofstream(dir_ / "circle", std::ios::binary) << map;
    // A map whose header says 16384x16384 in under 100 bytes: one row of zeros, the rest missing. It
    // was decoded into 4 GiB of floats before its missing rows refused it.
    std::ofstream(dir_ / "map_huge_header.png", std::ios::binary) << png_file(16384, 16384, 8, 0, {std::string(16384, '\0')});
    // Kernel images (bloom's psf image:FILE): all zero, grey with alpha, 1-bit, wider than a 32x24
    // frame's padding holds at 1:1, empty, 0x0, a JPEG, cut short; a good 3x3 one for the scales.
    std::ofstream(dir_ / "psf_zero.png", std::ios::binary) << png_file(3, 3, 8, 0, {std::string(3, '\0'), std::string(3, '\0'), std::string(3, '\0')});
    std::ofstream(dir_ / "psf_grey_alpha.png", std::ios::binary) << png_file(1, 1, 8, 4, {std::string("\xff\xff", 2)});
    std::ofstream(dir_ / "psf_1bit.png", std::ios::binary) << png_file(1, 1, 1, 0, {std::string("\x80", 1)});
    std::ofstream(dir_ / "psf_wide.png", std::ios::binary) << png_file(101, 1, 8, 0, {std::string(101, '\x80')});
    std::ofstream(dir_ / "psf_empty.png", std::ios::binary) << "";
    std::ofstream(dir_ / "psf_0x0.png", std::ios::binary) << png_file(0, 0, 8, 0, {});
    std::ofstream(dir_ / "psf.jpg", std::ios::binary) << jpeg_file(3, 3, 1, [](int x, int y, int) { return static_cast<uint8_t>(x == 1 && y == 1 ? 255 : 40); });
    const std::string psf = png_file(3, 3, 8, 0, {std::string("\x10\x40\x10", 3), std::string("\x40\xff\x40", 3), std::string("\x10\x40\x10", 3)});
    std::ofstream(dir_ / "psf.png", std::ios::binary) << psf;
    std::ofstream(dir_ / "psf_cut.png", std::ios::binary) << psf.substr(0, psf.size() - 20);
    // Tuning files that are not JSON, or nest deeper than any tuning file (a quoting recursed per level).
    std::ofstream(dir_ / "tuned_not_json.json") << R"({"entries": [ {"renderer": "x", "variant": tru }]})";
    std::ofstream(dir_ / "tuned_deep.json") << R"({"entries": [{"renderer": )" << std::string(100000, '[') << std::string(100000, ']') << "}]}";
    std::ofstream(dir_ / "read_only.csv") << "kept";
    fs::permissions(dir_ / "read_only.csv", fs::perms(0444));
    fs::create_symlink("in.png", dir_ / "in_alias.png");
    fs::create_hard_link(dir_ / "in.png", dir_ / "in_hard.png");
    fs::copy(BLURLAB_GLSL_DIR, dir_ / "broken_glsl");
    std::ofstream(dir_ / "broken_glsl" / "copy.comp") << "#version 430 core\nlayout(local_size_x = WG_X) in;\nvoid main() {\n  nonsense;\n}\n";
    // Compiles, runs, and blurs wrongly: a --check that fails.
    fs::copy(BLURLAB_GLSL_DIR, dir_ / "wrong_glsl");
    std::ofstream(dir_ / "wrong_glsl" / "copy.comp")
        << "#version 430 core\nlayout(local_size_x = WG_X, local_size_y = WG_Y) in;\n"
           "layout(DST_FORMAT, binding = BINDING_TARGET) uniform restrict writeonly image2D u_dst;\n"
           "void main() { imageStore(u_dst, ivec2(gl_GlobalInvocationID.xy), vec4(0.25)); }\n";
  }
  ~Sandbox() { fs::remove_all(dir_); }
  const fs::path& dir() const { return dir_; }

  // "null" and "full" (and .png names) in the sandbox: copies of /dev/null and /dev/full made with mknod, or, where
  // that is not permitted, links to the real ones, but only when /dev cannot be written (then
  // nothing can replace them). Never the real nodes where a bug could replace them: as root, an
  // old blurlab renamed a regular file over /dev/null.
  bool make_devices() {
    // "null.png" and "full.png" too: images are written by the extension's format.
    for (const auto& [name, minor] :
         {std::pair{"null", 3u}, std::pair{"full", 7u}, std::pair{"null.png", 3u}, std::pair{"full.png", 7u}}) {
      if (::mknod((dir_ / name).c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) continue;
      if (::access("/dev", W_OK) == 0) return false;
      fs::create_symlink(fs::path("/dev") / fs::path(name).stem(), dir_ / name);
    }
    return true;
  }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
};

void expect_clean_failure(const Case& c, const fs::path& dir, const std::vector<std::string>& files_before) {
  const ProgramResult r = run_program(BLURLAB_PROGRAM, c.args, dir, c.env);
  ASSERT_FALSE(r.crashed) << (r.timed_out ? "hung" : "killed by signal " + std::to_string(r.signal)) << "\n" << r.err;
  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  ASSERT_FALSE(r.err.empty()) << "nothing on stderr";
  EXPECT_EQ(r.err.rfind("blurlab: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not exactly one line:\n" << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << "a run-time failure with a reason: " << r.err;
  EXPECT_EQ(files_below(dir), files_before) << "a file appeared or vanished";
}

class BadArguments : public ::testing::TestWithParam<Case> {};

TEST_P(BadArguments, OneLineAndNoFile) {
  Sandbox sandbox;
  if (GetParam().devices && !sandbox.make_devices()) GTEST_SKIP() << "cannot make device nodes, and /dev is writable";
  expect_clean_failure(GetParam(), sandbox.dir(), files_below(sandbox.dir()));
  if (GetParam().devices) {
    for (const char* device : {"null", "full", "null.png", "full.png"})
      EXPECT_FALSE(fs::is_regular_file(sandbox.dir() / device)) << "the device " << device << " was replaced";
  }
}

// The copy pass on in.png, no frames, and `more`.
const std::vector<std::string> kCopyRun = {"--headless", "--variant", "copy", "--image", "in.png", "--frames", "0"};

std::vector<std::string> copy_run(std::initializer_list<std::string> more) {
  std::vector<std::string> args = kCopyRun;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<Case> bad_arguments() {
  const std::string out = "out.png";
  std::vector<Case> cases = {
      {"unknown_option", {"--frobnicate"}, 2, "--frobnicate"},
      {"unknown_short_option", {"-x"}, 2, "-x"},
      {"stray_argument", {"stray"}, 2, "stray"},
      {"radius_missing", {"--radius"}, 2, "radius"},
      {"radius_empty", {"--radius="}, 2, "--radius"},
      {"radius_word", {"--radius", "abc"}, 2, "not a whole number"},
      {"radius_fraction", {"--radius", "1.5"}, 2, "not a whole number"},
      {"radius_negative", {"--radius", "-1"}, 2, "out of range"},
      {"radius_too_big", {"--radius", "513"}, 2, "out of range 0..512"},
      // A number too large for its type is out of range, not "not a number" (it said so).
      {"radius_overflow", {"--radius", "99999999999999999999"}, 2, "--radius '99999999999999999999' is out of range 0..512"},
      {"radius_overflow_in_range", {"--radius", "1:99999999999999999999"}, 2, "--radius '99999999999999999999' is out of range 0..512"},
      {"radius_empty_item", {"--radius", "1,,2"}, 2, "empty list item"},
      {"radius_backwards_range", {"--radius", "5:1"}, 2, "ends before it starts"},
      {"radius_zero_step", {"--radius", "1:8:0"}, 2, "step"},
      {"radius_factor_one", {"--radius", "1:8:x1"}, 2, "step"},
      {"radius_geometric_from_zero", {"--radius", "0:8:x2"}, 2, "start above 0"},
      {"radius_four_parts", {"--radius", "1:2:3:4"}, 2, "range"},
      {"radius_range_too_far", {"--radius", "0:600"}, 2, "out of range"},
      {"sigma_zero", {"--sigma", "0"}, 2, "out of range"},
      {"sigma_negative", {"--sigma", "-1"}, 2, "--sigma"},
      {"sigma_nan", {"--sigma", "nan"}, 2, "not a number"},
      {"sigma_inf", {"--sigma", "inf"}, 2, "not a number"},
      {"sigma_overflow", {"--sigma", "1e400"}, 2, "--sigma '1e400' is out of range (0, 1000]"},
      {"sigma_underflow", {"--sigma", "1e-400"}, 2, "--sigma '1e-400' is out of range (0, 1000]"},
      {"sigma_hex", {"--sigma", "0x10"}, 2, "not a number"},
      {"sigma_needs_large_radius", {"--sigma", "171"}, 2, "give --radius"},
      {"sigma_with_box", {"--sigma", "2", "--kernel", "box"}, 2, "gauss kernel only"},
      {"kernel_unknown", {"--kernel", "median"}, 2, "not box or gauss"},
      {"kernel_empty", {"--kernel", ""}, 2, "--kernel"},
      {"kernel_trailing_comma", {"--kernel", "box,"}, 2, "empty list item"},
      {"format_unknown", {"--format", "rgb8"}, 2, "--format 'rgb8'"},
      {"format_wide", {"--format", "rgba64f"}, 2, "--format"},
      {"input_format_32f", {"--input-format", "rgba32f"}, 2, "rgba8, rgba16f"},
      {"input_format_bgra", {"--input-format", "bgra8"}, 2, "--input-format"},
      {"size_zero", {"--size", "0x0"}, 2, "positive"},
      {"size_zero_width", {"--size", "0x10"}, 2, "positive"},
      {"size_zero_height", {"--size", "10x0"}, 2, "positive"},
      {"size_negative", {"--size", "-5x5"}, 2, "--size"},
      {"size_single_number", {"--size", "640"}, 2, "not WxH"},
      {"size_just_x", {"--size", "x"}, 2, "not WxH"},
      {"size_three_parts", {"--size", "10x10x10"}, 2, "not WxH"},
      {"size_huge", {"--size", "100000x10"}, 2, "larger than 65536"},
      {"size_words", {"--size", "abcxdef"}, 2, "not WxH"},
      {"size_exponent", {"--size", "1e3x5"}, 2, "not WxH"},
      {"size_overflow", {"--size", "99999999999999999999x5"}, 2, "--size '99999999999999999999x5' is larger than 65536 on a side"},
      {"size_beyond_gl_limit", {"--headless", "--variant", "copy", "--size", "20000x16", "--frames", "1"}, 2, "GL_MAX_TEXTURE_SIZE"},
      {"workgroup_zero", {"--variant", "compute-naive", "--workgroup", "0x8"}, 2, "positive"},
      {"workgroup_negative", {"--variant", "compute-naive", "--workgroup", "-8"}, 2, "--workgroup"},
      {"workgroup_huge", {"--variant", "compute-naive", "--workgroup", "4096x1"}, 2, "larger than"},
      {"workgroup_for_fragment", {"--variant", "frag-naive", "--workgroup", "8x8"}, 2, "has no knob 'workgroup'"},
      {"workgroup_beyond_device",
       {"--headless", "--variant", "compute-naive", "--workgroup", "64x64", "--output", out, "--frames", "0"}, 2, "cannot run"},
      {"unroll_zero", {"--unroll", "0"}, 2, "out of range"},
      {"unroll_too_big", {"--unroll", "33"}, 2, "out of range"},
      {"unroll_not_a_knob", {"--variant", "compute-naive", "--unroll", "4"}, 2, "has no knob 'unroll'"},
      {"unroll_not_regblocks_any_more", {"--variant", "compute-inline-regblock", "--unroll", "4"}, 2, "has no knob 'unroll'"},
      {"block_x_zero", {"--block-x", "0"}, 2, "--block-x '0' is out of range 1..64"},
      {"block_y_word", {"--block-y", "eight"}, 2, "not a whole number"},
      {"block_y_overflow", {"--block-y", "99999999999999999999"}, 2, "--block-y '99999999999999999999' is out of range 1..64"},
      {"workgroup_overflow", {"--variant", "compute-naive", "--workgroup", "99999999999999999999x8"}, 2,
       "--workgroup '99999999999999999999x8' is larger than 1024 on a side"},
      {"segment_zero", {"--segment", "0"}, 2, "out of range"},
      {"segment_not_a_knob", {"--variant", "frag-separable", "--segment", "64"}, 2, "has no knob 'segment'"},
      {"cache_unknown", {"--cache", "fp8"}, 2, "--cache 'fp8' is not fp32|fp16"},
      {"cache_not_a_knob", {"--variant", "compute-separable", "--cache", "fp16"}, 2, "has no knob 'cache'"},
      {"intermediate_not_a_knob", {"--variant", "frag-naive", "--format", "rgba16f"}, 2, "no intermediate"},
      {"border_unknown", {"--border", "mirror"}, 2, "--border 'mirror' is not clamp, reflect, reflect101, wrap or constant"},
      {"border_empty_item", {"--border", "wrap,"}, 2, "empty list item"},
      {"border_value_without_constant", {"--border", "wrap", "--border-value", "1,0,0,1"}, 2, "applies to --border constant only"},
      {"border_value_three_numbers", {"--border", "constant", "--border-value", "1,0,0"}, 2, "is not R,G,B,A"},
      {"border_value_nan", {"--border", "constant", "--border-value", "nan,0,0,1"}, 2, "--border-value 'nan,0,0,1'"},
      {"border_value_negative", {"--border", "constant", "--border-value", "0,-1,0,1"}, 2, "outside 0..65504"},
      {"border_value_overflow", {"--border", "constant", "--border-value", "0,1e400,0,1"}, 2, "has 1e400, outside 0..65504"},
      {"border_export_two_modes", {"--headless", "--variant", "compute-separable", "--border", "wrap,clamp", "--export", out}, 2,
       "--export needs exactly one variant and one setting"},
      // An effect's chain to ship is one implementation with one setting of everything.
      {"export_effect_two_implementations", {"--headless", "--effect", "bloom", "--variant", "fft,mip-chain", "--export", out}, 2,
       "--export with --effect needs exactly one implementation (--variant), one --size, one --border and one value of each knob"},
      {"border_value_above_rgba8",
       {"--headless", "--variant", "compute-separable", "--size", "37x23", "--border", "constant", "--border-value", "2,0,0,1",
        "--output", out, "--frames", "0"},
       2, "an rgba8 texel holds 0..1, not 2"},
      {"warmup_negative", {"--warmup", "-1"}, 2, "out of range"},
      {"warmup_word", {"--warmup", "x"}, 2, "not a whole number"},
      {"warmup_list", {"--warmup", "1,2"}, 2, "one number"},
      {"warmup_plus_minus", {"--warmup", "+-0"}, 2, "not a whole number"},  // found by fuzz_lists
      {"frames_negative", {"--frames", "-2"}, 2, "out of range"},
      {"frames_too_many", {"--frames", "100001"}, 2, "out of range"},
      {"frames_fraction", {"--frames", "1.5"}, 2, "not a whole number"},
      // A range where one number goes: 1:3 was taken as 1.
      {"frames_range", {"--frames", "1:3"}, 2, "--frames takes one number, not '1:3'"},
      {"warmup_range", {"--warmup", "0:2:x2"}, 2, "--warmup takes one number, not '0:2:x2'"},
      {"time_negative", {"--time", "-1"}, 2, "--time"},
      {"time_word", {"--time", "yesterday"}, 2, "--time"},
      {"time_huge", {"--time", "1e9"}, 2, "--time"},
      {"budget_negative", {"--budget", "-3"}, 2, "--budget"},
      {"budget_word", {"--budget", "x"}, 2, "--budget"},
      {"device_unknown", {"--device", "tpu"}, 2, "auto, gpu or software"},
      {"variant_unknown", {"--variant", "nope"}, 2, "unknown variant 'nope'"},
      {"variant_empty", {"--variant", ""}, 2, "--variant"},
      {"variant_one_unknown_in_list", {"--variant", "frag-naive,nope"}, 2, "unknown variant 'nope'"},
      {"variant_all_in_list", {"--variant", "all,copy"}, 2, "unknown variant 'all'"},
      {"output_without_variant", {"--output", out}, 2, "exactly one variant"},
      {"output_with_radius_list", {"--output", out, "--variant", "frag-naive", "--radius", "1,2"}, 2, "exactly one"},
      {"output_with_two_variants", {"--output", out, "--variant", "frag-naive,compute-naive"}, 2, "exactly one"},
      {"output_with_two_sizes", {"--output", out, "--variant", "copy", "--size", "8x8,9x9"}, 2, "exactly one"},
      {"output_missing", {"--output"}, 2, "--output"},
      {"output_empty", {"--output", ""}, 2, "needs a file name"},
      // Output formats come from the extension; an unknown one is refused before any GL work.
      {"output_unknown_extension", {"--headless", "--variant", "copy", "--image", "in.png", "--output", "out.bmp"}, 2,
       "--output 'out.bmp': unknown extension '.bmp' (blurlab writes .png, .jpg and .jpeg)"},
      {"output_no_extension", {"--headless", "--variant", "copy", "--image", "in.png", "--output", "out"}, 2, "no extension"},
      {"screenshot_unknown_extension", {"--screenshot", "s.tga", "--frames", "2"}, 2, "--screenshot 's.tga': unknown extension"},
      {"image_empty", {"--image", ""}, 2, "needs a file name"},
      {"image_with_size", {"--image", "in.png", "--size", "10x10"}, 2, "--size does not apply"},
      {"print_kernel_two_radii", {"--print-kernel", "--radius", "1,2"}, 2, "single kernel"},
      {"print_kernel_two_kernels", {"--print-kernel", "--kernel", "box,gauss"}, 2, "single kernel"},
      {"screenshot_headless", {"--headless", "--screenshot", "s.png", "--frames", "2"}, 2, "--screenshot applies to the window"},
      {"screenshot_without_frames", {"--screenshot", "s.png"}, 2, "needs --frames"},
      {"script_headless", {"--headless", "--script", "1:key=G"}, 2, "--script applies to the window"},
      {"script_unknown_key", {"--script", "3:key=Q"}, 2, "unknown key 'Q' (keys: 1-9, Shift+1-9, Left, Right, +, -,"},
      {"linear_with_rgba8", {"--linear", "--input-format", "rgba8"}, 2, "--linear blurs in rgba16f"},
      {"report_empty", {"--report", ""}, 2, "--report needs a file name"},
      {"report_with_tune", {"--headless", "--tune", "--report", "r"}, 2, "--tune writes a tuning file"},
      {"script_malformed", {"--script", "three:key=G"}, 2, "frame number"},
      {"tune_with_check", {"--headless", "--tune", "--check"}, 2, "--tune"},
      {"tune_without_frames", {"--headless", "--tune", "--frames", "0"}, 2, "timed frames"},
      {"tune_with_tuned", {"--headless", "--tune", "--tuned", "t.json"}, 2, "do not go together"},
      {"csv_missing", {"--csv"}, 2, "--csv"},
      {"json_empty", {"--json", ""}, 2, "needs a file name"},
      {"shader_dir_missing", {"--headless", "--shader-dir", "nowhere"}, 2, "not a directory"},
      // Run-time failures: exit code 1.
      {"image_missing", {"--headless", "--variant", "copy", "--image", "missing.png", "--output", out}, 1,
       "cannot read --image 'missing.png'"},
      // Not regular files: each once hung the program or filled its memory before any check.
      {"image_fifo", {"--headless", "--variant", "copy", "--image", "fifo", "--output", out}, 1, "'fifo': it is a FIFO"},
      {"image_dev_zero", {"--headless", "--variant", "copy", "--image", "/dev/zero", "--output", out}, 1, "character device"},
      {"image_proc_self_mem", {"--headless", "--variant", "copy", "--image", "/proc/self/mem", "--output", out}, 1,
       "cannot read --image '/proc/self/mem': Input/output error"},
      {"image_proc_status", {"--headless", "--variant", "copy", "--image", "/proc/self/status", "--output", out}, 1,
       "not a PNG or JPEG file"},
      // A size the run would not have the memory for: 258 kernels keep 258 double references.
      {"size_beyond_memory",
       {"--headless", "--variant", "frag-naive", "--size", "16384x16384", "--kernel", "box,gauss", "--radius", "0:128", "--frames", "0"},
       2, "--size 16384x16384 needs about"},
      {"image_is_directory", {"--headless", "--variant", "copy", "--image", "adir", "--output", out}, 1, "is a directory"},
      {"output_in_missing_directory", {"--headless", "--variant", "copy", "--image", "in.png", "--output", "no/such/out.png"}, 1,
       "cannot write into"},
      {"output_is_directory", {"--headless", "--variant", "copy", "--image", "in.png", "--output", "adir.png"}, 1, "is a directory"},
      {"csv_in_missing_directory", {"--headless", "--variant", "copy", "--frames", "1", "--csv", "no/x.csv"}, 1, "cannot write into"},
      {"json_is_directory", {"--headless", "--variant", "copy", "--frames", "1", "--json", "adir"}, 1, "is a directory"},
      {"report_is_a_file", {"--headless", "--variant", "copy", "--frames", "1", "--report", "in.png"}, 1, "--report 'in.png': it is a regular file, not a directory"},
      {"report_chart_seconds_not_a_number", {"--headless", "--variant", "copy", "--frames", "1", "--report", "r"}, 1,
       "BLURLAB_CHART_SECONDS 'soon' is not a number of seconds in (0, 86400]", {{"BLURLAB_CHART_SECONDS", "soon"}, {"MESA_GL_VERSION_OVERRIDE", "4.2"}}},
      {"report_in_missing_directory", {"--headless", "--variant", "copy", "--frames", "1", "--report", "no/such/dir"}, 1,
       "cannot create it in 'no/such'"},
      {"tuned_missing", {"--headless", "--variant", "copy", "--tuned", "missing.json"}, 1, "cannot read --tuned 'missing.json': No such file or directory"},
      {"tuned_garbage", {"--headless", "--variant", "copy", "--tuned", "garbage.json"}, 1, "--tuned 'garbage.json' is not a blurlab tuning file"},
      {"tuned_segment_zero", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_segment_zero.json"}, 1,
       "--tuned 'tuned_segment_zero.json', entry 0: knob segment '0' is out of range 1..16384"},
      {"tuned_workgroup_huge", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_workgroup_huge.json"}, 1,
       "knob workgroup '100000x1' is larger than 1024"},
      {"tuned_workgroup_zero", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_workgroup_zero.json"}, 1,
       "knob workgroup '0x0' must have positive sides"},
      {"tuned_unknown_knob", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_unknown_knob.json"}, 1,
       "compute-sliding has no knob 'turbo'"},
      {"tuned_not_a_file", {"--headless", "--variant", "copy", "--tuned", "adir"}, 1, "cannot read --tuned 'adir': it is a directory"},
      {"tuned_width_2_to_64", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_width_max.json"}, 1,
       "--tuned 'tuned_width_max.json', entry 0: \"width\" 18446744073709551615 is out of range 1..65536"},
      {"tuned_nul_in_kernel", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_nul_kernel.json"}, 1,
       "--tuned 'tuned_nul_kernel.json', entry 0: kernel 'b\\x00x' is not box or gauss"},
      // Two outputs that name one file: refused before any work (CSV text once ended up in x.png).
      {"output_and_csv_one_file", copy_run({"--output", "x.png", "--csv", "x.png"}), 2,
       "--csv 'x.png' is the same file as --output 'x.png': each output needs a file of its own"},
      {"outputs_one_file_through_a_link", copy_run({"--csv", "in.png", "--json", "in_alias.png"}), 2,
       "--json 'in_alias.png' is the same file as --csv 'in.png'"},
      {"outputs_one_file_as_hard_links", copy_run({"--output", "in_hard.png", "--json", "./in.png"}), 2,
       "--json './in.png' is the same file as --output 'in_hard.png'"},
      {"report_and_export_one_folder", copy_run({"--report", "r", "--export", "r/"}), 2, "--export 'r/' is the same file as --report 'r'"},
      {"csv_inside_the_report", copy_run({"--report", "adir", "--csv", "adir/report.csv"}), 2,
       "--report 'adir/report.csv' is the same file as --csv 'adir/report.csv'"},
      // Outputs that would write over what the run reads: replaced with exit 0, before any work now.
      {"output_over_the_image", copy_run({"--output", "in.png"}), 2,
       "--output 'in.png' is the same file as --image 'in.png': an output never replaces a file the run reads"},
      {"output_over_the_image_by_a_hard_link", copy_run({"--output", "in_hard.png"}), 2, "--output 'in_hard.png' is the same file as --image 'in.png'"},
      {"csv_over_the_image_through_a_link", copy_run({"--csv", "in_alias.png"}), 2, "--csv 'in_alias.png' is the same file as --image 'in.png'"},
      {"csv_over_the_tuning_file", {"--headless", "--variant", "copy", "--size", "8x8", "--frames", "1", "--tuned", "tuned_unknown_knob.json", "--csv",
                                    "tuned_unknown_knob.json"}, 2,
       "--csv 'tuned_unknown_knob.json' is the same file as --tuned 'tuned_unknown_knob.json'"},
      {"output_over_the_radius_map",
       {"--headless", "--variant", "variable-sat", "--kernel", "box", "--radius", "2", "--radius-map", "map.png", "--image", "in.png", "--frames",
        "0", "--output", "map.png"},
       2, "--output 'map.png' is the same file as --radius-map 'map.png'"},
      {"csv_among_the_shaders", copy_run({"--shader-dir", "broken_glsl", "--csv", "broken_glsl/copy.comp"}), 2,
       "--csv 'broken_glsl/copy.comp' is the same file as --shader-dir file 'broken_glsl/copy.comp'"},
      {"json_inside_the_shader_dir", copy_run({"--shader-dir", "broken_glsl", "--json", "broken_glsl/new.json"}), 2,
       "--json 'broken_glsl/new.json' is inside --shader-dir 'broken_glsl': an output never goes among the files the run reads"},
      {"csv_inside_a_new_report_folder", copy_run({"--report", "page", "--csv", "page/extra.csv"}), 1, "cannot write into 'page'"},
      {"csv_inside_a_report_folder", copy_run({"--report", "adir", "--csv", "adir/extra.csv"}), 2,
       "--csv 'adir/extra.csv' is inside --report 'adir': an output folder holds its own output alone"},
      // As root (access() allows anything) a read-only file was replaced.
      {"csv_read_only", copy_run({"--csv", "read_only.csv"}), 1, "--csv 'read_only.csv': it is read-only (mode 0444)"},
      {"tune_with_csv", {"--headless", "--tune", "--csv", "r.csv"}, 2, "--tune writes its choices to --tune-file; --csv and --json are for timing runs"},
      // --check with nothing checked: every variant refused the workgroup (it exited 0).
      {"check_that_checks_nothing",
       {"--headless", "--check", "--variant", "compute-naive,compute-naive-lds", "--workgroup", "64x64", "--size", "37x23"}, 1,
       "--check: nothing was checked: every run was refused (2; the first, compute-naive"},
      // Timed, the same run exited 0: the copy pass the sweep adds as its floor was checked.
      {"check_that_checks_nothing_timed",
       {"--headless", "--check", "--variant", "compute-naive,compute-naive-lds", "--workgroup", "64x64", "--size", "37x23", "--frames",
        "1", "--warmup", "0"},
       1, "--check: nothing was checked: every run was refused (2; the first, compute-naive"},
      {"one_variant_that_runs_nothing_timed",
       {"--headless", "--check", "--variant", "compute-naive", "--workgroup", "64x64", "--size", "37x23", "--frames", "1", "--warmup", "0"}, 2,
       "compute-naive cannot run gauss r=16"},
      // A radius map no selected variant reads was ignored without a word.
      {"radius_map_without_a_variable_variant", {"--headless", "--variant", "compute-separable", "--radius-map", "band", "--size", "37x23"}, 2,
       "--radius-map: compute-separable blurs by one radius everywhere (a radius map is for the variable-* variants)"},
      {"tuned_not_json", {"--headless", "--variant", "copy", "--tuned", "tuned_not_json.json"}, 1,
       "--tuned 'tuned_not_json.json' is not a blurlab tuning file (not JSON: parse error at line 1, column 47: syntax error while "
       "parsing value - invalid literal; last read: '\"variant\": tru ')"},
      // Nested 100000 deep where a string goes: SIGSEGV, no message.
      {"tuned_nested_deep", {"--headless", "--variant", "copy", "--tuned", "tuned_deep.json"}, 1,
       "--tuned 'tuned_deep.json', entry 0: \"renderer\" an array of 1 item is not a string"},
      {"shader_broken", {"--headless", "--variant", "copy", "--shader-dir", "broken_glsl", "--image", "in.png", "--output", out}, 1,
       "copy.comp:4"},
      {"shader_missing", {"--headless", "--variant", "copy", "--shader-dir", "empty_glsl", "--image", "in.png", "--output", out}, 1,
       "cannot read --shader-dir file 'empty_glsl/copy.comp': No such file or directory"},
      {"no_gl43_headless", {"--headless", "--variant", "copy", "--frames", "1"}, 1, "OpenGL 4.3 core is not available",
       {{"MESA_GL_VERSION_OVERRIDE", "4.2"}}},
      {"window_options_without_display", {"--script", "1:key=G", "--frames", "2"}, 1, "no display"},
      // Special files as targets: written through and their errors reported, never replaced.
      {"csv_to_dev_full", {"--headless", "--variant", "copy", "--frames", "1", "--size", "8x8", "--csv", "full"}, 1,
       "cannot write --csv 'full': No space left on device", {}, true},
      {"json_to_dev_full", {"--headless", "--variant", "copy", "--frames", "1", "--size", "8x8", "--json", "full"}, 1,
       "No space left on device", {}, true},
      {"output_to_dev_full", {"--headless", "--variant", "copy", "--image", "in.png", "--frames", "0", "--output", "full.png"}, 1,
       "cannot write --output 'full.png': No space left on device", {}, true},
      // Outputs of a failed run: none is written.
      {"output_not_written_when_csv_fails",
       {"--headless", "--variant", "copy", "--image", "in.png", "--frames", "0", "--output", out, "--csv", "full"}, 1,
       "cannot write --csv 'full': No space left on device", {}, true},
      {"outputs_not_written_when_check_fails",
       {"--headless", "--variant", "copy", "--check", "--image", "in.png", "--shader-dir", "wrong_glsl", "--output", out, "--csv",
        "r.csv", "--json", "r.json"},
       1, "1 of 1 runs exceed their tolerance (see the check column); no files written"},
      {"reports_not_written_when_sweep_check_fails",
       {"--headless", "--variant", "copy", "--check", "--size", "9x7,5x3", "--shader-dir", "wrong_glsl", "--csv", "r.csv"}, 1,
       "no files written"},
      // Messages: one line whatever a value holds; no "internal error" for a reason.
      {"newline_in_value", {"--radius", "1\n2"}, 2, "--radius '1\\n2' is not a whole number"},
      {"newline_in_file_name", {"--headless", "--variant", "copy", "--frames", "1", "--csv", "no\nsuch/x.csv"}, 1,
       "cannot write into 'no\\nsuch'"},
      {"escape_in_value", {"--variant", "\x1b[2Jnope"}, 2, "unknown variant '\\e[2Jnope'"},
      {"failure_without_headless_is_one_line", {"--variant", "copy", "--frames", "1", "--size", "8x8", "--csv", "no/x.csv"}, 1,
       "cannot write into 'no'"},
      // Names and sizes: a name too long is refused before any GL work (here: none available).
      {"output_name_too_long", {"--headless", "--variant", "copy", "--image", "in.png", "--output", std::string(252, 'n') + ".png"}, 1,
       "the file name is 256 bytes long", {{"MESA_GL_VERSION_OVERRIDE", "4.2"}}},
  };
  // 4096 sigmas x 129 radii: refused at once, with the number (it once ran for minutes).
  std::string sigmas;
  for (int i = 1; i <= 4096; ++i) sigmas += (i > 1 ? "," : "") + std::to_string(i * 0.01);
  cases.push_back({"sweep_of_4096_sigmas_by_129_radii", {"--headless", "--variant", "frag-naive", "--radius", "0:128", "--sigma", sigmas},
                   2, "the sweep has 528384 configurations, more than 100000 in one run"});
  // --radius-map: a name that is no built-in and no file, an empty one, a colour PNG (in.png).
  const std::vector<std::string> variable_run = {"--headless", "--variant", "variable-sat", "--kernel", "box",
                                                 "--image", "in.png", "--output", out, "--frames", "0"};
  for (const auto& [name, map, code, message] :
       {std::tuple{"radius_map_unknown", "bands", 1, "cannot read --radius-map 'bands': no such file, nor a built-in map (ramp, band, circle)"},
        std::tuple{"radius_map_empty", "", 2, "--radius-map '' is neither a file nor one of ramp, band, circle"},
        std::tuple{"radius_map_colour", "in.png", 1, "a radius map is a grey PNG of 8 or 16 bits (this one: "},
        // A damaged map said "cannot load the image": which one?
        std::tuple{"radius_map_damaged", "map_cut.png", 1, "cannot load --radius-map 'map_cut.png': "},
        // Refused by its header, with the numbers, before 4 GiB were allocated for it.
        std::tuple{"radius_map_header_beyond_its_bytes", "map_huge_header.png", 1,
                   "cannot load --radius-map 'map_huge_header.png': 96 bytes cannot hold the 16384x16384 pixels its header gives"},
        // A file named like a built-in map was shadowed by the built-in, without a word.
        std::tuple{"radius_map_file_named_like_a_builtin", "circle", 2,
                   "--radius-map 'circle' names both a built-in map and a file: write ./circle for the file"}}) {
    Case c{name, variable_run, code, message};
    c.args.insert(c.args.end(), {"--radius-map", map});
    cases.push_back(c);
  }
  // bloom's kernel image (--psf image:FILE[@P%]), refused by its options before any GL work.
  const std::vector<std::string> fft2d_run = {"--headless", "--effect", "bloom", "--variant", "fft-2d", "--border", "constant",
                                              "--size", "32x24", "--frames", "0", "--check", "--json", "out.json"};
  for (const auto& [name, value, code, message, devices] :
       {std::tuple{"psf_image_missing", "image:nothing.png", 1, "cannot read --psf image 'nothing.png': No such file", false},
        std::tuple{"psf_image_no_name", "image:", 2, "image: needs a file name", false},
        std::tuple{"psf_image_empty", "image:psf_empty.png", 1, "cannot load --psf image 'psf_empty.png': the file is empty", false},
        std::tuple{"psf_image_cut_short", "image:psf_cut.png", 1, "cannot load --psf image 'psf_cut.png': ", false},
        std::tuple{"psf_image_0x0", "image:psf_0x0.png", 1, "cannot load --psf image 'psf_0x0.png': Image width is zero in IHDR", false},
        std::tuple{"psf_image_jpeg", "image:psf.jpg", 1, "a kernel image is an 8- or 16-bit grey or RGB PNG without alpha (this one: 8-bit gray JPEG)", false},
        std::tuple{"psf_image_fifo", "image:fifo", 1, "cannot read --psf image 'fifo': it is a FIFO", false},
        std::tuple{"psf_image_device", "image:null", 1, "cannot read --psf image 'null': it is a character device", true},
        std::tuple{"psf_image_directory", "image:adir", 1, "cannot read --psf image 'adir': it is a directory", false},
        // Refused by its header (its size, or what its bytes can hold) before 4 GiB are decoded for it.
        std::tuple{"psf_image_header_beyond_its_bytes", "image:map_huge_header.png", 1, "16384x16384", false},
        std::tuple{"psf_image_all_zero", "image:psf_zero.png", 1, "values are all 0 (3x3): a PSF with no light cannot be normalised", false},
        std::tuple{"psf_image_rgba", "image:in.png", 1, "a kernel image is an 8- or 16-bit grey or RGB PNG without alpha (this one: 8-bit RGBA PNG)", false},
        std::tuple{"psf_image_grey_alpha", "image:psf_grey_alpha.png", 1, "(this one: 8-bit gray+alpha PNG)", false},
        std::tuple{"psf_image_1_bit", "image:psf_1bit.png", 1, "(this one: 1-bit gray PNG)", false},
        std::tuple{"psf_image_past_the_padding", "image:psf_wide.png", 2,
                   "the kernel (101x1 px on the frame, reach 50, 0) is larger than fft-2d's padding of 32x24 to 64x64 holds (reach 32, 40 at most)", false},
        std::tuple{"psf_image_scaled_past_the_padding", "image:psf.png@300%", 2, "is larger than fft-2d's padding of 32x24 to 64x64", false},
        std::tuple{"psf_image_scale_zero", "image:psf.png@0%", 2, "the scale 0% is out of range (above 0, at most 1000% of the frame's longer side)", false},
        std::tuple{"psf_image_scale_negative", "image:psf.png@-5%", 2, "the scale -5% is out of range", false},
        std::tuple{"psf_image_scale_nan", "image:psf.png@nan%", 2, "the scale 'nan%' is not a number", false},
        std::tuple{"psf_image_scale_overflow", "image:psf.png@1e400%", 2, "the scale '1e400%' is not a number", false}}) {
    Case c{name, fft2d_run, code, message, {}, devices};
    c.args.insert(c.args.end(), {"--psf", value});
    cases.push_back(c);
  }
  // A separable implementation asked alone for a kernel image refuses it, typed, with the reason.
  for (const std::string implementation : {"fft", "mip-chain"}) {
    Case c{"psf_image_refused_by_" + implementation, fft2d_run, 2, implementation == "fft" ? "(limit: kernel)" : "is no sum of Gaussians: fft-2d serves it"};
    c.args[4] = implementation;
    c.args.insert(c.args.end(), {"--psf", "image:psf.png"});
    cases.push_back(c);
  }
  // fft-2d pads black: another border is refused, typed, with the reason.
  {
    Case c{"fft2d_refuses_the_clamp_border", fft2d_run, 2, "fft-2d pads the frame with black"};
    c.args[6] = "clamp";
    c.args.insert(c.args.end(), {"--psf", "image:psf.png"});
    cases.push_back(c);
  }
  // Every box-only variant refuses the Gaussian, by name, when asked for it alone.
  for (const VariantInfo* v : variants())
    if (v->kernels == KernelSupport::BoxOnly)
      cases.push_back({std::string("gauss_refused_") + std::string(v->name),
                       {"--headless", "--variant", std::string(v->name), "--kernel", "gauss", "--image", "in.png", "--output", out,
                        "--frames", "0"},
                       2,
                       "box kernel only"});
  // Every approximation of the Gaussian refuses the box, by name.
  for (const VariantInfo* v : variants())
    if (v->kernels == KernelSupport::GaussOnly)
      cases.push_back({std::string("box_refused_") + std::string(v->name),
                       {"--headless", "--variant", std::string(v->name), "--kernel", "box", "--image", "in.png", "--output", out,
                        "--frames", "0"},
                       2,
                       "gauss kernel only"});
  // The list modes print their list and exit: an option none of them reads was ignored without a
  // word (exit 0), and of two modes only one ran.
  for (const auto& [name, args, message] : std::vector<std::tuple<std::string, std::vector<std::string>, std::string>>{
           {"list_variants_csv", {"--list-variants", "--csv", "x.csv"}, "--list-variants lists the variants and exits: --csv does not apply"},
           {"print_kernel_json", {"--print-kernel", "--radius", "2", "--json", "x.json"}, "--print-kernel prints the kernel's weights and exits: --json does not apply"},
           // "-" is stdout for the JSON listings alone, not a file named "-" for a run's report.
           {"json_stdout_for_a_run", {"--headless", "--frames", "0", "--json", "-"}, "--json - (standard output) is for --list-variants and --list-refusals"},
           {"list_variants_report", {"--list-variants", "--report", "page"}, "--list-variants lists the variants and exits: --report does not apply"},
           {"list_refusals_csv", {"--list-refusals", "--csv", "x.csv"}, "--list-refusals lists each variant's refusal and exits: --csv does not apply"},
           {"list_refusals_tuned", {"--list-refusals", "--tuned", "garbage.json"}, "--tuned does not apply with it"},
           {"list_refusals_two_radii", {"--list-refusals", "--radius", "3,5"}, "--list-refusals lists what one setting is refused for"},
           {"print_kernel_csv", {"--print-kernel", "--csv", "x.csv"}, "--print-kernel prints the kernel's weights and exits: --csv does not apply"},
           {"print_kernel_output", {"--print-kernel", "--radius", "2", "--output", out}, "--output does not apply with it"},
           {"print_kernel_check", {"--print-kernel", "--radius", "2", "--check"}, "--check does not apply with it"},
           {"two_list_modes", {"--list-variants", "--list-refusals"}, "--list-variants and --list-refusals each print a list and exit"},
           {"list_and_print_kernel", {"--list-variants", "--print-kernel", "--radius", "2"}, "--list-variants and --print-kernel each print"}})
    cases.push_back({name, args, 2, message});
  // A program that would take minutes to compile is refused with the numbers, like any limit: fft's
  // per-invocation arrays grow as its workgroup shrinks (workgroup 1 on 8x8 compiled for 230 s).
  cases.push_back({"fft_workgroup_one", {"--headless", "--variant", "fft", "--workgroup", "1", "--size", "8x8", "--frames", "0"}, 2,
                   "workgroup 1x1 for 2 lines of 512 points: each invocation takes 512 butterflies a step (register arrays of 8192 "
                   "complex values), more than the 16 a program is compiled for"});
  // An effect's parameters and implementations: refused before any work, one line with the numbers.
  const std::vector<std::string> bloom = {"--headless", "--effect", "bloom", "--size", "64x36", "--frames", "0"};
  for (const auto& [name, more, message] : std::vector<std::tuple<std::string, std::vector<std::string>, std::string>>{
           {"effect_unknown", {"--effect", "glow"}, "--effect 'glow' is not none, bloom"},
           {"effect_parameter_without_effect", {"--headless", "--intensity", "0.5"}, "--intensity is a parameter of an effect: give --effect as well"},
           {"bloom_intensity_nan", {"--intensity", "nan"}, "--intensity 'nan' is not a number"},
           {"bloom_intensity_negative", {"--intensity", "-0.5"}, "--intensity -0.5 is out of range 0..1"},
           {"bloom_intensity_above_one", {"--intensity", "1.01"}, "--intensity 1.01 is out of range 0..1"},
           {"bloom_threshold_negative", {"--threshold", "-1"}, "--threshold -1 is out of range 0..65504"},
           {"bloom_knee_above_threshold", {"--threshold", "1", "--knee", "1.5"}, "--knee 1.5 is above --threshold 1"},
           {"bloom_psf_no_term", {"--psf", "sum:"}, "a sum needs at least one term"},
           {"bloom_psf_zero_weights", {"--psf", "sum:0@2,0@4"}, "the weights sum to 0"},
           {"bloom_psf_negative_weight", {"--psf", "sum:1@2,-1@4"}, "weight -1 is negative"},
           {"bloom_psf_sigma_zero", {"--psf", "gauss:0%"}, "sigma 0 must be above 0"},
           {"bloom_psf_too_wide", {"--psf", "gauss:9%", "--size", "3840x2160"}, "needs radius 584 (3 sigma), above 512"},
           {"bloom_psf_unknown_form", {"--psf", "star:3"}, "is neither gauss:SIGMA, sum:W@SIGMA,... nor image:FILE[@P%]"},
           {"bloom_box_only_variant", {"--variant", "compute-sliding"}, "'compute-sliding' does not serve the bloom effect"},
           {"bloom_kernel_option", {"--kernel", "box"}, "--kernel does not apply with --effect bloom"},
           {"bloom_sigma_option", {"--sigma", "3"}, "--sigma does not apply with --effect bloom"},
           {"bloom_output_two_implementations", {"--variant", "fft,mip-chain", "--output", "out.png"}, "--output with --effect needs exactly one implementation"},
           // A refusal of the one implementation asked for, with its numbers (the radius cap of a
           // variant whose cost grows with the radius: sigma 10% of 720 rows needs r = 216).
           {"bloom_past_a_variants_reach", {"--variant", "compute-separable", "--psf", "gauss:10%", "--size", "1280x720"},
            "radius 216 is above compute-separable's 128"}}) {
    std::vector<std::string> args;
    if (more.front() == "--effect" || more.front() == "--headless") {
      args = more;
      if (more.front() == "--effect") args.insert(args.begin(), "--headless");
    } else {
      args = bloom;
      if (std::find(more.begin(), more.end(), "--size") != more.end()) args.erase(args.begin() + 3, args.begin() + 5);  // its own size
      args.insert(args.end(), more.begin(), more.end());
    }
    cases.push_back({name, args, 2, message});
  }
  // Depth of field's lens (effects/dof.h), refused while the options are read: before any work.
  const auto dof = [&](std::string name, std::initializer_list<std::string> more, std::string message) {
    std::vector<std::string> args = {"--headless", "--effect", "dof", "--frames", "0", "--csv", "out.csv"};
    args.insert(args.end(), more.begin(), more.end());
    cases.push_back({std::move(name), args, 2, std::move(message)});
  };
  dof("dof_f_number_zero", {"--f-number", "0"}, "--f-number 0 must be above 0");
  dof("dof_f_number_negative", {"--f-number", "-2"}, "--f-number -2 must be above 0");
  dof("dof_f_number_nan", {"--f-number", "nan"}, "--f-number 'nan' is not a number");
  dof("dof_f_number_huge", {"--f-number", "1e6"}, "--f-number 1e+06 is out of range 0..1000");
  dof("dof_focal_length_zero", {"--focal-length", "0"}, "--focal-length 0 is out of range 1..1000 (millimetres)");
  dof("dof_focal_length_huge", {"--focal-length", "5000"}, "--focal-length 5000 is out of range 1..1000 (millimetres)");
  dof("dof_sensor_zero", {"--sensor-height", "0"}, "--sensor-height 0 is out of range 1..100 (millimetres)");
  dof("dof_sensor_huge", {"--sensor-height", "500"}, "--sensor-height 500 is out of range 1..100 (millimetres)");
  dof("dof_focus_zero", {"--focus-distance", "0"}, "--focus-distance 0 must be above 0");
  dof("dof_focus_word", {"--focus-distance", "middle"}, "--focus-distance 'middle' is not a number");
  dof("dof_focus_within_focal_length", {"--focus-distance", "0.5"},
      "--focus-distance 0.5 (25 mm) is not beyond the focal length 28 mm: a thin lens forms no image of it");
  dof("dof_field_of_view_too_wide", {"--sensor-height", "100", "--focal-length", "10"}, "gives a vertical field of view of 156.8 degrees, above 120");
  dof("dof_circle_too_large", {"--f-number", "0.1"}, "px at 1920x1080 within the scene's depths 6.85..30, above the 128 px the techniques reach");
  dof("dof_circle_too_large_at_4k", {"--f-number", "0.4", "--size", "640x360,3840x2160"}, "px at 3840x2160");
  dof("dof_lens_views_zero", {"--lens-views", "0"}, "--lens-views '0' is out of range 1..4096 (or auto)");
  dof("dof_lens_views_absurd", {"--lens-views", "99999999999999999999"}, "--lens-views '99999999999999999999' is out of range 1..4096");
  dof("dof_lens_views_word", {"--lens-views", "many"}, "--lens-views 'many' is neither auto nor a whole number");
  dof("dof_lens_views_fraction", {"--lens-views", "2.5"}, "--lens-views '2.5' is neither auto nor a whole number");
  dof("dof_export_not_yet", {"--variant", "near-far", "--export", "out"}, "--export of depth of field is not supported yet");
  for (Case& c : cases)
    for (char& ch : c.name)
      if (ch == '-') ch = '_';
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cli, BadArguments, ::testing::ValuesIn(bad_arguments()), [](const auto& p) { return p.param.name; });

// A focus outside the scene's depth range is no error: the run says so (a note on stdout, before
// the table) and goes on.
TEST(EffectNotes, AFocusOutsideTheSceneIsSaidAndTheRunGoesOn) {
  Sandbox sandbox;
  for (const auto& [focus, said] : {std::pair{"50", "note: --focus-distance 50 is beyond everything in the scene (its depths: 6.85..30)"},
                                    std::pair{"2", "note: --focus-distance 2 is nearer than anything in the scene (its depths: 6.85..30)"}}) {
    const ProgramResult r = run_program(BLURLAB_PROGRAM,
                                        {"--headless", "--effect", "dof", "--variant", "near-far", "--size", "64x36", "--frames", "0",
                                         "--focus-distance", focus},
                                        sandbox.dir());
    ASSERT_FALSE(r.crashed) << r.err;
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(said), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("blurlab: "), std::string::npos) << r.err;
  }
}

// --- malformed PNG files, made here ---------------------------------------------------------

struct BadFile {
  std::string name;
  std::string bytes;
  std::string message = "bad.png";   // a part of the stderr line
  std::vector<std::string> extra_args = {};
  uint64_t sparse_size = 0;          // grow the file to this size without writing it
  bool directory = false;
};

void PrintTo(const BadFile& f, std::ostream* os) { *os << f.name; }

// 258 kernels (the estimate keeps a reference for each) need terabytes at 16384x16384: refused on
// any machine.
const std::vector<std::string> kManyKernels = {"--kernel", "box,gauss", "--radius", "0:128"};

std::vector<BadFile> bad_files() {
  const std::string good = valid_png();
  std::vector<BadFile> files;
  // Cut short anywhere: inside the signature, the IHDR, the IDAT, the IEND.
  for (size_t length : {size_t{0}, size_t{1}, size_t{4}, size_t{7}, size_t{8}, size_t{12}, size_t{16}, size_t{20}, size_t{29},
                        size_t{33}, size_t{34}, size_t{40}, size_t{45}, good.size() / 2, good.size() - 13, good.size() - 12,
                        good.size() - 8, good.size() - 5, good.size() - 1})
    files.push_back({"truncated_" + std::to_string(length), good.substr(0, length)});
  // Not a PNG or JPEG at all; formats blurlab does not read are named.
  files.push_back({"gif_header", "GIF89a" + std::string(40, '\1'), "it is a GIF file"});
  files.push_back({"bmp_header", "BM" + std::string(60, '\3'), "it is a BMP file"});
  files.push_back({"radiance_hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n" + std::string(16, '\1'), "Radiance HDR"});
  files.push_back({"text", "hello, I am not an image\n", "not a PNG or JPEG file"});
  files.push_back({"zeros", std::string(64, '\0')});
  files.push_back({"signature_one_byte_off", "\x88" + good.substr(1)});
  files.push_back({"signature_only", kPngSignature});
  // A readable structure with impossible header fields (CRCs correct).
  const std::string rest = idat(11, 7) + chunk("IEND", "");
  files.push_back({"zero_width", kPngSignature + ihdr(0, 7) + rest});
  files.push_back({"zero_height", kPngSignature + ihdr(11, 0) + rest});
  files.push_back({"huge_width", kPngSignature + ihdr(0x7fffffff, 7) + rest});
  files.push_back({"huge_height", kPngSignature + ihdr(11, 100000) + rest});
  files.push_back({"huge_both", kPngSignature + ihdr(20000, 20000) + rest});
  files.push_back({"width_just_above_limit", kPngSignature + ihdr(16385, 1) + rest, "16385x1"});
  files.push_back({"bit_depth_3", kPngSignature + ihdr(11, 7, 3) + rest});
  files.push_back({"color_type_5", kPngSignature + ihdr(11, 7, 8, 5) + rest});
  files.push_back({"compression_1", kPngSignature + ihdr(11, 7, 8, 6, 1) + rest});
  files.push_back({"filter_method_1", kPngSignature + ihdr(11, 7, 8, 6, 0, 1) + rest});
  files.push_back({"interlace_2", kPngSignature + ihdr(11, 7, 8, 6, 0, 0, 2) + rest});
  // Valid but too large for memory: refused from the header, with the numbers (a 16-bit one once
  // got a JPEG decoder's "no SOI").
  for (int depth : {8, 16})
    files.push_back({"largest_" + std::to_string(depth) + "bit_beyond_memory", kPngSignature + ihdr(16384, 16384, depth) + rest,
                     "16384x16384 needs about", kManyKernels});
  // Damaged bytes with the CRCs wrong.
  for (size_t at : {size_t{20}, size_t{29}, size_t{40}, good.size() - 16, good.size() - 5, good.size() - 1}) {
    std::string damaged = good;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    files.push_back({"flipped_byte_" + std::to_string(at), damaged});
  }
  // Damaged compressed data with the CRC fixed: only zlib's checks can tell (stb_image blurred
  // these with exit code 0).
  const std::string data = good.substr(good.find("IDAT") + 4, good.size() - good.find("IDAT") - 4 - 4 - 12);
  for (size_t at : {size_t{2}, data.size() / 2, data.size() - 1}) {
    std::string damaged = data;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x24);
    files.push_back({"idat_damaged_crc_fixed_" + std::to_string(at), kPngSignature + ihdr(11, 7) + chunk("IDAT", damaged) + chunk("IEND", "")});
  }
  // Palette indexes past the palette (two colours): libpng would draw them black.
  const std::string plte = chunk("PLTE", std::string("\xff\x00\x00\x00\xff\x00", 6));
  files.push_back({"palette_index_one_past", png_file(3, 1, 8, 3, {std::string("\x00\x02\x01", 3)}, plte), "palette index 2"});
  files.push_back({"palette_index_far_past", png_file(3, 1, 8, 3, {std::string("\x00\xff\x01", 3)}, plte), "palette index 255"});
  files.push_back({"idat_length_huge", kPngSignature + ihdr(11, 7) + be32(0xfffffff0u) + "IDAT" + std::string(16, '\0')});
  files.push_back({"idat_not_zlib", kPngSignature + ihdr(11, 7) + chunk("IDAT", std::string(50, '\x33')) + chunk("IEND", "")});
  files.push_back({"idat_too_few_rows", kPngSignature + ihdr(11, 7) + idat(11, 3) + chunk("IEND", "")});
  files.push_back({"idat_empty", kPngSignature + ihdr(11, 7) + chunk("IDAT", "") + chunk("IEND", "")});
  files.push_back({"no_idat", kPngSignature + ihdr(11, 7) + chunk("IEND", "")});
  files.push_back({"no_iend", kPngSignature + ihdr(11, 7) + idat(11, 7)});
  files.push_back({"no_ihdr", kPngSignature + idat(11, 7) + chunk("IEND", "")});
  files.push_back({"two_ihdr", kPngSignature + ihdr(11, 7) + ihdr(11, 7) + rest});
  files.push_back({"ihdr_too_short", kPngSignature + chunk("IHDR", std::string(5, '\1')) + rest});
  files.push_back({"chunk_type_not_letters", kPngSignature + ihdr(11, 7) + chunk("ID@T", "x") + rest});
  files.push_back({"a_directory", "", "is a directory", {}, 0, true});
  // Larger than any image blurlab takes: refused from its size, unread (sparse, no disk used).
  files.push_back({"file_beyond_limit", kPngSignature, "at most 2.5 GiB is read", {}, kMaxImageFileBytes + 1});

  // JPEG: libjpeg warns about corrupt data and fills the gap with grey; here that is an error.
  const std::string jpeg = jpeg_file(32, 24, 3, [](int x, int y, int c) { return static_cast<uint8_t>(x * 7 + y * 5 + c * 40); });
  files.push_back({"jpeg_signature_only", std::string("\xFF\xD8\xFF\xE0", 4) + std::string(60, '\2')});
  for (size_t length : {size_t{3}, size_t{100}, jpeg.size() / 2, jpeg.size() - 2})
    files.push_back({"jpeg_truncated_" + std::to_string(length), jpeg.substr(0, length)});
  files.push_back({"jpeg_cmyk", jpeg_file(8, 8, 4, [](int, int, int) { return uint8_t{9}; }), "CMYK"});
  files.push_back({"jpeg_width_above_limit", jpeg_file(16385, 1, 1, [](int, int, int) { return uint8_t{9}; }), "16385x1"});
  // The frame header (SOF0: FF C0, length, precision, height, width) says 0 rows.
  std::string no_rows = jpeg;
  const size_t sof = no_rows.find("\xFF\xC0");
  no_rows[sof + 5] = no_rows[sof + 6] = '\0';
  files.push_back({"jpeg_zero_height", no_rows});
  return files;
}

class BadImages : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadImages, RefusedWithOneLineAndNoOutput) {
  Sandbox sandbox;
  const BadFile& f = GetParam();
  if (f.directory)
    fs::create_directories(sandbox.dir() / "bad.png");
  else
    std::ofstream(sandbox.dir() / "bad.png", std::ios::binary) << f.bytes;
  if (f.sparse_size) fs::resize_file(sandbox.dir() / "bad.png", f.sparse_size);
  Case c{f.name, {"--headless", "--variant", "copy", "--frames", "0", "--image", "bad.png"}, 1, f.message};
  c.args.insert(c.args.end(), f.extra_args.begin(), f.extra_args.end());
  if (f.extra_args.empty()) c.args.insert(c.args.end(), {"--output", "out.png"});
  expect_clean_failure(c, sandbox.dir(), files_below(sandbox.dir()));
}

INSTANTIATE_TEST_SUITE_P(Png, BadImages, ::testing::ValuesIn(bad_files()), [](const auto& p) { return p.param.name; });

// --- the memory plan a run actually makes ------------------------------------------------

// The estimate's arithmetic is unit-tested (unit.MemoryBudget); this reads the one the program
// makes, so a variant's intermediates left out of it (variable-sat's summed-area table is the one
// larger than an rgba32f texture of the image) show. 129 kernels make it refuse on any machine,
// printing every part per texel. The table is counted here from its layout, not from the variant:
// the image padded by r = 128 on each side, in tiles of 16x16 texels that each carry one more row
// and column (glsl/variable_sat.comp), each texel rgba32f-sized (16 bytes), twice for float input
// (the high words apart).
TEST(MemoryPlan, TheRunsEstimateCountsTheSummedAreaTable) {
  Sandbox sandbox;
  const int side = 16384, radius = 128, tile = 16;
  const double table_side = std::ceil((side + 2.0 * radius) / tile) * (tile + 1);
  for (const auto& [format, texture, words] : {std::tuple{"rgba16f", 8, 2}, std::tuple{"rgba8", 4, 1}}) {
    SCOPED_TRACE(format);
    const ProgramResult r = run_program(BLURLAB_PROGRAM,
                                        {"--headless", "--variant", "variable-sat", "--size", "16384x16384", "--input-format", format,
                                         "--kernel", "box", "--radius", "0:128", "--frames", "0"},
                                        sandbox.dir());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    const int intermediate = static_cast<int>(std::ceil(16.0 * words * table_side * table_side / (double(side) * side)));
    const int per_texel = 2 * texture + intermediate + 32 + 32 * 129 + 32;
    const std::string expected = "--size 16384x16384 needs about 1.0 TiB (" + std::to_string(per_texel) +
                                 " bytes per texel: textures " + std::to_string(2 * texture) + " + intermediate " +
                                 std::to_string(intermediate) + " + read-backs 32 + references 32 x 129 kernels + reference pass 32;";
    EXPECT_NE(r.err.find(expected), std::string::npos) << "expected: " << expected << "\nread: " << r.err;
  }
}

// bloom's fft-2d declares what it holds (effects/effect.h: memory_bytes), counted here from its
// layout: a 16384x16384 frame pads to 32768x32768 (16384 + 8192 each way); the rows' grid (32768 x
// 16384 rgba32f), the layer (rgba16f), the kept spectrum (2 x 16385 x 32768 rgba32f), the 3x3
// kernel and its rows (32768 x 3), and the ground truth's two grids of double complex values. About
// 84 GiB in all: refused wherever the bound is lower (this test's machines; skipped on a larger one).
TEST(MemoryPlan, TheRunsEstimateCountsFft2dsGridsAndSpectrum) {
  Sandbox sandbox;
  const double side = 16384, n = 32768;
  const double held = n * side * 16 + side * side * 8 + 2 * (n / 2 + 1) * n * 16 + 9 * 16 + n * 3 * 16 + 2 * n * n * 16;
  const int intermediate = static_cast<int>(std::ceil(held / (side * side)));
  const int per_texel = 8 + intermediate + 32 + 32 + 32;
  if (static_cast<double>(memory_bound().bytes) > per_texel * side * side) GTEST_SKIP() << "this machine would hold it";
  const ProgramResult r = run_program(BLURLAB_PROGRAM,
                                      {"--headless", "--effect", "bloom", "--variant", "fft-2d", "--border", "constant", "--psf", "image:psf.png",
                                       "--size", "16384x16384", "--frames", "0"},
                                      sandbox.dir());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string expected = "bytes per texel: textures 8 + intermediate " + std::to_string(intermediate) + " + read-backs 32";
  EXPECT_NE(r.err.find(expected), std::string::npos) << "expected: " << expected << "\nread: " << r.err;
}

// --- what must work -----------------------------------------------------------------------

// Runs blurlab on `image` (written to in.<ext>) with the copy pass and `args`; expects exit 0.
ProgramResult run_on(const Sandbox& sandbox, const std::string& image, const std::string& ext, std::vector<std::string> args) {
  std::ofstream(sandbox.dir() / ("in." + ext), std::ios::binary) << image;
  std::vector<std::string> all = {"--headless", "--variant", "copy", "--frames", "0", "--image", "in." + ext};
  all.insert(all.end(), args.begin(), args.end());
  ProgramResult r = run_program(BLURLAB_PROGRAM, all, sandbox.dir());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r;
}

// A check that fails says where and by how much on stdout, below the table: the variant and
// setting, the worst texel's values and the allowance (the stderr line stays one line).
TEST(FailedCheck, SaysWhereAndByHowMuch) {
  Sandbox sandbox;
  // Texel 0,0 is black: the broken copy's first wrong channel there is the worst (no error is allowed).
  std::ofstream(sandbox.dir() / "in.png", std::ios::binary)
      << png_file(3, 1, 8, 6, {std::string("\x00\x00\x00\xff\x40\x40\x40\xff\xc8\x0a\x40\xff", 12)});
  const ProgramResult r = run_program(
      BLURLAB_PROGRAM, {"--headless", "--variant", "copy", "--check", "--frames", "0", "--image", "in.png", "--shader-dir", "wrong_glsl"},
      sandbox.dir());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("Runs over their tolerance:\n- copy 3x1 no blur in=rgba8 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; worst at 0,0 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", reference 0, allowed 0 LSB (no error allowed); tolerance: exact"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A tolerance that is not zero holds at its edge: compute-separable (1 LSB) with its second pass
// 2 steps high fails --check, 2x over. The copy above allows no error, so a tolerance doubled (or
// loosened by any factor) on its way to --check changes nothing there; here it passes the run.
TEST(FailedCheck, TwiceItsToleranceFails) {
  Sandbox sandbox;
  // A flat grey: its blur is the grey itself, exactly, so the error is the 2 steps and no rounding.
  const std::string grey_row = [] {
    std::string row;
    for (int x = 0; x < 9; ++x) row += std::string("\x64\x64\x64\xff", 4);
    return row;
  }();
  std::ofstream(sandbox.dir() / "grey.png", std::ios::binary) << png_file(9, 7, 8, 6, std::vector<std::string>(7, grey_row));
  fs::copy(BLURLAB_GLSL_DIR, sandbox.dir() / "high_glsl");
  std::ofstream(sandbox.dir() / "high_glsl" / "compute_separable.comp")
      << "#version 430 core\n#include \"blur_common.glsl\"\n#include \"source_image.glsl\"\n#include \"target_image.glsl\"\n"
         "#include \"separable_1d.glsl\"\nlayout(local_size_x = WG_X, local_size_y = WG_Y) in;\n"
         "void main() {\n  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n  if (any(greaterThanEqual(p, source_size()))) return;\n"
         "  store_target(p, separable_1d(p) + vec4(AXIS == 1 ? 2.0 / 255.0 : 0.0));\n}\n";
  const ProgramResult r = run_program(BLURLAB_PROGRAM,
                                      {"--headless", "--variant", "compute-separable", "--kernel", "gauss", "--radius", "3", "--check",
                                       "--frames", "0", "--image", "grey.png", "--shader-dir", "high_glsl"},
                                      sandbox.dir());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("; worst at 0,0 R: GPU 102, reference 100, allowed 1 LSB (2x); tolerance: 1 LSB"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("1 of 1 runs exceed their tolerance"), std::string::npos) << r.err;
}

TEST(GoodImages, TheValidTemplateLoads) {
  // The malformed files above are made from this one: it must itself be fine, or the tests
  // above would pass for the wrong reason.
  Sandbox sandbox;
  run_on(sandbox, valid_png(), "png", {"--output", "out.png"});
  const Image back = load_image(sandbox.dir() / "out.png").image;
  EXPECT_EQ(back.width, 11);
  EXPECT_EQ(back.height, 7);
  EXPECT_EQ(to_rgba8(back)[4 * 3 + 1], static_cast<uint8_t>((13 * 7) & 0xff));  // x=3 (byte 13) of row 0
  // So is the palette image the palette cases damage.
  run_on(sandbox, png_file(3, 1, 8, 3, {std::string("\x00\x01\x01", 3)}, chunk("PLTE", std::string("\xff\x00\x00\x00\xff\x00", 6))),
         "png", {"--output", "out.png"});
}

TEST(GoodImages, SixteenBitsSurviveAsFarAsRgba16fKeepsThem) {
  // A flat 16-bit image once came out cut to 8 bits: 511 became 2. Now it is blurred in rgba16f
  // and written as a 16-bit PNG. rgba16f has 11 significant bits: 511 (below 2^-7, steps of at
  // most 2^-17, half a 16-bit unit) survives exactly; 65000 (in [0.5, 1), steps of 2^-11 = 32 units)
  // comes back within one step (GL may truncate float-to-half conversions rather than round).
  Sandbox sandbox;
  const std::string pixel = be16(511) + be16(65000) + be16(0) + be16(65535);
  const ProgramResult r = run_on(sandbox, png_file(4, 3, 16, 6, {pixel + pixel + pixel + pixel, pixel + pixel + pixel + pixel,
                                                                   pixel + pixel + pixel + pixel}),
                                 "png", {"--output", "out.png"});
  EXPECT_NE(r.out.find("16-bit RGBA PNG; rgba16f keeps 11 significant bits"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote out.png (16-bit PNG)"), std::string::npos) << r.out;
  const LoadedImage out = load_image(sandbox.dir() / "out.png");
  EXPECT_EQ(out.info.bits_per_channel, 16);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) {
      EXPECT_EQ(to_unorm16(out.image.at(x, y, 0)), 511);
      EXPECT_NEAR(to_unorm16(out.image.at(x, y, 1)), 65000, 32);
      EXPECT_EQ(to_unorm16(out.image.at(x, y, 2)), 0);
      EXPECT_EQ(to_unorm16(out.image.at(x, y, 3)), 65535);
    }
  // Asked for rgba8, it says what is kept and writes 8 bits.
  const ProgramResult r8 = run_on(sandbox, png_file(1, 1, 16, 6, {pixel}), "png", {"--input-format", "rgba8", "--output", "out8.png"});
  EXPECT_NE(r8.out.find("rgba8 keeps 8 bits per channel"), std::string::npos) << r8.out;
  const LoadedImage out8 = load_image(sandbox.dir() / "out8.png");
  EXPECT_EQ(out8.info.bits_per_channel, 8);
  EXPECT_EQ(to_rgba8(out8.image)[0], 2);  // 511 / 65535 * 255 = 1.99
}

TEST(GoodImages, JpegInJpegOut) {
  Sandbox sandbox;
  const auto colour = [](int x, int y, int c) { return static_cast<uint8_t>(c == 0 ? 200 : c == 1 ? 60 + 4 * x : 30 + 3 * y); };
  const std::string jpeg = jpeg_file(20, 12, 3, colour);
  const ProgramResult r = run_on(sandbox, jpeg, "jpg", {"--output", "out.png"});
  EXPECT_NE(r.out.find("8-bit RGB JPEG"), std::string::npos) << r.out;
  // The copy pass of an rgba8 texture: exactly the decoded JPEG, which is within 2 of what was
  // encoded (quality 100, no subsampling, a smooth image).
  const Image out = load_image(sandbox.dir() / "out.png").image;
  EXPECT_EQ(to_rgba8(out), to_rgba8(decode_image(jpeg, "in.jpg").image));
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 20; ++x)
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(to_unorm8(out.at(x, y, c)), colour(x, y, c), 2) << x << "," << y;
  // --output .jpg writes a JPEG (by the extension), whatever the input was.
  run_on(sandbox, valid_png(), "png", {"--output", "out.JPG"});
  const LoadedImage jpg = load_image(sandbox.dir() / "out.JPG");
  EXPECT_EQ(jpg.info.format, ImageFormat::jpeg);
  EXPECT_EQ(jpg.image.width, 11);
}

// --- hostile targets that need a setup: device nodes, FIFOs, links, immutable files ------------

using blurlab::test_fixtures::set_immutable;

void expect_success(const ProgramResult& r) {
  ASSERT_FALSE(r.crashed) << "killed by signal " << r.signal << "\n" << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "") << "a run that succeeds says nothing on stderr";
}

TEST(HostileTargets, DevicesAreWrittenThroughAndStayDevices) {
  Sandbox sandbox;
  const fs::path& dir = sandbox.dir();
  if (!sandbox.make_devices()) GTEST_SKIP() << "cannot make device nodes, and /dev is writable";
  const auto before = files_below(dir);
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--output", "null.png", "--csv", "null", "--json", "null"}), dir));
  EXPECT_TRUE(fs::is_character_file(dir / "null"));
  EXPECT_TRUE(fs::is_character_file(dir / "null.png"));
  expect_clean_failure({"dev_full", copy_run({"--csv", "full"}), 1, "cannot write --csv 'full': No space left on device"}, dir, before);
  EXPECT_TRUE(fs::is_character_file(dir / "full"));
  EXPECT_EQ(files_below(dir), before);
}

TEST(HostileTargets, BlockDeviceIsRefusedBeforeAnyWork) {
  Sandbox sandbox;
  if (::mknod((sandbox.dir() / "disk.png").c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0) GTEST_SKIP() << "mknod not permitted here";
  expect_clean_failure({"block_device", copy_run({"--output", "disk.png"}), 1, "--output 'disk.png': it is a block device",
                        {{"MESA_GL_VERSION_OVERRIDE", "4.2"}}},
                       sandbox.dir(), files_below(sandbox.dir()));
  EXPECT_TRUE(fs::is_block_file(sandbox.dir() / "disk.png"));
}

TEST(HostileTargets, FifoWithoutReaderFailsWithoutHanging) {
  Sandbox sandbox;
  ASSERT_EQ(::mkfifo((sandbox.dir() / "pipe").c_str(), 0600), 0);
  expect_clean_failure({"fifo", copy_run({"--csv", "pipe"}), 1, "cannot write --csv 'pipe': no process is reading from it"}, sandbox.dir(),
                       files_below(sandbox.dir()));
  EXPECT_TRUE(fs::is_fifo(sandbox.dir() / "pipe"));
}

TEST(HostileTargets, SymlinkStaysALinkAndDanglingOneIsRefused) {
  Sandbox sandbox;
  const fs::path& dir = sandbox.dir();
  fs::create_directories(dir / "real");
  std::ofstream(dir / "real" / "report.csv") << "old";
  fs::create_symlink("real/report.csv", dir / "link.csv");
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--csv", "link.csv"}), dir));
  EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
  std::ifstream in(dir / "real" / "report.csv");
  std::string header;
  std::getline(in, header);
  EXPECT_NE(header.find("variant"), std::string::npos) << header;
  fs::create_symlink("nowhere.csv", dir / "dangling.csv");
  expect_clean_failure({"dangling", copy_run({"--csv", "dangling.csv"}), 1, "which does not exist"}, dir, files_below(dir));
}

TEST(HostileTargets, ImmutableTargetSaysWhy) {
  Sandbox sandbox;
  const fs::path target = sandbox.dir() / "frozen.csv";
  std::ofstream(target) << "old";
  if (!set_immutable(target, true)) GTEST_SKIP() << "cannot set the immutable attribute here (chattr +i)";
  const auto before = files_below(sandbox.dir());
  const ProgramResult r = run_program(BLURLAB_PROGRAM, copy_run({"--csv", "frozen.csv", "--output", "out.png"}), sandbox.dir());
  set_immutable(target, false);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--csv 'frozen.csv': Operation not permitted"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(": Success"), std::string::npos) << r.err;
  EXPECT_EQ(files_below(sandbox.dir()), before);
}

TEST(HostileTargets, LongestFileNameWorks) {
  Sandbox sandbox;
  const std::string name = std::string(251, 'n') + ".png";  // 255 bytes, the most a directory entry holds
  const auto before = files_below(sandbox.dir());
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--output", name}), sandbox.dir()));
  EXPECT_TRUE(fs::is_regular_file(sandbox.dir() / name));
  EXPECT_EQ(files_below(sandbox.dir()).size(), before.size() + 1) << "only the output appeared";
}

// The window's --screenshot under Xvfb: the same rules, and a failed save fails the run.
TEST(HostileTargets, ScreenshotToSpecialFiles) {
  Sandbox sandbox;
  if (!sandbox.make_devices()) GTEST_SKIP() << "cannot make device nodes, and /dev is writable";
  const auto before = files_below(sandbox.dir());
  fs::create_directories(sandbox.dir() / "adir.png");
  for (const auto& [target, message] :
       {std::pair<std::string, std::string>{"full.png", "cannot write --screenshot 'full.png': No space left on device"},
        std::pair<std::string, std::string>{"adir.png", "--screenshot 'adir.png': it is a directory"}}) {
    const ProgramResult r = run_program(BLURLAB_WITH_XVFB, {BLURLAB_PROGRAM, "--frames", "2", "--size", "64x48", "--screenshot", target},
                                        sandbox.dir());
    ASSERT_FALSE(r.crashed) << r.err;
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err.rfind("blurlab: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not exactly one line:\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::is_regular_file(sandbox.dir() / "full.png")) << "the device was replaced";
  EXPECT_EQ(files_below(sandbox.dir()), before);
}

// --- --shader-dir: every file it reads goes through the one reader -----------------------------

// A copy of glsl/ in the sandbox with copy.comp replaced by `make(path)`.
fs::path shader_dir_with_copy(const Sandbox& sandbox, const std::string& name, const std::function<void(const fs::path&)>& make) {
  const fs::path dir = sandbox.dir() / name;
  fs::copy(BLURLAB_GLSL_DIR, dir);
  fs::remove(dir / "copy.comp");
  make(dir / "copy.comp");
  return dir;
}

TEST(HostileShaders, FifoAndDeviceAreRefusedNotOpened) {
  // A FIFO hung the run; a character device grew its memory without bound.
  Sandbox sandbox;
  shader_dir_with_copy(sandbox, "fifo_glsl", [](const fs::path& p) { ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0); });
  shader_dir_with_copy(sandbox, "zero_glsl", [](const fs::path& p) { fs::create_symlink("/dev/zero", p); });
  shader_dir_with_copy(sandbox, "include_zero_glsl", [](const fs::path& p) {
    std::ofstream(p) << "#version 430 core\n#include \"/dev/zero\"\n";
  });
  for (const auto& [dir, message] :
       {std::pair<std::string, std::string>{"fifo_glsl", "cannot read --shader-dir file 'fifo_glsl/copy.comp': it is a FIFO"},
        std::pair<std::string, std::string>{"zero_glsl", "cannot read --shader-dir file 'zero_glsl/copy.comp': it is a character device"},
        std::pair<std::string, std::string>{"include_zero_glsl", "copy.comp:2: --shader-dir 'include_zero_glsl': the shader name "
                                                                 "'/dev/zero' leaves the directory"}})
    expect_clean_failure({dir, {"--headless", "--variant", "copy", "--size", "8x8", "--frames", "0", "--shader-dir", dir}, 1, message},
                         sandbox.dir(), files_below(sandbox.dir()));
}

TEST(HostileShaders, LongDirectiveLinesDoNotCrash) {
  // 50 KB #version and #include lines crashed the program with SIGSEGV (std::regex recursed).
  Sandbox sandbox;
  const std::string main_text = [] {
    std::ifstream in(fs::path(BLURLAB_GLSL_DIR) / "copy.comp");
    std::string line, rest;
    std::getline(in, line);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  shader_dir_with_copy(sandbox, "long_version", [&](const fs::path& p) {
    std::ofstream(p) << "#version 430 core" << std::string(50000, ' ') << "\n" << main_text;
  });
  shader_dir_with_copy(sandbox, "long_include", [&](const fs::path& p) {
    std::ofstream(p) << "#version 430 core\n#include \"" << std::string(50000, 'a') << "\"\n" << main_text;
  });
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--shader-dir", "long_version"}), sandbox.dir()));
  expect_clean_failure({"long_include", copy_run({"--shader-dir", "long_include"}), 1, "copy.comp:2: cannot read --shader-dir file"},
                       sandbox.dir(), files_below(sandbox.dir()));
}

TEST(HostileShaders, DefinesAndMacrosAGlCompilerCannotTakeAreNotHandedOn) {
  // An 800 kB #define used once crashed Mesa's compiler (SIGSEGV: it recursed per operator), and 31
  // macros that each use the next twice ran its preprocessor until the run was killed.
  Sandbox sandbox;
  const std::string rest = [] {
    std::ifstream in(fs::path(BLURLAB_GLSL_DIR) / "copy.comp");
    std::string line;
    std::getline(in, line);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  std::string sum = "#define BIG 1.0";
  for (int i = 0; i < 130000; ++i) sum += " + 1.0";  // 780 kB
  std::string doubling;
  for (int i = 0; i < 30; ++i) doubling += "#define B" + std::to_string(i) + " B" + std::to_string(i + 1) + " + B" + std::to_string(i + 1) + "\n";
  shader_dir_with_copy(sandbox, "huge_define", [&](const fs::path& p) {
    std::ofstream(p) << "#version 430 core\n" << sum << "\nfloat big() { return BIG; }\n" << rest;
  });
  shader_dir_with_copy(sandbox, "doubling_macros", [&](const fs::path& p) {
    std::ofstream(p) << "#version 430 core\n" << doubling << "#define B30 1.0\nfloat doubled() { return B0; }\n" << rest;
  });
  for (const auto& [dir, message] :
       {std::pair<std::string, std::string>{"huge_define", "huge_define/copy.comp:2: a #define of 761.7 KiB; blurlab hands a GL compiler at most 64.0 KiB"},
        std::pair<std::string, std::string>{"doubling_macros", "doubling_macros/copy.comp:33: a statement of 2147483649 tokens with its macros "
                                                               "expanded; blurlab hands a GL compiler at most 16384"}})
    expect_clean_failure({dir, copy_run({"--shader-dir", dir}), 1, message}, sandbox.dir(), files_below(sandbox.dir()));
}

// --- a run's outputs: all of them at the end, or none ------------------------------------------

// One blur of in.png with every kind of output; the charts of its report are
// bars_37x23_rgba8_gauss_r16.png and time_vs_radius_37x23_rgba8_gauss.png.
std::vector<std::string> every_output(std::initializer_list<std::string> more = {}) {
  std::vector<std::string> args = {"--headless", "--variant", "compute-separable", "--image", "in.png", "--frames", "1", "--warmup", "0",
                                   "--output", "out.png", "--csv", "r.csv", "--json", "r.json", "--report", "page", "--export", "exp"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}
const std::string kBarsChart = "bars_37x23_rgba8_gauss_r16.png";

TEST(AllOutputsOrNone, AllOfThemWhenTheRunSucceeds) {
  Sandbox sandbox;
  const ProgramResult r = run_program(BLURLAB_PROGRAM, every_output(), sandbox.dir(), RunOptions{.env = {{"TMPDIR", sandbox.dir() / "adir"}}});
  expect_success(r);
  for (const std::string& file : std::vector<std::string>{"out.png", "r.csv", "r.json", "page/report.md", "page/report.json", "page/report.csv",
                                 "page/" + kBarsChart, "exp/recipe.json", "exp/recipe.md", "exp/1_h.comp"})
    EXPECT_TRUE(fs::is_regular_file(sandbox.dir() / file)) << file << "\n" << r.out;
  EXPECT_TRUE(fs::is_empty(sandbox.dir() / "adir")) << "the chart script's private directory stayed";
}

// The one line of a run refused before any GL work, with nothing written.
void expect_refused_before_any_work(const Sandbox& sandbox, const std::vector<std::string>& args, const std::string& message) {
  const auto before = files_below(sandbox.dir());
  const ProgramResult r = run_program(BLURLAB_PROGRAM, args, sandbox.dir());
  ASSERT_FALSE(r.crashed) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "blurlab: " + message + "\n");
  EXPECT_EQ(r.out.find("GL_RENDERER"), std::string::npos) << "GL work before the refusal:\n" << r.out;
  EXPECT_EQ(files_below(sandbox.dir()), before);
}

TEST(AllOutputsOrNone, AReportThatWouldFailAtTheEndIsRefusedFirst) {
  // A chart's name taken by a directory was found only when the chart was made, after the whole
  // timed run: now what is in the folder is known before any work.
  Sandbox sandbox;
  fs::create_directories(sandbox.dir() / "page" / kBarsChart);
  expect_refused_before_any_work(sandbox, every_output(),
                                 "--report 'page/" + kBarsChart +
                                     "': it is a directory, not a file an earlier report wrote; blurlab writes into an empty folder or over its "
                                     "own earlier report");
}

// --- output folders hold their own output, and are never written through a link -------------

TEST(OutputFolders, ALinkPlantedInTheFolderIsNotFollowed) {
  // A link in an --export or --report folder had the file it points to replaced (outside the
  // folder), exit 0.
  Sandbox sandbox;
  std::ofstream(sandbox.dir() / "outside.txt") << "precious";
  for (const auto& [folder, file] : {std::pair<std::string, std::string>{"exp", "recipe.json"}, {"exp", "1_h.comp"}, {"page", "report.md"},
                                     {"page", kBarsChart}}) {
    fs::create_directories(sandbox.dir() / folder);
    fs::create_symlink("../outside.txt", sandbox.dir() / folder / file);
    const std::string kind = folder == "exp" ? "export" : "report";
    expect_refused_before_any_work(sandbox, every_output(),
                                   "--" + kind + " '" + folder + "/" + file + "': it is a symbolic link, not a file an earlier " + kind +
                                       " wrote; blurlab writes into an empty folder or over its own earlier " + kind);
    EXPECT_TRUE(fs::is_symlink(sandbox.dir() / folder / file));
    fs::remove_all(sandbox.dir() / folder);
  }
  std::ifstream in(sandbox.dir() / "outside.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), "precious");
}

TEST(OutputFolders, AnEarlierExportIsReplacedNotMixedIn) {
  // An export into the folder of an earlier one left the earlier shaders and data files beside
  // the new recipe.
  Sandbox sandbox;
  const auto names_in = [&](const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(sandbox.dir() / folder)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  expect_success(run_program(BLURLAB_PROGRAM, {"--headless", "--variant", "variable-naive", "--kernel", "box", "--radius", "2", "--radius-map",
                                               "band", "--image", "in.png", "--frames", "0", "--export", "exp"},
                             sandbox.dir()));
  EXPECT_EQ(names_in("exp"), (std::vector<std::string>{"1_2d.comp", "LICENSE", "README.md", "level_weights.bin", "level_weights.bin.license",
                                                       "radius_levels.bin", "radius_levels.bin.license", "recipe.json", "recipe.md"}));
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--export", "exp"}), sandbox.dir()));
  EXPECT_EQ(names_in("exp"), (std::vector<std::string>{"1_copy.comp", "LICENSE", "README.md", "recipe.json", "recipe.md"}));
  // A folder holding anything else is not written into.
  std::ofstream(sandbox.dir() / "exp" / "notes.txt") << "mine";
  expect_refused_before_any_work(sandbox, copy_run({"--export", "exp"}),
                                 "--export 'exp/notes.txt': the earlier export there does not list it in its recipe.json; blurlab writes into "
                                 "an empty folder or over its own earlier export");
  fs::create_directories(sandbox.dir() / "mine");
  std::ofstream(sandbox.dir() / "mine" / "notes.txt") << "mine";
  expect_refused_before_any_work(sandbox, copy_run({"--export", "mine"}),
                                 "--export 'mine': it holds 'notes.txt' and no recipe.json of an earlier export; blurlab writes into an empty "
                                 "folder or over its own earlier export");
  // A file of the earlier export that cannot be replaced is refused before the run, not at its end.
  fs::remove(sandbox.dir() / "exp" / "notes.txt");
  fs::permissions(sandbox.dir() / "exp" / "recipe.md", fs::perms(0444));
  expect_refused_before_any_work(sandbox, copy_run({"--export", "exp"}), "--export 'exp/recipe.md': it is read-only (mode 0444)");
  fs::permissions(sandbox.dir() / "exp" / "recipe.md", fs::perms(0644));
  // A report over an earlier one: the earlier charts it does not make again go.
  expect_success(run_program(BLURLAB_PROGRAM, every_output(), sandbox.dir()));
  ASSERT_TRUE(fs::is_regular_file(sandbox.dir() / "page" / kBarsChart));
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--report", "page"}), sandbox.dir()));
  EXPECT_EQ(names_in("page"), (std::vector<std::string>{"report.csv", "report.json", "report.md"}));
}

TEST(AllOutputsOrNone, OutputDirectoriesAreCheckedBeforeAnyGlWork) {
  Sandbox sandbox;
  fs::create_symlink("nowhere", sandbox.dir() / "dangling");
  fs::create_directories(sandbox.dir() / "page" / "report.md");
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {copy_run({"--report", "dangling"}), "--report 'dangling': it is a symbolic link to 'nowhere', which does not exist"},
           {copy_run({"--export", "dangling"}), "--export 'dangling': it is a symbolic link to 'nowhere', which does not exist"},
           {copy_run({"--export", "in.png"}), "--export 'in.png': it is a regular file, not a directory"},
           {copy_run({"--output", "out.png", "--csv", "r.csv", "--report", "page"}), "--report 'page/report.md': it is a directory"}}) {
    const auto before = files_below(sandbox.dir());
    const ProgramResult r = run_program(BLURLAB_PROGRAM, args, sandbox.dir());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("GL_RENDERER"), std::string::npos) << "GL work before the check:\n" << r.out;
    EXPECT_EQ(files_below(sandbox.dir()), before);
  }
}

TEST(AllOutputsOrNone, ADirectoryThatCannotBeSearchedIsRefusedFirst) {
  // Write permission without search (x) permission: no file can be made in it. Root may do both,
  // so the program runs as nobody where this test runs as root.
  Sandbox sandbox;
  const fs::path shared = sandbox.dir() / "shared";
  fs::create_directories(shared / "locked");
  fs::copy_file(sandbox.dir() / "in.png", shared / "in.png");
  fs::permissions(shared, fs::perms::all);
  fs::permissions(shared / "locked", fs::perms(0666));
  std::vector<std::string> args = copy_run({"--csv", "r.csv", "--report", "locked"});
  std::string program = BLURLAB_PROGRAM;
  if (::geteuid() == 0) {
    if (::access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "root without setpriv: cannot drop the permissions";
    args.insert(args.begin(), {"--reuid=65534", "--regid=65534", "--clear-groups", "--", BLURLAB_PROGRAM});
    program = "/usr/bin/setpriv";
  }
  const ProgramResult r = run_program(program, args, shared);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--report 'locked': cannot write into it: Permission denied"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("GL_RENDERER"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(shared / "r.csv"));
}

// --- the chart step's child process ----------------------------------------------------------

// A stand-in for python3 that says it started (its pid into `pid_file`), then runs `body`.
fs::path fake_python(const Sandbox& sandbox, const std::string& body) {
  const fs::path script = sandbox.dir() / "fake_python";
  std::ofstream(script) << "#!/bin/sh\necho $$ > " << (sandbox.dir() / "child.pid").string() << ".tmp\nmv "
                        << (sandbox.dir() / "child.pid").string() << ".tmp " << (sandbox.dir() / "child.pid").string() << "\n"
                        << body << "\n";
  fs::permissions(script, fs::perms(0755));
  return script;
}

pid_t child_pid(const Sandbox& sandbox) {
  std::ifstream in(sandbox.dir() / "child.pid");
  pid_t pid = 0;
  in >> pid;
  return pid;
}

using test_fixtures::process_ended_within;

TEST(ChartChild, InterruptedDuringTheChartsLeavesNothingAndNoChild) {
  Sandbox sandbox;
  fs::create_directories(sandbox.dir() / "tmp");
  const fs::path python = fake_python(sandbox, "while :; do echo chart >> scratch.png; sleep 0.05; done");
  const auto before = files_below(sandbox.dir());
  const ProgramResult r = run_program(
      BLURLAB_PROGRAM, every_output(), sandbox.dir(),
      RunOptions{.env = {{"BLURLAB_PYTHON", python.string()}, {"TMPDIR", (sandbox.dir() / "tmp").string()}},
                 .while_running = [&](pid_t blurlab) {
                   for (int i = 0; i < 3000 && !fs::exists(sandbox.dir() / "child.pid"); ++i)
                     std::this_thread::sleep_for(std::chrono::milliseconds(10));
                   std::this_thread::sleep_for(std::chrono::milliseconds(200));  // it is writing now
                   ::kill(blurlab, SIGTERM);
                 }});
  ASSERT_TRUE(fs::exists(sandbox.dir() / "child.pid")) << "the chart step never started\n" << r.err;
  EXPECT_TRUE(r.crashed && r.signal == SIGTERM) << "SIGTERM must still end it: " << r.exit_code << " " << r.err;
  EXPECT_TRUE(process_ended_within(child_pid(sandbox), std::chrono::seconds(5))) << "the chart script outlived the run";
  fs::remove(sandbox.dir() / "child.pid");
  EXPECT_EQ(files_below(sandbox.dir()), before) << "a file of the run appeared, or a temporary stayed";
  EXPECT_FALSE(fs::exists(sandbox.dir() / "page"));
  EXPECT_TRUE(fs::is_empty(sandbox.dir() / "tmp")) << "the private directory stayed";
}

TEST(ChartChild, OneThatDoesNotFinishIsStopped) {
  Sandbox sandbox;
  const fs::path python = fake_python(sandbox, "exec sleep 1000");
  const auto start = std::chrono::steady_clock::now();
  const ProgramResult r = run_program(BLURLAB_PROGRAM, every_output(), sandbox.dir(),
                                      RunOptions{.env = {{"BLURLAB_PYTHON", python.string()}, {"BLURLAB_CHART_SECONDS", "2"}}});
  expect_success(r);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(40));
  EXPECT_NE(r.out.find("(no charts: " + python.string() + " did not finish within 2 s (BLURLAB_CHART_SECONDS) and was stopped;"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(process_ended_within(child_pid(sandbox), std::chrono::seconds(5)));
  EXPECT_TRUE(fs::is_regular_file(sandbox.dir() / "page" / "report.md"));
}

TEST(ChartChild, RunsNoCodeFromTheWorkingDirectory) {
  // charts.py imports textwrap: python3 -c put the working directory first on sys.path.
  Sandbox sandbox;
  std::ofstream(sandbox.dir() / "textwrap.py") << "open('" << (sandbox.dir() / "ran").string() << "', 'w').write('x')\n";
  const ProgramResult r = run_program(BLURLAB_PROGRAM, every_output(), sandbox.dir());
  expect_success(r);
  EXPECT_FALSE(fs::exists(sandbox.dir() / "ran")) << "textwrap.py of the working directory was run";
  EXPECT_TRUE(fs::is_regular_file(sandbox.dir() / "page" / kBarsChart)) << r.out;
}

TEST(ChartChild, AFifoInTheReportDirectoryDoesNotHangIt) {
  // It hung the chart step; then it failed after the timed run. Now it is refused before any work.
  Sandbox sandbox;
  fs::create_directories(sandbox.dir() / "page");
  ASSERT_EQ(::mkfifo((sandbox.dir() / "page" / kBarsChart).c_str(), 0600), 0);
  expect_refused_before_any_work(sandbox, every_output(),
                                 "--report 'page/" + kBarsChart +
                                     "': it is a FIFO, not a file an earlier report wrote; blurlab writes into an empty folder or over its own "
                                     "earlier report");
  EXPECT_TRUE(fs::is_fifo(sandbox.dir() / "page" / kBarsChart));
}

// --- signals and limits that end a write -----------------------------------------------------

TEST(WritesThatEnd, StdoutWithoutAReaderIsAReasonNotASignal) {
  // `blurlab ... --csv /dev/stdout | head -1`: SIGPIPE killed it and left its staged temporaries.
  Sandbox sandbox;
  const auto before = files_below(sandbox.dir());
  const ProgramResult r =
      run_program(BLURLAB_PROGRAM, copy_run({"--output", "out.png", "--csv", "/dev/stdout"}), sandbox.dir(), RunOptions{.stdout_reader_gone = true});
  ASSERT_FALSE(r.crashed) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "blurlab: cannot write to standard output: Broken pipe\n");
  EXPECT_EQ(files_below(sandbox.dir()), before);
}

TEST(WritesThatEnd, FileSizeLimitIsAReasonNotASignal) {
  // `ulimit -f`: SIGXFSZ killed it and left the temporary it was writing.
  Sandbox sandbox;
  const auto before = files_below(sandbox.dir());
  const std::vector<std::string> args = {"-c", "ulimit -f 64 && exec \"$0\" \"$@\"", BLURLAB_PROGRAM, "--headless", "--variant", "copy",
                                         "--size", "640x480", "--frames", "0", "--output", "out.png", "--csv", "r.csv"};
  const ProgramResult r = run_program("/bin/sh", args, sandbox.dir());
  ASSERT_FALSE(r.crashed) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "blurlab: cannot write --output 'out.png': File too large\n");
  EXPECT_EQ(files_below(sandbox.dir()), before);
}

// --- the tuning file: runs at the same time, and devices -------------------------------------

std::vector<std::string> tune_run(const std::string& size, const std::string& file) {
  return {"--headless", "--tune", "--variant", "copy", "--size", size, "--frames", "3", "--warmup", "0", "--tune-file", file};
}

TEST(TuningFile, TwoRunsAtOnceBothKeepTheirChoices) {
  // Both reported success and the file had one run's choices: the other's were lost.
  Sandbox sandbox;
  ProgramResult first, second;
  std::thread other([&] { second = run_program(BLURLAB_PROGRAM, tune_run("24x16", "t.json"), sandbox.dir()); });
  first = run_program(BLURLAB_PROGRAM, tune_run("16x16", "t.json"), sandbox.dir());
  other.join();
  expect_success(first);
  expect_success(second);
  const report::TuningTable table = report::TuningTable::load(sandbox.dir() / "t.json");
  std::vector<std::string> sizes;
  for (const report::TunedEntry& e : table.entries()) sizes.push_back(std::to_string(e.size.x) + "x" + std::to_string(e.size.y));
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(sizes, (std::vector<std::string>{"16x16", "24x16"}));
}

TEST(TuningFile, DevicesAreWrittenThroughLikeEveryOutput) {
  // --tune-file /dev/null was refused: the run read the device back as a tuning file to merge with.
  Sandbox sandbox;
  if (!sandbox.make_devices()) GTEST_SKIP() << "cannot make device nodes, and /dev is writable";
  const ProgramResult r = run_program(BLURLAB_PROGRAM, tune_run("16x16", "null"), sandbox.dir());
  expect_success(r);
  EXPECT_NE(r.out.find("saved the choices to null"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_character_file(sandbox.dir() / "null"));
}

// --- messages and escapes ----------------------------------------------------------------------

// Lines of `text` (split at '\n') that start with `prefix`.
size_t lines_starting_with(const std::string& text, const std::string& prefix) {
  size_t n = 0;
  for (size_t at = 0; at < text.size(); at = text.find('\n', at) == std::string::npos ? text.size() : text.find('\n', at) + 1)
    n += text.compare(at, prefix.size(), prefix) == 0;
  return n;
}

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Messages, NamesStayTextInShadersMarkdownJsonAndTheTerminal) {
  // A radius map named "m\nvoid main() {}\n..." became a line of the exported shader (its recipe
  // then ran another shader, exit 0), headings and links of report.md, and lines on stdout.
  Sandbox sandbox;
  const std::string map = "m\nvoid main() {}\n# H1 `x` ``` | _y_ \\\xff.png", image = "in\n# image ```.png";
  fs::copy_file(sandbox.dir() / "map.png", sandbox.dir() / map);
  fs::copy_file(sandbox.dir() / "in.png", sandbox.dir() / image);
  const ProgramResult r = run_program(BLURLAB_PROGRAM,
                                      {"--headless", "--variant", "variable-naive", "--kernel", "box", "--radius", "2", "--radius-map", map,
                                       "--image", image, "--frames", "0", "--export", "exp", "--report", "page", "--json", "r.json"},
                                      sandbox.dir());
  expect_success(r);
  EXPECT_EQ(lines_starting_with(r.out, "void main"), 0u) << r.out;
  EXPECT_EQ(lines_starting_with(r.out, "# "), 0u) << r.out;
  const std::string shader = file_text(sandbox.dir() / "exp" / "1_2d.comp");
  EXPECT_EQ(lines_starting_with(shader, "void main"), 1u) << shader.substr(0, 1500);
  EXPECT_NE(shader.find("// settings: box r=2 border=clamp map=m\\x5cnvoid main() {}\\x5cn# H1 `x` ``` | _y_ \\x5c\\xff.png"),
            std::string::npos)
      << shader.substr(0, 1500);
  for (const char* page : {"exp/recipe.md", "page/report.md"}) {
    const std::string md = file_text(sandbox.dir() / page);
    EXPECT_EQ(lines_starting_with(md, "void main"), 0u) << page;
    EXPECT_EQ(lines_starting_with(md, "# "), 1u) << page << ": only its title is a first-level heading";
    EXPECT_EQ(lines_starting_with(md, "# image"), 0u) << page;
  }
  for (const char* json : {"exp/recipe.json", "page/report.json", "r.json"})
    EXPECT_TRUE(nlohmann::json::accept(file_text(sandbox.dir() / json))) << json;
  EXPECT_NE(file_text(sandbox.dir() / "page" / "report.md").find("- input: ````in\\n# image ```.png````"), std::string::npos);
}

TEST(Messages, ATerminalWithNothingBehindItIsNotAFifo) {
  Sandbox sandbox;
  // A serial port's node with no port behind it: opening it fails with ENXIO, as a FIFO without a reader does.
  if (::mknod((sandbox.dir() / "tty").c_str(), S_IFCHR | 0600, makedev(4, 127)) != 0) GTEST_SKIP() << "mknod not permitted here";
  if (const int fd = ::open((sandbox.dir() / "tty").c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK); fd >= 0 || errno != ENXIO) {
    if (fd >= 0) ::close(fd);
    GTEST_SKIP() << "this machine has a port behind ttyS63";
  }
  expect_clean_failure({"tty", copy_run({"--csv", "tty"}), 1, "cannot write --csv 'tty': No such device or address"}, sandbox.dir(),
                       files_below(sandbox.dir()));
}

TEST(Messages, StdoutEscapesWhatStderrEscapes) {
  // "wrote NAME" printed a name's escape sequences raw, and a terminal obeyed them.
  Sandbox sandbox;
  const std::string name = "x\x1b[2J\x07\xc2\x9b.csv";
  const ProgramResult r = run_program(BLURLAB_PROGRAM, copy_run({"--csv", name}), sandbox.dir());
  expect_success(r);
  EXPECT_TRUE(fs::is_regular_file(sandbox.dir() / name)) << "the file has the name it was given";
  EXPECT_NE(r.out.find("wrote x\\e[2J\\x07\\u009b.csv\n"), std::string::npos) << r.out;
  for (const char c : r.out) EXPECT_TRUE(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)) << "a control character on stdout";
  // The same name in an error: the same escapes on stderr.
  fs::create_directories(sandbox.dir() / "adir" / name);
  const ProgramResult e = run_program(BLURLAB_PROGRAM, copy_run({"--csv", "adir/" + name}), sandbox.dir());
  EXPECT_EQ(e.err, "blurlab: --csv 'adir/x\\e[2J\\x07\\u009b.csv': it is a directory\n");
}

TEST(Messages, ControlBytesOfAJsonFileAreEscapedAsInNames) {
  // A JSON parse error quotes what it last read: an 8-bit CSI (0x9B, outside any UTF-8 character)
  // reached the terminal raw, while the same byte in a name... reached it too.
  Sandbox sandbox;
  std::ofstream(sandbox.dir() / "csi.json", std::ios::binary) << "{\"entries\": \x9b[2J}";
  const ProgramResult r = run_program(BLURLAB_PROGRAM, copy_run({"--tuned", "csi.json"}), sandbox.dir());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("last read: '\"entries\": \\x9b'"), std::string::npos) << r.err;
  for (const char c : r.err) EXPECT_FALSE(static_cast<unsigned char>(c) >= 0x80 && static_cast<unsigned char>(c) <= 0x9f) << r.err;
}

TEST(Messages, AFullDeviceOnStdoutSaysSo) {
  // `blurlab --list-variants > /dev/full` said "a write failed", where --csv /dev/full says why.
  Sandbox sandbox;
  if (!sandbox.make_devices()) GTEST_SKIP() << "cannot make device nodes, and /dev is writable";
  const ProgramResult r = run_program("/bin/sh", {"-c", "exec \"$0\" --list-variants > full", BLURLAB_PROGRAM}, sandbox.dir());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "blurlab: cannot write to standard output: No space left on device\n");
}

TEST(Messages, AReportOfTheCopyAloneSaysWhyItHasNoCharts) {
  // It told the user to "run with --frames above 0" when frames were given: only the copy was timed.
  Sandbox sandbox;
  expect_success(run_program(BLURLAB_PROGRAM, {"--headless", "--variant", "copy", "--size", "16x16", "--frames", "2", "--report", "page"},
                             sandbox.dir()));
  const std::string md = file_text(sandbox.dir() / "page" / "report.md");
  EXPECT_NE(md.find("No charts: only the copy pass was timed"), std::string::npos) << md;
  EXPECT_EQ(md.find("--frames above 0"), std::string::npos) << md;
}

TEST(OutputFolders, ALeftoverTemporaryFileIsNamedAsBlurlabsOwn) {
  // A run killed by SIGKILL leaves its staged .blurlab-XXXXXXXX.tmp files: the next run refused the
  // folder as if someone else's file were there.
  Sandbox sandbox;
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--report", "page"}), sandbox.dir()));
  std::ofstream(sandbox.dir() / "page" / ".blurlab-a1B2c3D4.tmp") << "half a chart";
  expect_refused_before_any_work(sandbox, copy_run({"--report", "page"}),
                                 "--report 'page/.blurlab-a1B2c3D4.tmp': a temporary file of an earlier blurlab run that was killed before it "
                                 "could remove it (SIGKILL, a power cut): blurlab's own, safe to remove; blurlab writes into an empty folder or over "
                                 "its own earlier report");
}

TEST(ListModes, ListRefusalsListsTheVariantsAsked) {
  // --list-refusals --variant fft listed every variant.
  Sandbox sandbox;
  const ProgramResult r = run_program(BLURLAB_PROGRAM, {"--list-refusals", "--variant", "fft,copy", "--size", "8x8"}, sandbox.dir());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "fft -\ncopy -\n");
  // And says what the fft's program bound refuses.
  const ProgramResult w = run_program(BLURLAB_PROGRAM, {"--list-refusals", "--variant", "fft", "--workgroup", "1", "--size", "8x8"}, sandbox.dir());
  EXPECT_EQ(w.out, "fft knobs\n") << w.err;
}

// --- the recipe runner: blurlab's rules for the targets it writes ------------------------------
// (tests/export_hostile_recipe.cmake takes its tampered recipes; here its OUT.png on special files.)

// An export of compute-separable in the sandbox, folder "exp", for the runner.
void export_for_runner(const Sandbox& sandbox) {
  expect_success(run_program(BLURLAB_PROGRAM, {"--headless", "--variant", "compute-separable", "--kernel", "box", "--radius", "2", "--image",
                                               "in.png", "--frames", "0", "--export", "exp"},
                             sandbox.dir()));
}

TEST(RecipeRunner, OutputTargetsFollowBlurlabsRule) {
  Sandbox sandbox;
  const fs::path& dir = sandbox.dir();
  if (!sandbox.make_devices()) GTEST_SKIP() << "cannot make device nodes, and /dev is writable";
  export_for_runner(sandbox);
  const auto runner = [&](const std::string& out) { return run_program(BLURLAB_RUN_RECIPE, {"exp/recipe.json", "in.png", out}, dir); };
  const auto expect_one_line = [](const ProgramResult& r, int code, const std::string& message) {
    ASSERT_FALSE(r.crashed) << r.err;
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_EQ(r.err.rfind("blurlab-run-recipe: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not exactly one line:\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << "expected '" << message << "' in: " << r.err;
  };
  const auto before = files_below(dir);
  // A device of the test's own: written through, and a device still (the runner refused it).
  const ProgramResult null = runner("null.png");
  EXPECT_EQ(null.exit_code, 0) << null.err;
  EXPECT_TRUE(fs::is_character_file(dir / "null.png"));
  expect_one_line(runner("full.png"), 1, "cannot write OUT.png 'full.png': No space left on device");
  EXPECT_TRUE(fs::is_character_file(dir / "full.png"));
  // /dev/stdout's kind of link, the test's own, with stdout a file: refused, the link kept (it was
  // replaced with a regular file: as root, /dev/stdout of the whole machine).
  fs::create_symlink("/proc/self/fd/1", dir / "stdout");
  const ProgramResult proc = run_program("/bin/sh", {"-c", "exec \"$0\" exp/recipe.json in.png stdout > captured", BLURLAB_RUN_RECIPE}, dir);
  expect_one_line(proc, 1, "OUT.png 'stdout': it leads through /proc to a file a process has open; name the file itself");
  EXPECT_TRUE(fs::is_symlink(dir / "stdout"));
  fs::remove(dir / "captured");
  // Read-only, as root too: refused, the file kept (it was replaced).
  expect_one_line(runner("read_only.csv"), 1, "OUT.png 'read_only.csv': it is read-only (mode 0444)");
  EXPECT_EQ(file_text(dir / "read_only.csv"), "kept");
  // A block device and a directory: refused before any work.
  if (::mknod((dir / "disk.png").c_str(), S_IFBLK | 0600, makedev(7, 0)) == 0) {
    expect_one_line(runner("disk.png"), 1, "OUT.png 'disk.png': it is a block device");
    EXPECT_TRUE(fs::is_block_file(dir / "disk.png"));
    fs::remove(dir / "disk.png");
  }
  expect_one_line(runner("adir"), 1, "OUT.png 'adir': it is a directory");
  fs::remove(dir / "stdout");
  EXPECT_EQ(files_below(dir), before) << "a file appeared or vanished";
}

TEST(TestTools, WriteTheirOutputsAsBlurlabDoes) {
  // blurlab-make-chart --map wrote through libpng's own fopen: as root it replaced a read-only file.
  Sandbox sandbox;
  std::ofstream(sandbox.dir() / "read_only.png") << "kept";
  fs::permissions(sandbox.dir() / "read_only.png", fs::perms(0444));
  for (const char* mode : {"--map", "--noise"}) {
    const ProgramResult r = run_program(BLURLAB_MAKE_CHART, {mode, "5", "5", "read_only.png"}, sandbox.dir());
    EXPECT_EQ(r.exit_code, 1) << mode << ": " << r.err;
    EXPECT_NE(r.err.find("'read_only.png': it is read-only (mode 0444)"), std::string::npos) << mode << ": " << r.err;
    EXPECT_EQ(file_text(sandbox.dir() / "read_only.png"), "kept") << mode;
  }
}

}  // namespace
}  // namespace blurlab::test
