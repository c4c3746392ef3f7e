#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>

#include "blur/registry.h"
#include "cli/lists.h"
#include "cli/options.h"
#include "util/error.h"
#include "util/strings.h"

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
  for (const char* bad : {"", ",", "1,,2", "a", "1.5", "4:1", "1:8:0", "1:8:x1", "0:8:x2", "1:2:3:4", "513", "-1", "1:600",
                          "99999999999999999999", "3x", "1:8:y"}) {
    EXPECT_THROW(parse_int_list(bad, "--radius", 0, 128), UsageError) << "'" << bad << "'";
  }
  EXPECT_THROW(parse_int_list("0:100000", "--segment", 0, 1000000), UsageError);  // too many values
}

TEST(Lists, SignsAreSingle) {
  // Found by fuzz_lists (tests/fuzz/corpus/lists/regression_plus_minus): "+-1" parsed as -1.
  EXPECT_EQ(parse_int("+7"), 7);
  EXPECT_EQ(parse_int("-7"), -7);
  for (const char* bad : {"+-1", "+-0", "-+1", "++1", "--1", "+", "-"}) EXPECT_EQ(parse_int(bad), std::nullopt) << bad;
  EXPECT_THROW(parse_int_list("+-0", "--warmup", 0, 100000), UsageError);
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
  EXPECT_NE(usage_error({"--radius", "513"}).find("out of range"), std::string::npos);
  EXPECT_NE(usage_error({"--radius"}).find("radius"), std::string::npos);
  EXPECT_NE(usage_error({"--variant", "nope"}).find("unknown variant 'nope'"), std::string::npos);
  usage_error({"--kernel", "median"});
  usage_error({"--sigma", "-3"});
  usage_error({"--sigma", "171"});  // needs r = 513, above kMaxRadius
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

std::string numbers(int count, double first, double step) {
  std::string list;
  for (int i = 0; i < count; ++i) {
    if (i) list += ',';
    list += std::to_string(first + i * step);  // (not "," + to_string(): GCC 12 warns, wrongly, of an overflow)
  }
  return list;
}

TEST(Options, KernelListIsUniqueAndFastForLongLists) {
  // 4096 sigmas by 129 radii once took minutes (a linear search per kernel); the sweep is now
  // refused by its size at once, and the kernel list is built without searching.
  const std::string sigmas = numbers(4096, 0.01, 0.01);
  const auto start = std::chrono::steady_clock::now();
  const std::string message = usage_error({"--headless", "--radius", "0:128", "--sigma", sigmas.c_str()});
  // Each blur x 129 radii x 4096 sigmas, and the copy pass once.
  const auto blurs = std::count_if(variants().begin(), variants().end(), [](const VariantInfo* v) { return is_blur(*v); });
  const std::string count = std::to_string(blurs * 129 * 4096 + (static_cast<long>(variants().size()) - blurs));
  EXPECT_NE(message.find("has " + count + " configurations, more than 100000"), std::string::npos) << message;
  Options o = parse({"--headless", "--variant", "copy", "--radius", "0:128", "--sigma", sigmas.c_str()});
  EXPECT_EQ(o.kernel_list().size(), 129u * 4096u);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  // Repeats count once, in the order first given.
  o = parse({"--kernel", "box,gauss", "--radius", "3,1,3,1:3", "--sigma", "2,1,2.0"});
  const std::vector<Kernel> expected{{KernelType::Box, 3, 0.0},   {KernelType::Box, 1, 0.0},   {KernelType::Box, 2, 0.0},
                                     {KernelType::Gauss, 3, 2.0}, {KernelType::Gauss, 3, 1.0}, {KernelType::Gauss, 1, 2.0},
                                     {KernelType::Gauss, 1, 1.0}, {KernelType::Gauss, 2, 2.0}, {KernelType::Gauss, 2, 1.0}};
  EXPECT_EQ(o.kernel_list(), expected);
}

TEST(Options, ConfigurationCountIsWhatTheSweepRuns) {
  for (const std::vector<const char*>& args : std::vector<std::vector<const char*>>{
           {},
           {"--variant", "copy"},
           {"--kernel", "box,gauss", "--radius", "1:8", "--sigma", "1,2,3", "--size", "8x8,9x9,10x10"},
           {"--variant", "copy,compute-separable", "--border", "clamp,wrap,constant", "--radius", "1,2"},
           {"--variant", "compute-separable-lds,compute-sliding,frag-naive", "--workgroup", "8x8,16x16", "--unroll", "1,2,4",
            "--segment", "32,64", "--format", "rgba8,rgba16f,rgba32f", "--input-format", "rgba8,rgba16f", "--cache", "fp16,fp32"}}) {
    std::vector<const char*> argv{"blurlab"};
    argv.insert(argv.end(), args.begin(), args.end());
    const Options o = parse_options(static_cast<int>(argv.size()), argv.data());
    std::vector<const VariantInfo*> selected = o.variants;
    if (selected.empty()) selected.assign(variants().begin(), variants().end());
    size_t runs = 0;
    for (const VariantInfo* v : selected)
      for (gl::Format f : o.input_formats) runs += o.settings_list(*v, f).size() * std::max<size_t>(o.sizes.size(), 1);
    EXPECT_EQ(o.configuration_count(), static_cast<double>(runs)) << ::testing::PrintToString(args);
  }
  // Just below and just above the bound: 129 radii x 774 sigmas + 129 box kernels = 99,975; 129 x 776 = 100,104.
  const std::string sigmas = numbers(774, 0.1, 0.1);
  EXPECT_EQ(parse({"--variant", "frag-naive", "--kernel", "gauss,box", "--radius", "0:128", "--sigma", sigmas.c_str()})
                .configuration_count(),
            99975.0);
  const std::string more = numbers(776, 0.1, 0.1);
  EXPECT_NE(usage_error({"--variant", "frag-naive", "--radius", "0:128", "--sigma", more.c_str()}).find("has 100104 configurations"),
            std::string::npos);
}

TEST(Options, LinearLightIsOneSettingOfEveryRun) {
  const Options o = parse({"--linear", "--variant", "compute-separable", "--kernel", "box,gauss"});
  EXPECT_TRUE(o.linear);
  EXPECT_EQ(o.input_formats, std::vector<gl::Format>{gl::Format::rgba16f}) << "linear light is blurred in rgba16f";
  for (const BlurSettings& s : o.settings_list(*find_variant("compute-separable"), gl::Format::rgba16f)) {
    EXPECT_TRUE(s.linear);
    EXPECT_NE(describe(*find_variant("compute-separable"), resolve(*find_variant("compute-separable"), s)).find(" linear"),
              std::string::npos);
  }
  EXPECT_EQ(parse({"--linear", "--input-format", "rgba16f"}).input_formats, std::vector<gl::Format>{gl::Format::rgba16f});
  EXPECT_NE(usage_error({"--linear", "--input-format", "rgba8"}).find("--linear blurs in rgba16f"), std::string::npos);
  EXPECT_FALSE(parse({}).settings_list(*find_variant("copy"), gl::Format::rgba8).front().linear);
}

TEST(Options, ExportTakesOneBlur) {
  const Options o = parse({"--headless", "--export", "out", "--variant", "compute-separable", "--radius", "7"});
  EXPECT_EQ(o.export_dir, "out");
  for (const std::string& message :
       {usage_error({"--headless", "--export", "out"}), usage_error({"--headless", "--export", "out", "--variant", "copy,compute-naive"}),
        usage_error({"--headless", "--export", "out", "--variant", "compute-naive", "--radius", "1,2"}),
        usage_error({"--headless", "--export", "out", "--variant", "compute-naive", "--size", "8x8,9x9"})})
    EXPECT_NE(message.find("--export needs exactly one variant"), std::string::npos) << message;
  EXPECT_THROW(check_window_options(parse({"--export", "out", "--variant", "compute-naive"})), UsageError) << "the window cannot export";
  EXPECT_NE(usage_error({"--headless", "--export", "", "--variant", "compute-naive"}).find("--export needs a file name"), std::string::npos);
}

TEST(Options, ReportAndWide) {
  const Options o = parse({"--headless", "--report", "out", "--wide"});
  EXPECT_EQ(o.report_dir, "out");
  EXPECT_TRUE(o.wide);
  EXPECT_NE(usage_error({"--report", ""}).find("--report needs a file name"), std::string::npos);
  EXPECT_NE(usage_error({"--headless", "--tune", "--report", "out"}).find("--report"), std::string::npos);
}

TEST(Options, CommandLineIsQuotedForAShell) {  EXPECT_EQ(parse({"--headless", "--radius", "1:8:x2", "--csv", "my report.csv"}).command_line,
            "blurlab --headless --radius 1:8:x2 --csv 'my report.csv'");
  EXPECT_EQ(parse({"--headless", "--csv", "it's.csv"}).command_line, "blurlab --headless --csv 'it'\\''s.csv'");
}

TEST(Options, WindowTakesOneSettingAndLinearLightOnlyAsL) {
  check_window_options(parse({"--linear"}));
  EXPECT_THROW(check_window_options(parse({"--input-format", "rgba16f"})), UsageError);
  EXPECT_THROW(check_window_options(parse({"--report", "out"})), UsageError);
  EXPECT_THROW(check_window_options(parse({"--wide"})), UsageError);
}

TEST(Options, WindowTakesAnEffectWithOneImplementation) {
  check_window_options(parse({"--effect", "bloom"}));
  check_window_options(parse({"--effect", "bloom", "--variant", "mip-chain", "--intensity", "0.2", "--border", "wrap"}));
  try {
    check_window_options(parse({"--effect", "bloom", "--variant", "fft,mip-chain"}));
    ADD_FAILURE() << "no usage error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("give one value of --variant"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_window_options(parse({"--effect", "bloom", "--check"})), UsageError) << "--check needs --headless";
  // The window's own options are judged with an effect as without one.
  EXPECT_EQ(usage_error({"--effect", "bloom", "--screenshot", "shot.png"}), "--screenshot needs --frames N (the frame to save)");
  EXPECT_EQ(usage_error({"--headless", "--effect", "bloom", "--frames", "2", "--screenshot", "shot.png"}),
            "--screenshot applies to the window; with --headless use --output");
  EXPECT_NE(usage_error({"--effect", "bloom", "--script", "3:key=Q"}).find("unknown key 'Q'"), std::string::npos);
}

TEST(Options, Help) {
  const Options o = parse({"--help"});
  EXPECT_TRUE(o.help);
  EXPECT_NE(o.help_text.find("--headless"), std::string::npos);
  EXPECT_NE(o.help_text.find("--print-kernel"), std::string::npos);
}

}  // namespace
}  // namespace blurlab::cli
