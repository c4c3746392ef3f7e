// Bad input against the real program: every case must end with exit code 2 (usage) or 1 (run
// time), exactly one line on stderr that starts with "blurlab: ", no crash, and no file written.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "blur/registry.h"
#include "image/image.h"
#include "run_program.h"

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
    fs::create_directories(dir_ / "empty_glsl");
    save_png(Image(37, 23), dir_ / "in.png");
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
    fs::copy(BLURLAB_GLSL_DIR, dir_ / "broken_glsl");
    std::ofstream(dir_ / "broken_glsl" / "copy.comp") << "#version 430 core\nlayout(local_size_x = WG_X) in;\nvoid main() {\n  nonsense;\n}\n";
    // Compiles, runs, and blurs wrongly: a --check that fails.
    fs::copy(BLURLAB_GLSL_DIR, dir_ / "wrong_glsl");
    std::ofstream(dir_ / "wrong_glsl" / "copy.comp")
        << "#version 430 core\nlayout(local_size_x = WG_X, local_size_y = WG_Y) in;\n"
           "layout(DST_FORMAT, binding = 1) uniform restrict writeonly image2D u_dst;\n"
           "void main() { imageStore(u_dst, ivec2(gl_GlobalInvocationID.xy), vec4(0.25)); }\n";
  }
  ~Sandbox() { fs::remove_all(dir_); }
  const fs::path& dir() const { return dir_; }

  // "null" and "full" in the sandbox: copies of /dev/null and /dev/full made with mknod, or, where
  // that is not permitted, links to the real ones, but only when /dev cannot be written (then
  // nothing can replace them). Never the real nodes where a bug could replace them: as root, an
  // old blurlab renamed a regular file over /dev/null.
  bool make_devices() {
    for (const auto& [name, minor] : {std::pair{"null", 3u}, std::pair{"full", 7u}}) {
      if (::mknod((dir_ / name).c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) continue;
      if (::access("/dev", W_OK) == 0) return false;
      fs::create_symlink(fs::path("/dev") / name, dir_ / name);
    }
    return true;
  }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
};

