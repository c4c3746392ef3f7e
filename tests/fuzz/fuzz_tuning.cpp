// Fuzz target: tuning files (--tuned), which blurlab reads from disk and must validate like the
// command line (report/tuning.h). Every input either throws blurlab::Error with one line, or
// parses into entries whose every value the command line would accept: a known variant, a size
// within the texture limit, a radius within kMaxRadius, and knob values that are valid for that
// variant's knobs, so the tuned settings pass unsupported_reason()'s knob checks.
#include <cstddef>
#include <cstdint>
#include <string>

#include "blur/registry.h"
#include "fuzz_check.h"
#include "report/tuning.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  using namespace blurlab;
  try {
    const report::TuningTable table = report::TuningTable::parse(text, "fuzz.json");
    for (const report::TunedEntry& e : table.entries()) {
      const VariantInfo* variant = find_variant(e.variant);
      FUZZ_CHECK(variant != nullptr);
      FUZZ_CHECK(e.size.x > 0 && e.size.y > 0 && e.size.x <= (1 << 20) && e.size.y <= (1 << 20));
      FUZZ_CHECK(e.radius >= 0 && e.radius <= kMaxRadius);
      for (const auto& [name, value] : e.knobs) {
        const Knob* knob = find_knob(*variant, name);
        FUZZ_CHECK(knob != nullptr);
        FUZZ_CHECK(!knob->invalid(value).has_value());
      }
      // The settings a --tuned run would blur with: every knob of the entry is valid there too.
      BlurSettings s;
      s.kernel = Kernel{e.kernel, e.radius, e.radius / 3.0 > 0 ? e.radius / 3.0 : 1.0};
      s.input_format = e.input_format;
      const BlurSettings tuned = resolve(*variant, report::with_tuned_knobs(s, e));
      for (const Knob& k : variant->knobs) FUZZ_CHECK(!k.invalid(tuned.knob(k.name)).has_value());
    }
  } catch (const Error& e) {
    const std::string message = e.what();
    FUZZ_CHECK(!message.empty() && message.find('\n') == std::string::npos);
  }
  return 0;
}
