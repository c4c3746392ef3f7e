#include "blur/family.h"

#include <array>

#include "util/error.h"

namespace blurlab {

namespace {

constexpr std::array kFamilies{
    FamilyInfo{Family::Copy, "copy", "not a blur: one read and one write per texel, the floor every blur's time is divided by"},
    FamilyInfo{Family::Direct, "direct", "all (2r+1)^2 taps of each pixel's window in one pass, read from the texture"},
    FamilyInfo{Family::Separable, "separable", "a horizontal pass into an intermediate texture, then a vertical one, 2r+1 taps each"},
    FamilyInfo{Family::Bilinear, "bilinear",
               "the texture unit weights two texels (2x2 in one pass) per fetch: about half the fetches, for 8-bit filter weights"},
    FamilyInfo{Family::SharedMemory, "shared-memory", "a workgroup stages its tile and the apron in shared memory once and takes its taps from there"},
    FamilyInfo{Family::RegisterBlocked, "register-blocked",
               "each invocation sums K outputs of a line from the K+2r inputs they need, each read once into registers"},
    FamilyInfo{Family::RunningSums, "running-sums",
               "box only, cost independent of r: an output is the last one plus the entering texel minus the leaving one (or a "
               "difference of prefix sums); the variants are schedules of that one algorithm"},
    FamilyInfo{Family::FrequencyDomain, "frequency-domain",
               "convolution as a product of spectra (FFT), cost independent of r apart from the segments' overlap"},
    FamilyInfo{Family::IteratedBox, "iterated-box", "approximate Gaussian: box blurs repeated until their variances add up to sigma^2"},
    FamilyInfo{Family::Kawase, "kawase",
               "approximate Gaussian: passes of four bilinear fetches at growing offsets, at full resolution or down and up a pyramid"},
    FamilyInfo{Family::Recursive, "recursive",
               "approximate Gaussian: a recursive (IIR) filter run forwards and backwards along rows and columns, constant work per texel"},
    FamilyInfo{Family::VariableRadius, "variable-radius", "each pixel blurred by its own radius, read from a map (--radius-map)"},
};

}  // namespace

std::span<const FamilyInfo> families() { return kFamilies; }

const FamilyInfo& family_info(Family family) {
  for (const FamilyInfo& f : kFamilies)
    if (f.family == family) return f;
  throw Error("a family missing from the families' table");
}

std::string_view name(Family family) { return family_info(family).name; }

}  // namespace blurlab