void expect_clean_failure(const Case& c, const fs::path& dir, const std::vector<std::string>& files_before) {
  const ProgramResult r = run_program(BLURLAB_PROGRAM, c.args, dir, c.env);
  ASSERT_FALSE(r.crashed) << "killed by signal " << r.signal << "\n" << r.err;
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
    EXPECT_FALSE(fs::is_regular_file(sandbox.dir() / "full")) << "the device was replaced";
  }
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
      {"radius_too_big", {"--radius", "129"}, 2, "out of range 0..128"},
      {"radius_overflow", {"--radius", "99999999999999999999"}, 2, "--radius"},
      {"radius_empty_item", {"--radius", "1,,2"}, 2, "empty list item"},
      {"radius_backwards_range", {"--radius", "5:1"}, 2, "ends before it starts"},
      {"radius_zero_step", {"--radius", "1:8:0"}, 2, "step"},
      {"radius_factor_one", {"--radius", "1:8:x1"}, 2, "step"},
      {"radius_geometric_from_zero", {"--radius", "0:8:x2"}, 2, "start above 0"},
      {"radius_four_parts", {"--radius", "1:2:3:4"}, 2, "range"},
      {"radius_range_too_far", {"--radius", "0:300"}, 2, "out of range"},
      {"sigma_zero", {"--sigma", "0"}, 2, "out of range"},
      {"sigma_negative", {"--sigma", "-1"}, 2, "--sigma"},
      {"sigma_nan", {"--sigma", "nan"}, 2, "not a number"},
      {"sigma_inf", {"--sigma", "inf"}, 2, "not a number"},
      {"sigma_overflow", {"--sigma", "1e400"}, 2, "not a number"},
      {"sigma_hex", {"--sigma", "0x10"}, 2, "not a number"},
      {"sigma_needs_large_radius", {"--sigma", "50"}, 2, "give --radius"},
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
      {"segment_zero", {"--segment", "0"}, 2, "out of range"},
      {"segment_not_a_knob", {"--variant", "frag-separable", "--segment", "64"}, 2, "has no knob 'segment'"},
      {"cache_unknown", {"--cache", "fp8"}, 2, "--cache 'fp8' is not fp32|fp16"},
      {"cache_not_a_knob", {"--variant", "compute-separable", "--cache", "fp16"}, 2, "has no knob 'cache'"},
      {"intermediate_not_a_knob", {"--variant", "frag-naive", "--format", "rgba16f"}, 2, "no intermediate"},
      {"warmup_negative", {"--warmup", "-1"}, 2, "out of range"},
      {"warmup_word", {"--warmup", "x"}, 2, "not a whole number"},
      {"warmup_list", {"--warmup", "1,2"}, 2, "one number"},
      {"warmup_plus_minus", {"--warmup", "+-0"}, 2, "not a whole number"},  // found by fuzz_lists
      {"frames_negative", {"--frames", "-2"}, 2, "out of range"},
      {"frames_too_many", {"--frames", "100001"}, 2, "out of range"},
      {"frames_fraction", {"--frames", "1.5"}, 2, "not a whole number"},
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
      {"image_empty", {"--image", ""}, 2, "needs a file name"},
      {"image_with_size", {"--image", "in.png", "--size", "10x10"}, 2, "--size does not apply"},
      {"print_kernel_two_radii", {"--print-kernel", "--radius", "1,2"}, 2, "single kernel"},
      {"print_kernel_two_kernels", {"--print-kernel", "--kernel", "box,gauss"}, 2, "single kernel"},
      {"screenshot_headless", {"--headless", "--screenshot", "s.png", "--frames", "2"}, 2, "--screenshot applies to the window"},
      {"screenshot_without_frames", {"--screenshot", "s.png"}, 2, "needs --frames"},
      {"script_headless", {"--headless", "--script", "1:key=G"}, 2, "--script applies to the window"},
      {"script_unknown_key", {"--script", "3:key=Q"}, 2, "unknown key 'Q'"},
      {"script_malformed", {"--script", "three:key=G"}, 2, "frame number"},
      {"tune_with_check", {"--headless", "--tune", "--check"}, 2, "--tune"},
      {"tune_without_frames", {"--headless", "--tune", "--frames", "0"}, 2, "timed frames"},
      {"tune_with_tuned", {"--headless", "--tune", "--tuned", "t.json"}, 2, "do not go together"},
      {"csv_missing", {"--csv"}, 2, "--csv"},
      {"json_empty", {"--json", ""}, 2, "needs a file name"},
      {"shader_dir_missing", {"--headless", "--shader-dir", "nowhere"}, 2, "not a directory"},
      // Run-time failures: exit code 1.
      {"image_missing", {"--headless", "--variant", "copy", "--image", "missing.png", "--output", out}, 1, "cannot read 'missing.png'"},
      {"image_is_directory", {"--headless", "--variant", "copy", "--image", "adir", "--output", out}, 1, "is a directory"},
      {"output_in_missing_directory", {"--headless", "--variant", "copy", "--image", "in.png", "--output", "no/such/out.png"}, 1,
       "cannot write into"},
      {"output_is_directory", {"--headless", "--variant", "copy", "--image", "in.png", "--output", "adir"}, 1, "is a directory"},
      {"csv_in_missing_directory", {"--headless", "--variant", "copy", "--frames", "1", "--csv", "no/x.csv"}, 1, "cannot write into"},
      {"json_is_directory", {"--headless", "--variant", "copy", "--frames", "1", "--json", "adir"}, 1, "is a directory"},
      {"tuned_missing", {"--headless", "--variant", "copy", "--tuned", "missing.json"}, 1, "cannot read the tuning file"},
      {"tuned_garbage", {"--headless", "--variant", "copy", "--tuned", "garbage.json"}, 1, "not a blurlab tuning file"},
      {"tuned_segment_zero", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_segment_zero.json"}, 1,
       "tuning file 'tuned_segment_zero.json', entry 0: knob segment '0' is out of range 1..16384"},
      {"tuned_workgroup_huge", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_workgroup_huge.json"}, 1,
       "knob workgroup '100000x1' is larger than 1024"},
      {"tuned_workgroup_zero", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_workgroup_zero.json"}, 1,
       "knob workgroup '0x0' must have positive sides"},
      {"tuned_unknown_knob", {"--headless", "--variant", "compute-sliding", "--kernel", "box", "--tuned", "tuned_unknown_knob.json"}, 1,
       "compute-sliding has no knob 'turbo'"},
      {"tuned_not_a_file", {"--headless", "--variant", "copy", "--tuned", "adir"}, 1, "not a regular file"},
      {"shader_broken", {"--headless", "--variant", "copy", "--shader-dir", "broken_glsl", "--image", "in.png", "--output", out}, 1,
       "copy.comp:4"},
      {"shader_missing", {"--headless", "--variant", "copy", "--shader-dir", "empty_glsl", "--image", "in.png", "--output", out}, 1,
       "cannot read shader"},
      {"no_gl43_headless", {"--headless", "--variant", "copy", "--frames", "1"}, 1, "OpenGL 4.3 core is not available",
       {{"MESA_GL_VERSION_OVERRIDE", "4.2"}}},
      {"window_options_without_display", {"--script", "1:key=G", "--frames", "2"}, 1, "no display"},
      // Special files as targets: written through and their errors reported, never replaced.
      {"csv_to_dev_full", {"--headless", "--variant", "copy", "--frames", "1", "--size", "8x8", "--csv", "full"}, 1,
       "cannot write 'full': No space left on device", {}, true},
      {"json_to_dev_full", {"--headless", "--variant", "copy", "--frames", "1", "--size", "8x8", "--json", "full"}, 1,
       "No space left on device", {}, true},
      {"output_to_dev_full", {"--headless", "--variant", "copy", "--image", "in.png", "--frames", "0", "--output", "full"}, 1,
       "No space left on device", {}, true},
      // Outputs of a failed run: none is written.
      {"output_not_written_when_csv_fails",
       {"--headless", "--variant", "copy", "--image", "in.png", "--frames", "0", "--output", out, "--csv", "full"}, 1,
       "cannot write 'full'", {}, true},
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
      {"image_proc_self_mem", {"--headless", "--variant", "copy", "--image", "/proc/self/mem", "--output", out}, 1, ""},
      // Names and sizes: a name too long is refused before any GL work (here: none available).
      {"output_name_too_long", {"--headless", "--variant", "copy", "--image", "in.png", "--output", std::string(252, 'n') + ".png"}, 1,
       "the file name is 256 bytes long", {{"MESA_GL_VERSION_OVERRIDE", "4.2"}}},
  };
  // 4096 sigmas x 129 radii: refused at once, with the number (it once ran for minutes).
  std::string sigmas;
  for (int i = 1; i <= 4096; ++i) sigmas += (i > 1 ? "," : "") + std::to_string(i * 0.01);
  cases.push_back({"sweep_of_4096_sigmas_by_129_radii", {"--headless", "--variant", "frag-naive", "--radius", "0:128", "--sigma", sigmas},
                   2, "the sweep has 528384 configurations, more than 100000 in one run"});
  // Every box-only variant refuses the Gaussian, by name, when asked for it alone.
  for (const VariantInfo* v : variants())
    if (v->kernels == KernelSupport::BoxOnly)
      cases.push_back({std::string("gauss_refused_") + std::string(v->name),
                       {"--headless", "--variant", std::string(v->name), "--kernel", "gauss", "--image", "in.png", "--output", out,
                        "--frames", "0"},
                       2,
                       "box kernel only"});
  for (Case& c : cases)
    for (char& ch : c.name)
      if (ch == '-') ch = '_';
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cli, BadArguments, ::testing::ValuesIn(bad_arguments()), [](const auto& p) { return p.param.name; });

