#include "variants/box_walk.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <map>

#include "util/error.h"
#include "variants/sliding.h"

namespace blurlab::box_walk {
namespace {

int texel_words(gl::Format f, bool exact) {
  if (f == gl::Format::rgba8) return 1;
  if (exact) return 2;  // fixed point, two 16-bit fields a word
  return f == gl::Format::rgba16f ? 2 : 4;
}
int out_words(gl::Format f) { return f == gl::Format::rgba8 ? 1 : f == gl::Format::rgba16f ? 2 : 4; }
bool exact(const BlurSettings& s) { return s.input_format == gl::Format::rgba8; }

std::string float_literal(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(static_cast<float>(v)));
  std::string s = text;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// A state weight as the shader's table holds it: modulo 2^32 (glsl/box_walk.glsl, WEIGHT; the float
// path reads it back as a signed whole number, exact in fp32 below 2^24).
std::string weight_literal(long long v) { return std::to_string(static_cast<uint32_t>(static_cast<uint64_t>(v))) + "u"; }

template <typename T>
std::string join(const std::vector<T>& values, auto text) {
  std::string list;
  for (const T& v : values) list += (list.empty() ? "" : ", ") + text(v);
  return list;
}

}  // namespace

int Cascade::reach() const {
  int r = 0;
  for (int radius : radii) r += radius;
  return r;
}

long long Cascade::sum() const {
  long long w = 1;
  for (int radius : radii) w *= 2LL * radius + 1;
  return w;
}

std::vector<long long> Cascade::kernel() const {
  std::vector<long long> k{1};
  for (int r : radii) {
    std::vector<long long> next(k.size() + 2 * static_cast<size_t>(r), 0);
    for (size_t i = 0; i < k.size(); ++i)
      for (int j = 0; j <= 2 * r; ++j) next[i + static_cast<size_t>(j)] += k[i];
    k = std::move(next);
  }
  return k;
}

std::vector<std::pair<int, int>> Cascade::taps() const {
  std::map<int, int> product{{0, 1}};
  for (int r : radii) {
    std::map<int, int> next;
    for (auto [offset, c] : product) {
      next[offset + r] += c;
      next[offset - r - 1] -= c;
    }
    product = std::move(next);
  }
  std::vector<std::pair<int, int>> list;
  for (auto [offset, c] : product)
    if (c != 0) list.emplace_back(offset, c);
  return list;
}

std::vector<long long> Cascade::state_weights() const {
  const int r = reach(), span = 2 * r + 3;  // offsets -R - 2 .. R
  const std::vector<long long> k = kernel();
  auto at = [&](int j) { return j < -r || j > r ? 0LL : k[static_cast<size_t>(j + r)]; };
  std::vector<long long> w(3 * static_cast<size_t>(span));
  for (int q = 0; q < span; ++q) {
    const int j = q - r - 2;
    w[static_cast<size_t>(q)] = at(j);
    w[static_cast<size_t>(span + q)] = at(j) - at(j + 1);
    w[static_cast<size_t>(2 * span + q)] = at(j) - 2 * at(j + 1) + at(j + 2);
  }
  return w;
}

Knob chunk_knob(std::vector<int> candidates) {
  return {.name = knobs::kChunk,
          .help = "Box walks: outputs one invocation walks from its own start (0: the longest whose tile fits 24 KiB, "
                  "evened out over the line)",
          // No define: the host resolves the chunk (0: by the tile) into the walk's defines.
          .min = 0,
          .max = 1023,
          .candidates = integer_values(candidates)};
}

Knob chains_knob(std::vector<int> candidates) {
  return {.name = knobs::kChains,
          .help = "Box walks: chunks one invocation walks side by side, independent recursions in flight (0: as many "
                  "of 4, 2, 1 as fit the tile with chunks no shorter than the start-up asks)",
          // No define: the host resolves the chains into the walk's defines.
          .min = 0,
          .max = 8,
          .candidates = integer_values(candidates)};
}

int shortest_chunk(const Cascade& cascade) {
  // One box: the start is (2R + 1) / L block sums and fewer than L texels, whatever L. Three boxes:
  // 2R + 3 texels (a load and 12 multiply-adds each, ~1/2 of an output's walk), so chunks at least
  // half that long keep the start below about half of the walk.
  if (cascade.order() == 1) return kShortestChunk;
  return std::max(kShortestChunk, (cascade.reach() + 1) | 1);
}

namespace {
// One box: the block sums' bytes (glsl/box_walk.glsl s_block: a FIELD per block and line).
long long block_bytes(const Tile& t, const Cascade& cascade, gl::Format src) {
  if (cascade.order() != 1) return 0;
  const long long field_words = src == gl::Format::rgba8 ? 2 : 4;  // uvec2 of two 16-bit fields, else 4 channels
  const long long blocks = (t.extent + t.chunk - 1) / t.chunk;
  return 4 * field_words * t.lines * blocks;
}
}  // namespace

Tile tile(const BlurSettings& s, glm::ivec2 size, int axis, const Cascade& cascade, gl::Format src, gl::Format dst) {
  Tile t;
  t.axis = axis;
  t.raw_source = src == gl::Format::rgba8 || !exact(s);  // fixed point converts the texels
  const int n = std::max(s.workgroup().x, 1);
  t.lines = axis == 0 ? 1 : 32 / gl::info(src).bytes_per_texel;  // columns: a 32-byte sector of each row
  t.chunks = std::max(n / t.lines, 1);
  const int len = axis == 0 ? size.x : size.y, lines = axis == 0 ? size.y : size.x;
  t.groups = (lines + t.lines - 1) / t.lines;
  const long long words = texel_words(src, exact(s)), staged = axis == 0 ? out_words(dst) : 0;
  const long long apron = 2LL * cascade.reach() + cascade.order();
  // Bytes of a tile with `chains` chunks of L per invocation: the texels of the segment and its
  // apron, and the staged outputs.
  const long long per_output = 4 * t.lines * t.chunks * (words + staged), fixed = 4 * words * t.lines * apron;
  const int shortest = shortest_chunk(cascade);
  t.chains = s.knob(knobs::kChains).x;
  if (t.chains <= 0) {
    const long long least = s.knob(knobs::kChunk).x > 0 ? s.knob(knobs::kChunk).x : shortest;  // an explicit chunk as it is
    t.chains = 1;
    for (int c : {4, 2})
      if (fixed + per_output * c * least <= kTileBudget) {
        t.chains = c;
        break;
      }
  }
  const long long per_chunk_output = per_output * t.chains;  // a tile's bytes per unit of chunk length
  t.chunk = s.knob(knobs::kChunk).x;
  if (t.chunk <= 0) {
    const int across = t.chunks * t.chains;  // chunks per segment
    const long long fit = std::max(1LL, ((kTileBudget - fixed) / per_chunk_output - 1) | 1);  // odd
    long long segments = std::max(1LL, (len + across * fit - 1) / (across * fit));
    // Enough workgroups to fill the GPU (kFillGroups), with chunks no shorter than the start asks.
    const long long fill = (kFillGroups + t.groups - 1) / t.groups;
    if (segments < fill) {
      const long long at_fill = std::max<long long>(shortest, ((len + fill * across - 1) / (fill * across)) | 1);
      segments = std::max(segments, (len + across * at_fill - 1) / (across * at_fill));
    }
    t.chunk = static_cast<int>(std::min(fit, ((len + segments * across - 1) / (segments * across)) | 1));
  }
  const bool chosen = s.knob(knobs::kChunk).x <= 0;
  for (;;) {
    t.extent = t.segment() + static_cast<int>(apron);
    t.shared_bytes = fixed + per_chunk_output * t.chunk + block_bytes(t, cascade, src);
    if (!chosen || t.chunk <= 1 || t.shared_bytes <= kTileBudget) break;
    t.chunk = std::max(1, (t.chunk - 2) | 1);  // the block sums too: a shorter chunk
  }
  t.segments = (len + t.segment() - 1) / t.segment();
  return t;
}

double fixed_scale(const Cascade& cascade) {
  const double w = static_cast<double>(cascade.sum());
  double f = 32768.0;
  while (f > 1.0 && f * w + w / 2 >= 4294967296.0) f /= 2.0;
  return f;
}

gl::Defines defines(const BlurSettings& s, const Tile& t, const Cascade& cascade, gl::Format src) {
  const bool integer = exact(s);
  const int source = src == gl::Format::rgba8 ? 0 : integer ? 1 : src == gl::Format::rgba16f ? 2 : 3;
  const double w = static_cast<double>(cascade.sum()), f = fixed_scale(cascade);
  const double scale = source == 0 ? 255.0 : f;  // EXACT: the source's units per texel value
  const auto taps = cascade.taps();
  gl::Defines d{{"AXIS", std::to_string(t.axis)},
                {"EXACT", integer ? "1" : "0"},
                {"BW_LINES", std::to_string(t.lines)},
                {"BW_CHUNKS", std::to_string(t.chunks)},
                {"BW_INVOCATIONS", std::to_string(t.lines * t.chunks)},
                {"BW_CHUNK", std::to_string(t.chunk)},
                {"BW_CHAINS", std::to_string(t.chains)},
                {"BW_ORDER", std::to_string(cascade.order())},
                {"BW_REACH", std::to_string(cascade.reach())},
                {"BW_TAPS", std::to_string(taps.size())},
                {"BW_TAP_OFFSETS", join(taps, [](const auto& p) { return std::to_string(p.first); })},
                {"BW_TAP_COEFS", join(taps, [](const auto& p) { return std::to_string(p.second); })},
                {"BW_DIVISOR", std::to_string(cascade.sum())},
                {"BW_SOURCE", std::to_string(source)},
                {"BW_FIXED", float_literal(f)},
                {"BW_UNIT", float_literal(1.0 / (scale * w))},
                {"BW_STEP_UNIT", float_literal(255.0 / (scale * w))},
                {"BW_STAGE_OUT", t.axis == 0 ? "1" : "0"}};
  if (source != 1) d.push_back({"SOURCE_RAW", "1"});  // the tile holds the texels' bits
  if (cascade.order() == 3) {
    const std::vector<long long> weights = cascade.state_weights();
    // Three boxes of the reach's third each (VariantInfo::max_radius 384): below 258^2, far from 2^24.
    for (long long v : weights)
      if (!integer && std::llabs(v) >= (1LL << 24)) throw Error("box walk: a state weight " + std::to_string(v) + " is not exact in fp32");
    d.push_back({"BW_WEIGHTS", join(weights, [&](long long v) { return weight_literal(v); })});
  }
  return d;
}

void dispatch(BlurPasses& passes, std::string_view name, const gl::Program& program, const Tile& t, const gl::Texture& src,
              const gl::Texture& dst) {
  const std::string seg = std::to_string(t.segment()), lines = std::to_string(t.lines);
  const std::string formula = t.axis == 0 ? "ceil(W / " + seg + ") x ceil(H / " + lines + ") x 1"
                                          : "ceil(H / " + seg + ") x ceil(W / " + lines + ") x 1";
  passes.dispatch(name, program, {t.raw_source ? Binding::read_raw(src) : Binding::read(src), Binding::write_raw(dst)},
                  {{t.segments, t.groups, 1}, formula});
}

std::optional<Refusal> check(const BlurSettings& s, const Cascade& cascade) {
  const glm::ivec2 wg = s.workgroup();
  if (wg.y != 1 || wg.x % 8 != 0)
    return Refusal{Limit::Knobs, "workgroup must be Nx1 with N a multiple of 8 (columns: tiles of 2, 4 or 8 columns by N / columns chunks; rows: N chunks)"};
  // EXACT: an rgba8 source sums to at most 255 W, a fixed-point one to F W; both below 2^32.
  const double needed = 255.5 * static_cast<double>(cascade.sum());
  if (exact(s) && needed >= 4294967296.0)
    return Refusal{Limit::Reach, "the boxes' sum W = " + std::to_string(cascade.sum()) + " times 255 passes the 32-bit integer sums", needed,
                   4294967296.0};
  return std::nullopt;
}

Passes passes(const BlurSettings& s, glm::ivec2 size, const Cascade& cascade) {
  const gl::Format io = s.input_format, mid = s.intermediate_format();
  return {tile(s, size, 0, cascade, io, mid), tile(s, size, 1, cascade, mid, io)};
}

void TwoPasses::prepare(BlurSetup& setup) {
  const BlurSettings& s = setup.settings();
  const gl::Format io = s.input_format, mid = s.intermediate_format();
  const Cascade cascade = cascade_(s);
  tiles_ = passes(s, setup.size(), cascade);
  rows_ = &setup.compute(file_, io, mid, defines(s, tiles_.rows, cascade, io));
  columns_ = &setup.compute(file_, mid, io, defines(s, tiles_.columns, cascade, mid));
}

void TwoPasses::run(BlurPasses& passes) {
  const gl::Texture& rows = passes.intermediate(0);
  dispatch(passes, "h", *rows_, tiles_.rows, passes.source(), rows);
  dispatch(passes, "v", *columns_, tiles_.columns, rows, passes.destination());
}

SharedMemory shared_memory(const BlurSettings& s, const Cascade& cascade) {
  constexpr int kLongLine = 1 << 20;  // long enough for the longest chunk
  const Passes p = passes(s, {kLongLine, kLongLine}, cascade);
  const Tile& t = p.rows.shared_bytes >= p.columns.shared_bytes ? p.rows : p.columns;
  return {t.shared_bytes, std::string(t.axis == 0 ? "rows" : "columns") + " tile of " + std::to_string(t.lines) + " x " +
                              std::to_string(t.extent) + " texels (chunk " + std::to_string(t.chunk) + ")"};
}

double loop_iterations(const BlurSettings& s, glm::ivec2 size, const Cascade& cascade) {
  double most = 0.0;
  const Passes p = passes(s, size, cascade);
  for (const Tile& t : {p.rows, p.columns}) {
    const double n = static_cast<double>(t.lines) * t.chunks;
    const double loads = std::ceil(t.lines * static_cast<double>(t.extent) / n);
    // One box: the block sums of the invocation's share of the tile, then per chain Q blocks and
    // PARTIAL texels (glsl/box_walk.glsl); three boxes: 2R + 3 texels per chain.
    const int window = 2 * cascade.reach() + 1, q = window / t.chunk;
    const double blocks = std::ceil(std::ceil(static_cast<double>(t.extent) / t.chunk) / t.chunks) * t.chunk;
    const double start = cascade.order() == 1 ? blocks + (q + window - q * t.chunk) * t.chains : (2.0 * cascade.reach() + 3) * t.chains;
    const double staged = t.axis == 0 ? std::ceil(static_cast<double>(t.lines) * t.segment() / n) : 0.0;
    most = std::max(most, loads + start + t.chains * t.chunk * (1.0 + static_cast<double>(cascade.taps().size())) + staged);
  }
  return most;
}

double float_terms(const Cascade& cascade, int chunk) {
  const double l = chunk, w = static_cast<double>(cascade.sum());
  if (cascade.order() == 1) return sliding::slide_terms(cascade.reach(), l) + sliding::kScaleTerms;
  // Norms of the state's weights: K (its sum W), D1 K, D2 K; and of the taps.
  const std::vector<long long> weights = cascade.state_weights();
  const size_t span = weights.size() / 3;
  double d1 = 0.0, d2 = 0.0;
  for (size_t q = 0; q < span; ++q) {
    d1 += std::abs(static_cast<double>(weights[span + q]));
    d2 += std::abs(static_cast<double>(weights[2 * span + q]));
  }
  double taps = 0.0;
  for (auto [offset, c] : cascade.taps()) taps += std::abs(c);
  const double n = static_cast<double>(span), steps2 = l * (l + 1) / 2, steps3 = l * (l + 1) * (l + 2) / 6;
  // The start: dot products of n terms, each rounding at most 2^-24 of its partial sums: y, and
  // D1 y carried into y once per step, D2 y twice (a running sum of a running sum).
  const double start = n + n * d1 / w * l + n * d2 / w * steps2;
  // Each step: the taps' sum and D2 y (values up to `taps` and d2) carried by two running sums,
  // D1 y by one, y itself.
  const double walk = (cascade.taps().size() * taps + d2) / w * steps3 + d1 / w * steps2 + l;
  return start + walk + sliding::kScaleTerms;
}

}  // namespace blurlab::box_walk
