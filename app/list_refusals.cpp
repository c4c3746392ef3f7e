#include "list_refusals.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "blur/registry.h"
#include "gl/context.h"
#include "image_input.h"
#include "list_variants.h"

namespace blurlab::app {

int list_refusals(const cli::Options& o) {
  std::ostringstream notes;  // what prepare_run_input says of the image: not part of the listing
  const RunInput input = prepare_run_input(o, cli::kDefaultHeadlessSize, notes);
  const glm::ivec2 size = input.image ? glm::ivec2(input.image->width, input.image->height)
                                      : (o.sizes.empty() ? cli::kDefaultHeadlessSize : o.sizes.front());
  const auto context = gl::HeadlessContext::create(o.gl_debug, o.device);
  const gl::GlLimits& limits = context->info().limits;
  // The variants --variant names (all without it).
  const std::vector<const VariantInfo*> listed = o.variants.empty() ? std::vector<const VariantInfo*>(variants().begin(), variants().end())
                                                                    : o.variants;
  nlohmann::ordered_json refusals = nlohmann::ordered_json::array();
  for (const VariantInfo* v : listed) {
    const std::vector<BlurSettings> settings = o.settings_list(*v, input.input_formats.front());
    const std::optional<Refusal> refusal =
        settings.empty() ? std::nullopt : unsupported_reason(*v, resolve(*v, settings.front(), size), size, limits);
    if (o.json.empty())
      std::printf("%s %s\n", std::string(v->name).c_str(), refusal ? std::string(name(refusal->limit)).c_str() : "-");
    else
      refusals.push_back({{"variant", v->name},
                          {"limit", refusal ? nlohmann::ordered_json(name(refusal->limit)) : nlohmann::ordered_json()},
                          {"reason", refusal ? nlohmann::ordered_json(refusal->reason) : nlohmann::ordered_json()}});
  }
  if (!o.json.empty()) write_listing_json({{"format", "blurlab-refusals"}, {"version", 1}, {"refusals", refusals}}, o.json);
  return 0;
}

}  // namespace blurlab::app
