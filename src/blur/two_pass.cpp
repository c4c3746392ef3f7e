#include "blur/two_pass.h"

namespace blurlab {
namespace {

class TwoPassBlur final : public Blur {
 public:
  explicit TwoPassBlur(TwoPassSpec spec) : spec_(std::move(spec)) {}

  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    gl::Defines defines = spec_.defines ? spec_.defines(s) : gl::Defines{};
    defines.push_back({"AXIS", "0"});
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    horizontal_ = spec_.stage == Stage::Fragment ? &setup.fragment(spec_.shader, defines) : &setup.compute(spec_.shader, io, mid, defines);
    defines.back().second = "1";
    vertical_ = spec_.stage == Stage::Fragment ? &setup.fragment(spec_.shader, defines) : &setup.compute(spec_.shader, mid, io, defines);
  }

  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    const Binding from_source{spec_.input, &passes.source(), gl::Unit::Source}, from_rows{spec_.input, &rows, gl::Unit::Source};
    if (spec_.stage == Stage::Fragment) {
      passes.draw("h", *horizontal_, {from_source}, rows);
      passes.draw("v", *vertical_, {from_rows}, passes.destination());
      return;
    }
    const glm::ivec2 wg = passes.settings().workgroup();
    passes.dispatch("h", *horizontal_, {from_source, Binding::write(rows)}, groups_covering(passes.size(), wg));
    passes.dispatch("v", *vertical_, {from_rows, Binding::write(passes.destination())},
                    groups_covering(passes.size(), spec_.transpose_vertical ? glm::ivec2(wg.y, wg.x) : wg));
  }

 private:
  TwoPassSpec spec_;
  const gl::Program* horizontal_ = nullptr;
  const gl::Program* vertical_ = nullptr;
};

}  // namespace

std::unique_ptr<Blur> make_two_pass(TwoPassSpec spec) { return std::make_unique<TwoPassBlur>(std::move(spec)); }

}  // namespace blurlab
