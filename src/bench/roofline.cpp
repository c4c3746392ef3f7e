#include "bench/roofline.h"

#include <algorithm>
#include <cmath>

#include "bench/measure.h"
#include "blur/registry.h"
#include "gl/bindings.h"
#include "report/report.h"
#include "util/error.h"

namespace blurlab::bench {

namespace {

// Its binding units (gl/bindings.h has no generic one for buffers): the buffers the copy reads and
// writes, where the FMA and bilinear kernels keep their results (so nothing is optimised away),
// and the texture the bilinear kernel fetches.
constexpr gl::NamedUnit kBufferSource{"BUFFER_SOURCE", 0, gl::kStorageBuffer};
constexpr gl::NamedUnit kBufferTarget{"BUFFER_TARGET", 1, gl::kStorageBuffer};
constexpr gl::NamedUnit kSink{"SINK", 2, gl::kStorageBuffer};
constexpr gl::NamedUnit kRooflineTexture{"ROOFLINE_TEXTURE", 0, gl::kTextureUnit};
constexpr std::array kRooflineSlots{kBufferSource, kBufferTarget, kSink, kRooflineTexture};

// A roofline kernel's defines: its own, then its units'.
gl::Defines roofline_defines(gl::Defines defines) {
  for (auto& define : gl::slot_defines(kRooflineSlots)) defines.push_back(std::move(define));
  return defines;
}

// Frames that each run one dispatch of `program` with `groups`, timed as span "total".
class DispatchFrames final : public Frames {
 public:
  DispatchFrames(gl::TimerPool& timers, GLuint program, glm::ivec3 groups) : timers_(timers), program_(program), groups_(groups) {}
  void run_untimed() override { dispatch(); }
  void run_timed() override {
    timers_.begin_frame();
    {
      gl::ScopedSpan span(&timers_, "total");
      dispatch();
    }
    timers_.end_frame();
  }
  void finish() override { glFinish(); }
  std::vector<gl::FrameTimes> poll() override { return timers_.poll(); }

 private:
  void dispatch() {
    glUseProgram(program_);
    glDispatchCompute(static_cast<GLuint>(groups_.x), static_cast<GLuint>(groups_.y), static_cast<GLuint>(groups_.z));
    // Each dispatch overwrites the last one's results: no barrier is needed between them, but
    // keep them ordered like the blurs' frames.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  gl::TimerPool& timers_;
  GLuint program_;
  glm::ivec3 groups_;
};

double median_ms(const Timing& t) {
  const auto it = t.spans_ms.find("total");
  if (it == t.spans_ms.end() || it->second.empty()) throw Error("roofline: no timer results (the GPU timer pool dropped every frame)");
  return report::stats_of(it->second).median;
}

gl::BufferHandle storage_buffer(GLsizeiptr bytes, const gl::NamedUnit& binding) {
  gl::BufferHandle buffer = gl::create_buffer();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, nullptr, GL_STATIC_DRAW);
  const GLuint zero = 0x5a5a5a5au;  // not zeros: a copy of zeros could be cheaper
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding.number, buffer.get());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return buffer;
}

}  // namespace

std::span<const gl::NamedUnit> roofline_slots() { return kRooflineSlots; }

