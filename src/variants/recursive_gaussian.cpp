// recursive-gaussian: the 3rd-order recursive (IIR) Gaussian of variants/recursive.h (Young and
// van Vliet, cascade form, clamp-to-edge border states), one invocation per line: the causal
// sections forwards, then the anticausal sections backwards. Rows, then columns. The work per texel
// does not depend on sigma; a line's recursion is serial, so the pass is as long as one line
// (recursive-gaussian-blocks splits lines into blocks).
//
// Rounding points: the causal output along a line is stored in a scratch texture of the
// intermediate format and read back by the anticausal pass of the same invocation; the rows'
// result is stored in the intermediate format, the columns' in the output.
#include <cmath>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"
#include "variants/recursive.h"
#include "variants/sliding.h"

namespace blurlab {
namespace {

// Its binding unit beside the generic ones (gl/bindings.h): the causal pass's state, read back by the anticausal one.
constexpr gl::NamedUnit kCausal{"CAUSAL", 2, gl::kImageUnit};
constexpr std::array kSlots{kCausal};

using recursive::Filter;
using recursive::filter_for;

// Texels loaded ahead of the recursion per step, their loads grouped.
const Knob kLookahead{.name = "lookahead",
                      .help = "Recursive filter: texels loaded per step ahead of the recursion, grouped (more loads in flight, "
                              "more registers)",
                      .define = "LOOKAHEAD",
                      .min = 1,
                      .max = 32,
                      .candidates = {{8}, {1}, {4}, {16}}};

class RecursiveGaussian final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const Filter f = filter_for(s.kernel.sigma);
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    gl::Defines defines = recursive::filter_defines(f);
    defines.insert(defines.end(), {{"CAUSAL_FORMAT", std::string(gl::name(mid))}, {"AXIS", "0"}});
    rows_ = &setup.compute("recursive_gaussian.comp", io, mid, defines);
    defines.back().second = "1";
    columns_ = &setup.compute("recursive_gaussian.comp", mid, io, defines);
  }

  // Rows from the source into intermediate 0, columns from there into the destination; both use
  // intermediate 1 for the causal pass's output.
  void run(BlurPasses& passes) override {
    const glm::ivec2 size = passes.size(), wg = passes.settings().workgroup();
    const gl::Texture &rows = passes.intermediate(0), &causal = passes.intermediate(1);
    passes.dispatch("h", *rows_, {Binding::read(passes.source()), Binding::write(rows), Binding::read_write(causal, kCausal)},
                    sliding::flat_groups(size.y, wg, "H"));
    passes.dispatch("v", *columns_, {Binding::read(rows), Binding::write(passes.destination()), Binding::read_write(causal, kCausal)},
                    sliding::flat_groups(size.x, wg, "W"));
  }

 private:
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

// One axis of the model, as the shader runs it: the causal sections forwards (their output stored
// in `scratch`), the border state, the anticausal sections backwards.
ReferenceImage model_axis(const ReferenceImage& in, int axis, const Filter& f, gl::Format scratch) {
  ReferenceImage out = model::blank(in.width, in.height);
  const int lines = axis == 0 ? in.height : in.width, length = axis == 0 ? in.width : in.height;
  const double p = f.p, g1 = f.g1, c1 = f.c1, c2 = f.c2, g2 = f.g2;
  model::parallel_rows(lines, [&](int l0, int l1) {
    std::vector<double> causal(static_cast<size_t>(length));
    for (int l = l0; l < l1; ++l)
      for (int c = 0; c < 4; ++c) {
        auto index = [&](int i) { return (axis == 0 ? static_cast<size_t>(l) * in.width + i : static_cast<size_t>(i) * in.width + l) * 4 + c; };
        const double first = in.texels[index(0)], last = in.texels[index(length - 1)];
        double u = first, v1 = first, v2 = first;
        for (int i = 0; i < length; ++i) {
          u = g1 * in.texels[index(i)] + p * u;
          const double v = g2 * u + c1 * v1 + c2 * v2;
          v2 = v1;
          v1 = v;
          causal[static_cast<size_t>(i)] = model::stored(v, scratch);
        }
        const double d[3] = {u - last, v1 - last, v2 - last};
        auto row = [&](int r) { return last + f.m[3 * r] * d[0] + f.m[3 * r + 1] * d[1] + f.m[3 * r + 2] * d[2]; };
        double a = row(0), b1 = row(1), b2 = row(2);
        for (int i = length - 1; i >= 0; --i) {
          a = g1 * causal[static_cast<size_t>(i)] + p * a;
          const double b = g2 * a + c1 * b1 + c2 * b2;
          b2 = b1;
          b1 = b;
          out.texels[index(i)] = b;
        }
      }
  });
  return out;
}

ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const Filter f = filter_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  ReferenceImage rows = model_axis(model::from_image(input), 0, f, mid);
  model::store(rows, mid);
  return model_axis(rows, 1, f, mid);
}

Tolerance tolerance(const BlurSettings& s, glm::ivec2 /*size*/, double input_peak) {
  const Filter f = filter_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  ModelErrorBound bound(s.input_format, input_peak);
  for (int axis = 0; axis < 2; ++axis) {
    bound.gain(f.l1());
    bound.fp32(recursive::filter_terms(f));
    bound.store(mid);  // the causal output in the scratch texture
    bound.gain(f.l1());
    bound.fp32(recursive::filter_terms(f) + recursive::border_terms(f));
    if (axis == 0) bound.store(mid);
  }
  return bound.tolerance("recursive filter, 4 passes");
}

// The longest invocation walks a line twice, in steps of LOOKAHEAD loads then as many recursion
// steps.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const double length = std::max(size.x, size.y), lookahead = s.integer(kLookahead);
  return 2.0 * (std::ceil(length / lookahead) * (2.0 * lookahead + 1.0));
}

// Two passes, each reading its source once and writing its destination once, and per axis the
// causal output written to the scratch texture and read back (both in the intermediate's format);
// per texel and axis the filter's 5 FMAs a channel, both ways.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  WorkBound b = sliding::two_pass_bound(s, size);
  b.bytes += 2.0 * 2.0 * gl::info(s.intermediate_format()).bytes_per_texel * size.x * size.y;
  b.fmas = 2.0 * 2.0 * 5.0 * 4.0 * size.x * size.y;
  return b;
}

}  // namespace

namespace variant {
extern const VariantInfo recursive_gaussian{
    .name = "recursive-gaussian",
    .stage = Stage::Compute,
    .family = Family::Recursive,
    .summary = "approximate Gaussian: 3rd-order recursive filter (Young-van Vliet), causal then anticausal along rows, "
               "then columns; cost independent of sigma",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    // The causal pass's output feeds a recursion: 8 bits would cost the result more than a step.
    .default_intermediate = gl::Format::rgba16f,
    .max_radius = kMaxRadius,  // a recursion of the same few taps at every sigma
    .knobs = {knobs::workgroup({{64, 1}, {32, 1}, {128, 1}, {256, 1}}), kLookahead},
    .refused_borders = recursive::refused_borders(),
    .loop_iterations = loop_iterations,
    .create = [] { return std::unique_ptr<Blur>(new RecursiveGaussian); },
    .approximation = {.choose = recursive::choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
    .slots = kSlots,
};
}  // namespace variant
}  // namespace blurlab
