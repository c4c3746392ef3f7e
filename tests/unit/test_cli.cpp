#include <gtest/gtest.h>

#include <initializer_list>

#include "blur/registry.h"
#include "cli/lists.h"
#include "cli/options.h"
#include "util/error.h"

namespace blurlab::cli {
namespace {

Options parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"blurlab"};
  argv.insert(argv.end(), args.begin(), args.end());
  return parse_options(static_cast<int>(argv.size()), argv.data());
}

std::string usage_error(std::initializer_list<const char*> args) {
  try {
    parse(args);
  } catch (const UsageError& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no usage error";
  return {};
}

TEST(Lists, Values) {
  EXPECT_EQ(parse_int_list("1,2,4", "--radius", 0, 128), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(parse_int_list("1:4", "--radius", 0, 128), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_int_list("0:64:16", "--radius", 0, 128), (std::vector<int>{0, 16, 32, 48, 64}));
  EXPECT_EQ(parse_int_list("1:64:x2", "--radius", 0, 128), (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_EQ(parse_int_list("1:10:x3,100", "--radius", 0, 128), (std::vector<int>{1, 3, 9, 100}));
  EXPECT_EQ(parse_int_list(" 5 , 6 ", "--radius", 0, 128), (std::vector<int>{5, 6}));
}

TEST(Lists, Errors) {
  for (const char* bad : {"", ",", "1,,2", "a", "1.5", "4:1", "1:8:0", "1:8:x1", "0:8:x2", "1:2:3:4", "129", "-1", "1:200",
                          "99999999999999999999", "3x", "1:8:y"}) {
    EXPECT_THROW(parse_int_list(bad, "--radius", 0, 128), UsageError) << "'" << bad << "'";
  }
  EXPECT_THROW(parse_int_list("0:100000", "--segment", 0, 1000000), UsageError);  // too many values
}

TEST(Lists, Sizes) {
  EXPECT_EQ(parse_size_list("1920x1080,4096X4096", "--size", 16384), (std::vector<glm::ivec2>{{1920, 1080}, {4096, 4096}}));
  EXPECT_EQ(parse_size_list("256,16x16", "--workgroup", 1024, true), (std::vector<glm::ivec2>{{256, 1}, {16, 16}}));
  for (const char* bad : {"0x10", "10x0", "-5x5", "x", "10", "10x10x10", "abc", "70000x10", "1e3x5"})
    EXPECT_THROW(parse_size_list(bad, "--size", 65536), UsageError) << bad;
}

TEST(Lists, Doubles) {
  EXPECT_EQ(parse_double_list("10,2.5", "--sigma", 0.0, 1000.0), (std::vector<double>{10.0, 2.5}));
  for (const char* bad : {"0", "-1", "nan", "inf", "1e9", "ten", "1,", "0x10"})
    EXPECT_THROW(parse_double_list(bad, "--sigma", 0.0, 1000.0), UsageError) << bad;
}

TEST(Options, Defaults) {
  const Options o = parse({});
  EXPECT_FALSE(o.headless);
  EXPECT_TRUE(o.variants.empty());
  ASSERT_EQ(o.kernel_list().size(), 1u);
  EXPECT_EQ(o.kernel_list()[0], (Kernel{KernelType::Gauss, 16, 16 / 3.0}));
  EXPECT_EQ(o.frames, 30);
  EXPECT_EQ(parse({"--check"}).frames, 0);
  EXPECT_EQ(parse({"--check", "--frames", "7"}).frames, 7);
}

TEST(Options, Sweeps) {
  const Options o = parse({"--headless", "--variant", "frag-naive,compute-separable", "--kernel", "box,gauss", "--radius", "1:4:x2",
                           "--format", "rgba8,rgba16f", "--size", "64x32,16x16"});
  EXPECT_EQ(o.variants.size(), 2u);
  EXPECT_EQ(o.kernel_list().size(), 6u);
  EXPECT_EQ(o.sizes.size(), 2u);
  EXPECT_EQ(o.settings_list(*find_variant("frag-naive"), gl::Format::rgba8).size(), 6u);  // no intermediate: formats do not apply
  EXPECT_EQ(o.settings_list(*find_variant("compute-separable"), gl::Format::rgba8).size(), 12u);
  for (const BlurSettings& s : o.settings_list(*find_variant("compute-separable"), gl::Format::rgba16f))
    EXPECT_EQ(s.input_format, gl::Format::rgba16f);
}

TEST(Options, KnobsAreOneOptionPerNameAndSweepAsAProduct) {
  // Every knob name of the registry is an option, with its ranges (integer knobs take ranges).
  for (const Knob& k : all_knobs()) EXPECT_NE(parse({"--help"}).help_text.find("--" + std::string(k.name)), std::string::npos) << k.name;
  const Options o = parse({"--headless", "--variant", "compute-sliding,compute-scan", "--segment", "16:64:x2", "--unroll", "1,8",
                           "--workgroup", "64,32x8"});
  ASSERT_EQ(o.knob_values.at("segment").size(), 3u);
  EXPECT_EQ(o.knob_values.at("workgroup")[0], (KnobValue{64, 1}));  // N means Nx1
  const auto list = o.settings_list(*find_variant("compute-sliding"), gl::Format::rgba8);
  EXPECT_EQ(list.size(), 3u * 2u * 2u);
  for (const BlurSettings& s : list) EXPECT_EQ(s.knobs.size(), 3u);
  // A knob the variant lacks is left out of its settings, not passed on.
  const Options regblock = parse({"--headless", "--variant", "compute-inline-regblock,compute-sliding", "--block-x", "8"});
  for (const BlurSettings& s : regblock.settings_list(*find_variant("compute-sliding"), gl::Format::rgba8)) EXPECT_EQ(s.knobs.count("block-x"), 0u);
  for (const BlurSettings& s : regblock.settings_list(*find_variant("compute-inline-regblock"), gl::Format::rgba8))
    EXPECT_EQ(s.knobs.at("block-x"), (KnobValue{8, 0}));
}

TEST(Options, BorderModesSweepLikeKernels) {
  const Options o = parse({"--headless", "--border", "clamp,wrap,constant", "--border-value", "1,0.5,0,1", "--kernel", "box,gauss"});
  EXPECT_EQ(o.borders, (std::vector<BorderMode>{BorderMode::Clamp, BorderMode::Wrap, BorderMode::Constant}));
  const auto list = o.settings_list(*find_variant("compute-sliding"), gl::Format::rgba8);
  ASSERT_EQ(list.size(), 6u);
  for (const BlurSettings& s : list)
    EXPECT_EQ(s.border.value, s.border.mode == BorderMode::Constant ? (Rgba{1.0f, 0.5f, 0.0f, 1.0f}) : Rgba{}) << name(s.border.mode);
  EXPECT_EQ(o.settings_list(*find_variant("copy"), gl::Format::rgba8).size(), 1u) << "the copy pass reads no border: once";
  EXPECT_EQ(o.settings_list(*find_variant("copy"), gl::Format::rgba8)[0].border, Border{});
  const Options defaults = parse({});
  EXPECT_EQ(defaults.borders, std::vector<BorderMode>{BorderMode::Clamp});
  EXPECT_EQ(defaults.border_value, Rgba{}) << "transparent black";
  EXPECT_EQ(parse({"--border", "wrap,wrap"}).borders.size(), 1u);
}

TEST(Options, BorderErrors) {
  EXPECT_EQ(usage_error({"--border", "mirror"}), "--border 'mirror' is not clamp, reflect, reflect101, wrap or constant");
  EXPECT_EQ(usage_error({"--border", "wrap", "--border-value", "1,1,1,1"}), "--border-value applies to --border constant only");
  EXPECT_EQ(usage_error({"--border-value", "1,1,1,1"}), "--border-value applies to --border constant only");
  EXPECT_EQ(usage_error({"--border", "constant", "--border-value", "1,1,1"}), "--border-value '1,1,1' is not R,G,B,A (four numbers)");
  EXPECT_EQ(usage_error({"--border", "constant", "--border-value", "1,-1,1,1"}), "--border-value '1,-1,1,1' has -1, outside 0..65504");
  usage_error({"--border", ""});
  usage_error({"--border", "constant", "--border-value", "nan,0,0,0"});
  EXPECT_THROW(check_window_options(parse({"--border", "clamp,wrap"})), UsageError) << "the window shows one mode";
}

TEST(Options, SigmaAlone) {
  const Options o = parse({"--sigma", "10"});
  EXPECT_EQ(o.kernel_list()[0].radius, 30);
  EXPECT_DOUBLE_EQ(o.kernel_list()[0].sigma, 10.0);
}

TEST(Options, UsageErrors) {
  EXPECT_NE(usage_error({"--bogus"}).find("--bogus"), std::string::npos);
  EXPECT_NE(usage_error({"--radius", "129"}).find("out of range"), std::string::npos);
  EXPECT_NE(usage_error({"--radius"}).find("radius"), std::string::npos);
  EXPECT_NE(usage_error({"--variant", "nope"}).find("unknown variant 'nope'"), std::string::npos);
  usage_error({"--kernel", "median"});
  usage_error({"--sigma", "-3"});
  usage_error({"--sigma", "50"});
  usage_error({"--kernel", "box", "--sigma", "2"});
  usage_error({"--format", "rgb8"});
  usage_error({"--input-format", "rgba32f"});
  usage_error({"--size", "0x0"});
  usage_error({"--size", "640"});
  usage_error({"--frames", "-2"});
  usage_error({"--warmup", "x"});
  usage_error({"--time", "yesterday"});
  usage_error({"--device", "tpu"});
  usage_error({"--output", "o.png"});                                     // needs one variant
  usage_error({"--output", "o.png", "--variant", "frag-naive", "--radius", "1,2"});
  usage_error({"--image", "a.png", "--size", "10x10"});
  usage_error({"--print-kernel", "--radius", "1,2"});
  EXPECT_NE(usage_error({"--variant", "frag-naive", "--workgroup", "8x8"}).find("has no knob 'workgroup'"), std::string::npos);
  EXPECT_NE(usage_error({"--variant", "compute-inline-regblock", "--unroll", "4"}).find("no knob 'unroll'"), std::string::npos);
  EXPECT_NE(usage_error({"--segment", "0"}).find("--segment '0' is out of range 1..16384"), std::string::npos);
  EXPECT_NE(usage_error({"--cache", "fp8"}).find("--cache 'fp8' is not fp32|fp16"), std::string::npos);
  usage_error({"--variant", "frag-naive", "--format", "rgba16f"});         // has no intermediate
  usage_error({"stray"});
}

TEST(Options, Help) {
  const Options o = parse({"--help"});
  EXPECT_TRUE(o.help);
  EXPECT_NE(o.help_text.find("--headless"), std::string::npos);
  EXPECT_NE(o.help_text.find("--print-kernel"), std::string::npos);
}

}  // namespace
}  // namespace blurlab::cli