// --- malformed PNG files, made here ---------------------------------------------------------

uint32_t crc_of(const std::string& type_and_data) {
  return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(type_and_data.data()),
                                     static_cast<uInt>(type_and_data.size())));
}

std::string be32(uint32_t v) {
  return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

std::string chunk(const std::string& type, const std::string& data) {
  return be32(static_cast<uint32_t>(data.size())) + type + data + be32(crc_of(type + data));
}

const std::string kSignature("\x89PNG\r\n\x1a\n", 8);

std::string ihdr(uint32_t w, uint32_t h, int depth = 8, int color = 6, int compression = 0, int filter = 0, int interlace = 0) {
  return chunk("IHDR", be32(w) + be32(h) + std::string{static_cast<char>(depth), static_cast<char>(color),
                                                     static_cast<char>(compression), static_cast<char>(filter),
                                                     static_cast<char>(interlace)});
}

// Filter byte 0 + RGBA for each row, zlib-compressed; `rows` may be fewer than the image has.
std::string idat(uint32_t w, uint32_t rows) {
  std::string raw;
  for (uint32_t y = 0; y < rows; ++y) {
    raw += '\0';
    for (uint32_t x = 0; x < w * 4; ++x) raw += static_cast<char>((x * 7 + y * 13) & 0xff);
  }
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string packed(size, '\0');
  compress(reinterpret_cast<Bytef*>(packed.data()), &size, reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()));
  packed.resize(size);
  return chunk("IDAT", packed);
}

