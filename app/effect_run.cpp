#include "effect_run.h"

#include <iostream>

#include "bench/effect_measure.h"
#include "blur/registry.h"
#include "util/progress.h"
#include "util/strings.h"

namespace blurlab::app {

void run_effect_sweep(const cli::Options& o, const std::vector<glm::ivec2>& sizes, gl::ProgramCache& programs, gl::TimerPool& timers,
                      const gl::GlInfo& info, bench::Measurer& floor_measurer, Scene& scene, report::Report& rep,
                      std::optional<Image>& last_output, std::optional<Recording>& recording) {
  const EffectInfo& effect = *o.effect;
  const std::vector<EffectSettings> list = o.effect_settings_list();
  EffectPipeline pipeline(programs, info.limits, &timers);
  bench::EffectMeasurer measurer(pipeline, timers, floor_measurer.policy());
  const VariantInfo* copy = nullptr;
  for (const VariantInfo* v : variants())
    if (v->role == Role::Floor) copy = v;
  const bool timed = o.frames > 0;
  Progress progress(sizes.size() * (list.size() + (timed ? 1 : 0)), sizes.size() * (list.size() + (timed ? 1 : 0)));
  const EffectValues values = resolve_effect(effect, o.effect_values);
  if (effect.note)
    if (const std::string note = effect.note(values); !note.empty()) std::cout << wrapped("note: " + note, report::kTableWidth) << "\n";
  for (glm::ivec2 size : sizes) {
    bench::EffectInput input(size);
    input.render(scene, programs, o.time, effect_camera(effect, values, size));
    if (timed && copy) {  // the floor: a copy of the rgba16f frame, in the same run
      progress.item("copy " + size_text(size) + " rgba16f");
      progress.step("copy");
      bench::Input frame(size, gl::Format::rgba16f, true);
      scene.render(frame.source, o.time, true);
      BlurSettings s;
      s.input_format = gl::Format::rgba16f;
      rep.rows.push_back(floor_measurer.measure(frame, *copy, s, o.check, o.frames));
    }
    for (const EffectSettings& settings : list) {
      progress.item(std::string(effect.name) + " " + settings.implementation + " " + size_text(size));
      progress.step(settings.implementation);
      const bool exporting = !o.export_dir.empty();
      rep.effect_rows.push_back(measurer.measure(input, effect, settings, o.check || exporting, o.frames));
      if (rep.effect_rows.back().unsupported) continue;
      // The recorded run makes the picture a checked run made (the same passes on the same frame).
      if (exporting) recording = pipeline.record(input.color, input.depth, input.output);
      if (!o.output.empty()) {
        if (!o.check && !exporting) pipeline.run(input.color, input.depth, input.output);  // a checked run left its picture there
        last_output = input.output.download();
      }
    }
  }
  progress.clear();
}

}  // namespace blurlab::app