report::Roofline measure_roofline(gl::ProgramCache& programs, BlurPipeline& pipeline, gl::TimerPool& timers, const gl::GlInfo& info,
                          const TimingPolicy& timing) {
  report::Roofline roof;
  // Larger than any GPU's cache (64 MiB of rgba8 each way); 512x512 on a CPU rasterizer.
  roof.size = info.software ? glm::ivec2(512, 512) : glm::ivec2(4096, 4096);
  const double bytes = 2.0 * roof.size.x * roof.size.y * 4.0;

  // The texture copy: the copy variant's candidates, the fastest one.
  const VariantInfo* copy = nullptr;
  for (const VariantInfo* v : variants())
    if (v->role == Role::Floor) copy = v;
  if (!copy) throw Error("roofline: no copy variant is registered");
  Input input(roof.size, gl::Format::rgba8);
  const float grey[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  gl::fill(input.source, grey);
  Measurer measurer(pipeline, timers, timing);
  double best = INFINITY;
  std::vector<BlurSettings> candidates{resolve(*copy, {})};
  for (const Knob& k : copy->knobs)
    for (KnobValue v : k.candidates) {
      BlurSettings s = candidates.front();
      s.knobs[std::string(k.name)] = v;
      if (std::find(candidates.begin(), candidates.end(), s) == candidates.end()) candidates.push_back(s);
    }
  for (const BlurSettings& s : candidates) {
    const report::Measurement m = measurer.measure(input, *copy, s, false, timing.frames);
    const auto ms = m.total_median();
    if (ms && *ms < best) {
      best = *ms;
      roof.texture_copy_setting = describe(*copy, m.settings);
    }
  }
  if (!std::isfinite(best)) throw Error("roofline: the copy variant ran in no setting");
  roof.texture_copy_gbps = bytes / (best * 1e-3) / 1e9;

  // The buffer copy: as many bytes, one uvec4 per invocation.
  {
    const GLsizeiptr half = static_cast<GLsizeiptr>(bytes / 2);
    const gl::BufferHandle source = storage_buffer(half, kBufferSource), target = storage_buffer(half, kBufferTarget);
    const auto program = programs.share({{GL_COMPUTE_SHADER, "roofline_ssbo_copy.comp"}}, roofline_defines({}));
    const long long invocations = half / 16, groups = (invocations + 255) / 256;
    const long long x = std::min(groups, 65535LL);
    DispatchFrames frames(timers, program->id(), {static_cast<int>(x), static_cast<int>((groups + x - 1) / x), 1});
    roof.buffer_copy_gbps = bytes / (median_ms(time_frames(frames, steady_clock(), timing)) * 1e-3) / 1e9;
  }

  // The FMA rate: enough invocations to fill any GPU, a long loop of independent chains.
  {
    const int groups = info.software ? 64 : 8192, iterations = info.software ? 64 : 512;
    const gl::BufferHandle sink = storage_buffer(static_cast<GLsizeiptr>(groups) * 256 * 16, kSink);
    const auto program = programs.share({{GL_COMPUTE_SHADER, "roofline_fma.comp"}}, roofline_defines({{"ITERATIONS", std::to_string(iterations)}}));
    glUseProgram(program->id());
    glUniform4f(glGetUniformLocation(program->id(), "u_m"), 0.999f, 1.001f, 0.998f, 1.002f);
    glUniform4f(glGetUniformLocation(program->id(), "u_c"), 0.001f, -0.001f, 0.002f, -0.002f);
    DispatchFrames frames(timers, program->id(), {groups, 1, 1});
    const double fmas = static_cast<double>(groups) * 256 * iterations * 8 * 4;
    roof.fma_per_s = fmas / (median_ms(time_frames(frames, steady_clock(), timing)) * 1e-3);
  }

  // The bilinear fetch rate: a small rgba8 texture that stays in cache, each fetch blending four
  // texels, enough invocations to fill any GPU.
  {
    const int groups = info.software ? 8 : 256, fetches = info.software ? 16 : 64;
    const gl::Texture texture(256, 256, gl::Format::rgba8, "roofline bilinear");
    gl::fill(texture, grey);
    const gl::SamplerHandle linear = gl::create_sampler();
    for (GLenum filter : {GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER}) glSamplerParameteri(linear.get(), filter, GL_LINEAR);
    for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T}) glSamplerParameteri(linear.get(), wrap, GL_REPEAT);
    const GLuint unit = kRooflineTexture.number;
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture.id());
    glBindSampler(unit, linear.get());
    const double invocations = static_cast<double>(groups) * groups * 256;
    const gl::BufferHandle sink = storage_buffer(static_cast<GLsizeiptr>(invocations) * 16, kSink);
    const auto program = programs.share({{GL_COMPUTE_SHADER, "roofline_bilinear.comp"}}, roofline_defines({{"FETCHES", std::to_string(fetches)}}));
    DispatchFrames frames(timers, program->id(), {groups, groups, 1});
    roof.bilinear_fetch_per_s = invocations * fetches / (median_ms(time_frames(frames, steady_clock(), timing)) * 1e-3);
    glBindSampler(unit, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
  }
  glUseProgram(0);
  return roof;
}

}  // namespace blurlab::bench