std::string valid_png() { return kSignature + ihdr(11, 7) + idat(11, 7) + chunk("IEND", ""); }

struct BadFile {
  std::string name;
  std::string bytes;
  bool directory = false;
};

void PrintTo(const BadFile& f, std::ostream* os) { *os << f.name; }

std::vector<BadFile> bad_files() {
  const std::string good = valid_png();
  std::vector<BadFile> files;
  // Cut short anywhere: inside the signature, the IHDR, the IDAT, the IEND.
  for (size_t length : {size_t{0}, size_t{1}, size_t{4}, size_t{7}, size_t{8}, size_t{12}, size_t{16}, size_t{20}, size_t{29},
                        size_t{33}, size_t{34}, size_t{40}, size_t{45}, good.size() / 2, good.size() - 13, good.size() - 12,
                        good.size() - 8, good.size() - 5, good.size() - 1})
    files.push_back({"truncated_" + std::to_string(length), good.substr(0, length)});
  // Not a PNG at all.
  files.push_back({"gif_header", "GIF89a" + std::string(40, '\1')});
  files.push_back({"jpeg_header", std::string("\xFF\xD8\xFF\xE0", 4) + std::string(60, '\2')});
  files.push_back({"bmp_header", "BM" + std::string(60, '\3')});
  files.push_back({"text", "hello, I am not an image\n"});
  files.push_back({"zeros", std::string(64, '\0')});
  files.push_back({"signature_one_byte_off", "\x88" + good.substr(1)});
  files.push_back({"signature_only", kSignature});
  // A readable structure with impossible header fields (CRCs correct).
  const std::string rest = idat(11, 7) + chunk("IEND", "");
  files.push_back({"zero_width", kSignature + ihdr(0, 7) + rest});
  files.push_back({"zero_height", kSignature + ihdr(11, 0) + rest});
  files.push_back({"huge_width", kSignature + ihdr(0x7fffffff, 7) + rest});
  files.push_back({"huge_height", kSignature + ihdr(11, 100000) + rest});
  files.push_back({"huge_both", kSignature + ihdr(20000, 20000) + rest});
  files.push_back({"width_just_above_limit", kSignature + ihdr(16385, 1) + rest});
  files.push_back({"bit_depth_3", kSignature + ihdr(11, 7, 3) + rest});
  files.push_back({"color_type_5", kSignature + ihdr(11, 7, 8, 5) + rest});
  files.push_back({"compression_1", kSignature + ihdr(11, 7, 8, 6, 1) + rest});
  files.push_back({"filter_method_1", kSignature + ihdr(11, 7, 8, 6, 0, 1) + rest});
  files.push_back({"interlace_2", kSignature + ihdr(11, 7, 8, 6, 0, 0, 2) + rest});
  // Damaged bytes: the CRCs catch what the decoder would not.
  for (size_t at : {size_t{20}, size_t{29}, size_t{40}, good.size() - 16, good.size() - 5, good.size() - 1}) {
    std::string damaged = good;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    files.push_back({"flipped_byte_" + std::to_string(at), damaged});
  }
  files.push_back({"idat_length_huge", kSignature + ihdr(11, 7) + be32(0xfffffff0u) + "IDAT" + std::string(16, '\0')});
  files.push_back({"idat_not_zlib", kSignature + ihdr(11, 7) + chunk("IDAT", std::string(50, '\x33')) + chunk("IEND", "")});
  files.push_back({"idat_too_few_rows", kSignature + ihdr(11, 7) + idat(11, 3) + chunk("IEND", "")});
  files.push_back({"idat_empty", kSignature + ihdr(11, 7) + chunk("IDAT", "") + chunk("IEND", "")});
  files.push_back({"no_idat", kSignature + ihdr(11, 7) + chunk("IEND", "")});
  files.push_back({"no_iend", kSignature + ihdr(11, 7) + idat(11, 7)});
  files.push_back({"no_ihdr", kSignature + idat(11, 7) + chunk("IEND", "")});
  files.push_back({"two_ihdr", kSignature + ihdr(11, 7) + ihdr(11, 7) + rest});
  files.push_back({"ihdr_too_short", kSignature + chunk("IHDR", std::string(5, '\1')) + rest});
  files.push_back({"chunk_type_not_letters", kSignature + ihdr(11, 7) + chunk("ID@T", "x") + rest});
  files.push_back({"a_directory", "", true});
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
  const Case c{f.name, {"--headless", "--variant", "copy", "--frames", "0", "--image", "bad.png", "--output", "out.png"}, 1, "bad.png"};
  expect_clean_failure(c, sandbox.dir(), files_below(sandbox.dir()));
}

