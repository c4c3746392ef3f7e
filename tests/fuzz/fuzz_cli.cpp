// Fuzz target: blurlab's command line (cli::parse_options, with the list and range syntax of
// cli/lists.h). The input is split at newlines into the arguments after "blurlab". The parser
// must return Options or throw UsageError (exit code 2, a message); the one file it reads, bloom's
// kernel image (--psf image:FILE), may also fail as a run-time Error (exit code 1) that names the
// option ("cannot read/load --psf image 'FILE': ..."). Anything else escaping, a sanitizer
// report, or Options that break the properties below is a bug.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/options.h"
#include "fuzz_check.h"
#include "util/error.h"
#include "util/strings.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string> args = blurlab::split(std::string_view(reinterpret_cast<const char*>(data), size), '\n');
  if (args.size() > 64) return 0;
  std::vector<const char*> argv{"blurlab"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  blurlab::cli::Options o;
  try {
    o = blurlab::cli::parse_options(static_cast<int>(argv.size()), argv.data());
  } catch (const blurlab::UsageError& e) {
    FUZZ_CHECK(e.exit_code() == 2);
    FUZZ_CHECK(!std::string_view(e.what()).empty());
    return 0;
  } catch (const blurlab::Error& e) {
    const std::string_view message = e.what();
    FUZZ_CHECK(e.exit_code() == 1);
    FUZZ_CHECK(message.starts_with("cannot read --psf image '") || message.starts_with("cannot load --psf image '"));
    FUZZ_CHECK(message.find('\n') == std::string_view::npos);
    return 0;
  }
  if (o.help) return 0;
  FUZZ_CHECK(o.configuration_count() <= blurlab::cli::kMaxConfigurations);
  const std::vector<blurlab::Kernel> kernels = o.kernel_list();
  FUZZ_CHECK(!kernels.empty());
  for (const blurlab::Kernel& k : kernels) {
    FUZZ_CHECK(k.radius >= 0 && k.radius <= blurlab::kMaxRadius);
    FUZZ_CHECK(std::isfinite(k.sigma) && k.sigma >= 0.0 && k.sigma <= blurlab::kMaxSigma);
  }
  for (const auto& s : o.sizes) FUZZ_CHECK(s.x > 0 && s.y > 0);
  FUZZ_CHECK(!o.borders.empty());
  for (size_t i = 0; i < o.borders.size(); ++i)
    for (size_t j = 0; j < i; ++j) FUZZ_CHECK(o.borders[i] != o.borders[j]);
  for (float v : o.border_value) FUZZ_CHECK(std::isfinite(v) && v >= 0.0f && v <= 65504.0f);
  FUZZ_CHECK(o.frames >= 0 && o.warmup >= 0);
  FUZZ_CHECK(std::isfinite(o.budget) && o.budget >= 0.0 && std::isfinite(o.time) && o.time >= 0.0);
  if (!o.output.empty()) FUZZ_CHECK(o.variants.size() == 1 && o.configuration_count() == 1);
  return 0;
}