INSTANTIATE_TEST_SUITE_P(Png, BadImages, ::testing::ValuesIn(bad_files()), [](const auto& p) { return p.param.name; });

TEST(GoodImages, TheValidTemplateLoads) {
  // The malformed files above are made from this one: it must itself be fine, or the tests
  // above would pass for the wrong reason.
  Sandbox sandbox;
  std::ofstream(sandbox.dir() / "good.png", std::ios::binary) << valid_png();
  const ProgramResult r = run_program(BLURLAB_PROGRAM,
                                      {"--headless", "--variant", "copy", "--frames", "0", "--image", "good.png", "--output", "out.png"},
                                      sandbox.dir());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const Image back = load_png(sandbox.dir() / "out.png");
  EXPECT_EQ(back.width, 11);
  EXPECT_EQ(back.height, 7);
  EXPECT_EQ(to_rgba8(back)[4 * 3 + 1], static_cast<uint8_t>((13 * 7) & 0xff));  // x=3 (byte 13) of row 0
}

// --- hostile targets that need a setup: device nodes, FIFOs, links, immutable files ------------

bool set_immutable(const fs::path& p, bool on) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK);
  if (fd < 0) return false;
  int flags = 0;
  bool ok = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
  ok = ok && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
  ::close(fd);
  return ok;
}

const std::vector<std::string> kCopyRun = {"--headless", "--variant", "copy", "--image", "in.png", "--frames", "0"};

std::vector<std::string> copy_run(std::initializer_list<std::string> more) {
  std::vector<std::string> args = kCopyRun;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

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
  expect_success(run_program(BLURLAB_PROGRAM, copy_run({"--output", "null", "--csv", "null", "--json", "null"}), dir));
  EXPECT_TRUE(fs::is_character_file(dir / "null"));
  expect_clean_failure({"dev_full", copy_run({"--csv", "full"}), 1, "cannot write 'full': No space left on device"}, dir, before);
  EXPECT_TRUE(fs::is_character_file(dir / "full"));
  EXPECT_EQ(files_below(dir), before);
}

TEST(HostileTargets, BlockDeviceIsRefusedBeforeAnyWork) {
  Sandbox sandbox;
  if (::mknod((sandbox.dir() / "disk").c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0) GTEST_SKIP() << "mknod not permitted here";
  expect_clean_failure({"block_device", copy_run({"--output", "disk"}), 1, "--output 'disk': it is a block device",
                        {{"MESA_GL_VERSION_OVERRIDE", "4.2"}}},
                       sandbox.dir(), files_below(sandbox.dir()));
  EXPECT_TRUE(fs::is_block_file(sandbox.dir() / "disk"));
}

TEST(HostileTargets, FifoWithoutReaderFailsWithoutHanging) {
  Sandbox sandbox;
  ASSERT_EQ(::mkfifo((sandbox.dir() / "pipe").c_str(), 0600), 0);
  expect_clean_failure({"fifo", copy_run({"--csv", "pipe"}), 1, "cannot write 'pipe': no process is reading from it"}, sandbox.dir(),
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
  if (!fs::exists(BLURLAB_XVFB_RUN)) GTEST_SKIP() << "no xvfb-run";
  Sandbox sandbox;
  if (!sandbox.make_devices()) GTEST_SKIP() << "cannot make device nodes, and /dev is writable";
  const auto before = files_below(sandbox.dir());
  for (const auto& [target, message] : {std::pair<std::string, std::string>{"full", "cannot write 'full': No space left on device"},
                                        std::pair<std::string, std::string>{"adir", "--screenshot 'adir': it is a directory"}}) {
    const ProgramResult r = run_program(BLURLAB_XVFB_RUN, {"-a", BLURLAB_PROGRAM, "--frames", "2", "--size", "64x48", "--screenshot", target},
                                        sandbox.dir());
    ASSERT_FALSE(r.crashed) << r.err;
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err.rfind("blurlab: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not exactly one line:\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::is_regular_file(sandbox.dir() / "full")) << "the device was replaced";
  EXPECT_EQ(files_below(sandbox.dir()), before);
}

}  // namespace
}  // namespace blurlab::test
