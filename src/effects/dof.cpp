// dof: depth of field from the scene's depth, judged against the lens itself (effects/dof.h has
// the lens's formulas). The lens, its parameters and its ground truth (the scene rendered over
// the aperture, effects/scene_mean.h); and the baseline technique: each variable-radius variant
// (blur/radius_map.h) fed each pixel's circle of confusion as its level, gathering at the pixel's
// own radius. Its own passes are glsl/effects/dof.comp; the engines' technique, near and far
// fields gathered over dilated tiles, is dof_near_far.cpp.
#include "effects/dof.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "blur/check.h"
#include "blur/model.h"
#include "blur/registry.h"
#include "effects/tonemap.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::dof {

namespace {

const EffectParameter kFocalLength{"focal-length", "depth of field: the lens's focal length in mm, 1..1000 (with --sensor-height it sets the field of view)", "28"};
const EffectParameter kFNumber{"f-number", "depth of field: the aperture's f-number N, above 0 up to 1000 (its diameter is the focal length / N)", "2", 0.5,
                                 22.0};
const EffectParameter kFocusDistance{
    "focus-distance",
    "depth of field: the distance in focus, in scene units (5 cm) along the view axis; the objects' centres lie 7.5..9 from the "
    "eye, 8.25 focuses on the middle row of them",
    "8.25"};
const EffectParameter kSensorHeight{"sensor-height", "depth of field: the sensor's height in mm (the frame's rows), 1..100", "24"};
const EffectParameter kLensViews{
    "lens-views",
    "depth of field: the views over the aperture its ground truth averages, 1..4096, or auto (the aperture sampled a pixel apart "
    "at the largest circle of confusion)",
    "auto"};

double number(const EffectValues& values, const EffectParameter& p, double low, double high, std::string_view unit) {
  const std::string& text = values.at(std::string(p.name));
  const auto v = parse_double(trim(text));
  if (!v || !std::isfinite(*v)) throw UsageError("--" + std::string(p.name) + " '" + shortened(text, 40) + "' is not a number");
  if (*v < low || *v > high)
    throw UsageError("--" + std::string(p.name) + " " + format_double(*v) + " is out of range " + format_double(low) + ".." +
                     format_double(high) + std::string(unit));
  return *v;
}

Lens lens_of(const EffectValues& values) {
  Lens lens;
  lens.focal_length_mm = number(values, kFocalLength, 1.0, 1000.0, " (millimetres)");
  const std::string& n = values.at(std::string(kFNumber.name));
  if (const auto v = parse_double(trim(n)); v && std::isfinite(*v) && *v <= 0.0)
    throw UsageError("--f-number " + format_double(*v) + " must be above 0 (the aperture's diameter is the focal length over it)");
  lens.f_number = number(values, kFNumber, 0.0, 1000.0, "");
  lens.sensor_height_mm = number(values, kSensorHeight, 1.0, 100.0, " (millimetres)");
  const std::string& focus = values.at(std::string(kFocusDistance.name));
  if (const auto v = parse_double(trim(focus)); v && std::isfinite(*v) && *v <= 0.0)
    throw UsageError("--focus-distance " + format_double(*v) + " must be above 0 (scene units in front of the eye)");
  lens.focus_distance = number(values, kFocusDistance, 0.0, 1e6, " (scene units)");
  const double focus_mm = lens.focus_distance * kMillimetresPerUnit;
  if (!(focus_mm > lens.focal_length_mm))
    throw UsageError("--focus-distance " + format_double(lens.focus_distance) + " (" + format_double(focus_mm) + " mm) is not beyond the focal length " +
                     format_double(lens.focal_length_mm) + " mm: a thin lens forms no image of it");
  const double fov = lens.vertical_fov() * 180.0 / std::numbers::pi;
  if (fov > kMaxFovDegrees)
    throw UsageError("--sensor-height " + format_double(lens.sensor_height_mm) + " mm with --focal-length " + format_double(lens.focal_length_mm) +
                     " mm (focused at " + format_double(lens.focus_distance) + ") gives a vertical field of view of " + format_double(fov, 4) +
                     " degrees, above " + format_double(kMaxFovDegrees));
  return lens;
}

void validate(const EffectValues& values, const std::vector<glm::ivec2>& sizes) {
  for (glm::ivec2 size : sizes) config(values, size);
}

std::string note(const EffectValues& values) { return focus_note(lens_of(values)); }

SceneCamera frame_camera(const EffectValues& values, glm::ivec2) { return lens_of(values).camera(); }

std::vector<SceneCamera> truth_views(const EffectValues& values, glm::ivec2 size) {
  const Config c = config(values, size);
  return lens_views(c.lens, c.views);
}

// The variants' kernel for the circles of confusion: boxes (every variable-radius variant blurs
// them, variable-sat nothing else) of radius R, each pixel's level its own box.
BlurSettings stage_settings(const EffectSettings& s, const Config& c) {
  BlurSettings b;
  b.kernel = Kernel{KernelType::Box, max_level(c), 0.0};
  b.border = s.border;
  b.input_format = gl::Format::rgba16f;
  b.knobs = s.knobs;
  return b;
}

glm::vec4 coc_pass_values(const Config& c, glm::ivec2 size) {
  const glm::dvec2 ab = coc_from_window_depth(c.lens, c.lens.camera(), size.y);
  return {static_cast<float>(ab.x), static_cast<float>(ab.y), 0.0f, 0.0f};
}

// Depth of field by a variable-radius variant: each pixel's circle of confusion from the depth as
// its level (glsl/effects/dof.comp pass 0), the variant's blur of the frame at those levels, the
// tonemap (pass 1). The baseline: a pixel gathers its own disk's neighbours whatever their depth.
class VariantDof final : public Effect {
 public:
  explicit VariantDof(const VariantInfo& variant) : variant_(variant) {}

  std::optional<Refusal> prepare(EffectSetup& setup) override {
    config_ = config(setup.settings().values, setup.size());
    if (auto refusal = setup.blur_stage(0, variant_, stage_settings(setup.settings(), config_))) return refusal;
    levels_ = &setup.compute("effects/dof.comp", {{"DOF_PASS", "0"}, {"MAX_LEVEL", std::to_string(max_level(config_))}});
    composite_ = &setup.compute("effects/dof.comp", {{"DOF_PASS", "1"}});
    return std::nullopt;
  }

  void run(EffectPasses& p) override {
    const glm::ivec2 size = p.size();
    const DispatchGrid grid = groups_covering(size, {16, 16});
    const gl::Texture& levels = p.texture(kLevelsSlot, gl::Format::rgba8, size, "dof levels");
    p.dispatch("prefilter", *levels_, {Binding::sampled(p.depth()), Binding::write_raw(levels)}, grid, coc_pass_values(config_, size));
    const gl::Texture& blurred = p.texture(kBlurredSlot, gl::Format::rgba16f, size, "dof blurred");
    p.blur(0, p.color(), blurred, "blur", &levels);
    p.dispatch("composite", *composite_, {Binding::read(blurred), Binding::write(p.output())}, grid);
  }

 private:
  const VariantInfo& variant_;
  Config config_;
  const gl::Program* levels_ = nullptr;
  const gl::Program* composite_ = nullptr;
};

bool serves_dof(const VariantInfo& v) { return is_blur(v) && v.variable_radius; }

std::vector<std::string> implementations() {
  std::vector<std::string> names;
  for (const VariantInfo* v : variants())
    if (serves_dof(*v)) names.emplace_back(v->name);
  names.emplace_back(kNearFar);
  return names;
}

std::unique_ptr<Effect> create(std::string_view implementation) {
  if (implementation == kNearFar) return create_near_far();
  const VariantInfo* v = find_variant(implementation);
  if (!v || !serves_dof(*v)) throw UsageError("dof: '" + std::string(implementation) + "' does not blur by a per-pixel radius");
  return std::make_unique<VariantDof>(*v);
}

// The levels pass against the levels of the circles computed in double from the same depth: equal,
// but where the box radius lies within 1e-3 of a rounding boundary (k + 1/2), where the GPU's fp32
// may round to either side.
StageCheck check_levels(const Image& gpu, const Image& depth, const Config& c) {
  const SceneCamera camera = c.lens.camera();
  const int top = max_level(c);
  CheckResult result;
  for (int y = 0; y < gpu.height; ++y)
    for (int x = 0; x < gpu.width; ++x) {
      const double r = box_radius(c.lens.coc(camera.view_depth(depth.at(x, y, 0)), gpu.height));
      const int expected = level_of_coc(c.lens.coc(camera.view_depth(depth.at(x, y, 0)), gpu.height), top);
      const double seen = std::round(static_cast<double>(gpu.at(x, y, 0)) * 255.0);
      const double boundary = std::abs(r - std::floor(r) - 0.5);
      const double allowed = r < top && boundary < 1e-3 ? 1.0 : 0.0;
      const double error = std::abs(seen - expected);
      result.count(x, y, 0, seen, expected, error, allowed);
    }
  result.ok = result.worst_fraction <= 1.0;
  return {"prefilter", result,
          {.lsb = true, .lsb_limit = 0,
           .reason = "each pixel's level (the box of its circle's second moment, rounded) from its depth in double: equal, or one "
                     "apart where the radius lies within 1e-3 of a rounding boundary (fp32)"}};
}

// The levels as the GPU made them, as a radius map the variants' references and models read back
// exactly: a file map of the frame's size whose values are the levels, of maximum R.
std::shared_ptr<const RadiusMap> levels_as_map(const Image& gpu, int top) {
  auto map = std::make_shared<RadiusMap>();
  map->shape = MapShape::File;
  map->name = "the circles of confusion as the GPU made them";
  map->width = gpu.width;
  map->height = gpu.height;
  map->max_value = std::max(top, 1);
  map->values.resize(static_cast<size_t>(gpu.width) * gpu.height);
  for (size_t i = 0; i < map->values.size(); ++i)
    map->values[i] = static_cast<uint16_t>(std::clamp<long>(std::lround(gpu.texels[i * 4] * 255.0f), 0, top));
  return map;
}

// The shipped frame against the tonemap of the GPU's own blur, in double: one rounding to 8 bits.
Tolerance tonemap_tolerance() {
  return {.lsb = true, .lsb_limit = 1, .reason = "the tonemap in fp32 against double, of the GPU's own blur: one rounding to 8 bits, 1 LSB"};
}

ReferenceImage displayed(const Image& hdr) {
  ReferenceImage out = model::blank(hdr.width, hdr.height);
  for (size_t i = 0; i < out.texels.size(); ++i) out.texels[i] = i % 4 == 3 ? 1.0 : display_value(hdr.texels[i]);
  return out;
}

// A key of what the ground truth depends on: the lens and its views (the frame is the truths' own).
std::string truth_key(const EffectSettings& s, const Config& c) {
  std::string key = "dof";
  for (const auto& [name, value] : s.values)
    if (name != kLensViews.name) key += " " + name + "=" + value;
  return key + " views=" + std::to_string(c.views);
}

EffectCheck check(const EffectReadback& run, GroundTruths& truths) {
  const EffectSettings& s = *run.settings;
  const Config c = config(s.values, run.size);
  if (!run.scene_mean) throw Error("dof: the ground truth renders the scene, and this run's frame is not the scene's");
  const GroundTruths::Truth truths_of_frame = truths.get(truth_key(s, c), [&] {
    return std::vector<ReferenceImage>{displayed(run.scene_mean(truth_views(s.values, run.size)))};
  });
  EffectCheck result;
  if (s.implementation == kNearFar) {
    result.stages = check_near_far(run, c);
  } else {
    const VariantInfo& variant = *find_variant(s.implementation);
    const Image gpu_levels = run.stage_texture(kLevelsSlot);
    result.stages.push_back(check_levels(gpu_levels, *run.depth, c));
    BlurSettings stage = stage_settings(s, c);
    stage.radius_map = levels_as_map(gpu_levels, max_level(c));
    const BlurSettings resolved = resolve(variant, stage);
    const Image blurred = run.stage_texture(kBlurredSlot);
    const Tolerance t = tolerance_for(variant, resolved, run.size, peak_magnitude(*run.color));
    result.stages.push_back({"blur", compare_to_reference(blurred, expected_output(variant, resolved, *run.color), t), t});
    const Tolerance shown = tonemap_tolerance();
    result.stages.push_back({"composite", compare_to_reference(*run.output, displayed(blurred), shown), shown});
  }
  const ReferenceImage& truth = truths_of_frame->front();
  result.fidelity = picture_fidelity(*run.output, truth);
  result.truth_picture = std::shared_ptr<const ReferenceImage>(truths_of_frame, &truth);
  auto mask = std::make_shared<const std::vector<uint8_t>>(depth_edge_mask(view_depths(*run.depth, c.lens.camera()), run.size));
  region_fidelity(*run.output, truth, *mask, edge_region_name(run.size), result.fidelity);
  result.region_mask = std::move(mask);
  return result;
}

std::string describe(const EffectSettings& s, glm::ivec2 size) {
  const Config c = config(s.values, size);
  char lens[160];
  std::snprintf(lens, sizeof lens, "%g mm f/%g focused at %g, largest circle of confusion %.1f px", c.lens.focal_length_mm, c.lens.f_number,
                c.lens.focus_distance, c.largest_coc);
  std::string text = s.implementation == kNearFar
                         ? describe_near_far(c, size)
                         : "each pixel's circle of confusion as a box level (R = " + std::to_string(max_level(c)) + "), blurred at its own level by " +
                               s.implementation + ", then the tonemap";
  text += std::string(" (") + lens + "; the ground truth: " + std::to_string(c.views) + " views over the aperture)";
  if (const std::string n = focus_note(c.lens); !n.empty()) text += "; " + n;
  return text;
}

}  // namespace

double Lens::image_distance_mm() const {
  const double z = focus_distance * kMillimetresPerUnit;
  return focal_length_mm * z / (z - focal_length_mm);
}

double Lens::vertical_fov() const { return 2.0 * std::atan(sensor_height_mm / (2.0 * image_distance_mm())); }

double Lens::aperture_diameter() const { return focal_length_mm / f_number / kMillimetresPerUnit; }

double Lens::coc_scale(int rows) const { return 0.5 * aperture_diameter() * rows * image_distance_mm() / sensor_height_mm; }

double Lens::coc(double view_depth, int rows) const { return coc_scale(rows) * (1.0 / focus_distance - 1.0 / view_depth); }

SceneCamera Lens::camera() const {
  SceneCamera camera;
  camera.field_of_view_y = static_cast<float>(vertical_fov());
  return camera;
}

SceneCamera Lens::view(glm::dvec2 point) const {
  SceneCamera camera = this->camera();
  const double radius = 0.5 * aperture_diameter();
  camera.lens_offset = glm::vec2(static_cast<float>(point.x * radius), static_cast<float>(point.y * radius));
  camera.focus_distance = static_cast<float>(focus_distance);
  return camera;
}

double nearest_surface() {
  const SceneCamera camera;
  return camera.eye.z - Scene::kObjectsNearestZ;
}

double farthest_surface() { return SceneCamera{}.far_plane; }

int auto_views(double largest_coc) {
  return static_cast<int>(std::clamp(std::ceil(std::numbers::pi * largest_coc * largest_coc), 16.0, static_cast<double>(kMaxViews)));
}

Config config(const EffectValues& values, glm::ivec2 size) {
  Config c;
  c.lens = lens_of(values);
  c.largest_coc = std::max(std::abs(c.lens.coc(nearest_surface(), size.y)), std::abs(c.lens.coc(farthest_surface(), size.y)));
  if (c.largest_coc > kMaxCocRadius)
    throw UsageError("the lens (" + format_double(c.lens.focal_length_mm) + " mm f/" + format_double(c.lens.f_number) + ", focused at " +
                     format_double(c.lens.focus_distance) + ") gives a circle of confusion of radius " + format_double(c.largest_coc, 4) +
                     " px at " + size_text(size) + " within the scene's depths " + format_double(nearest_surface(), 3) + ".." +
                     format_double(farthest_surface(), 3) + ", above the " + format_double(kMaxCocRadius) + " px the techniques reach");
  const std::string& views = values.at(std::string(kLensViews.name));
  if (trim(views) == "auto") {
    c.views = auto_views(c.largest_coc);
  } else {
    c.views_auto = false;
    bool out_of_range = false;
    const auto n = parse_int(trim(views), &out_of_range);
    if (!n && !out_of_range) throw UsageError("--lens-views '" + shortened(views, 40) + "' is neither auto nor a whole number");
    if (out_of_range || *n < 1 || *n > kMaxViews)
      throw UsageError("--lens-views '" + shortened(views, 40) + "' is out of range 1.." + std::to_string(kMaxViews) + " (or auto)");
    c.views = static_cast<int>(*n);
  }
  return c;
}

std::string focus_note(const Lens& lens) {
  const double nearest = nearest_surface(), farthest = farthest_surface();
  if (lens.focus_distance < nearest)
    return "--focus-distance " + format_double(lens.focus_distance) + " is nearer than anything in the scene (its depths: " + format_double(nearest, 3) +
           ".." + format_double(farthest, 3) + "): all of it lies behind the focus, in the far field";
  if (lens.focus_distance > farthest)
    return "--focus-distance " + format_double(lens.focus_distance) + " is beyond everything in the scene (its depths: " + format_double(nearest, 3) +
           ".." + format_double(farthest, 3) + "): all of it lies in front of the focus, in the near field";
  return "";
}

std::vector<glm::dvec2> aperture_points(int n) {
  const double golden_angle = std::numbers::pi * (3.0 - std::sqrt(5.0));
  std::vector<glm::dvec2> points;
  for (int i = 0; i < n; ++i) {
    const double r = std::sqrt((i + 0.5) / n), a = i * golden_angle;
    points.emplace_back(r * std::cos(a), r * std::sin(a));
  }
  return points;
}

std::vector<SceneCamera> lens_views(const Lens& lens, int n) {
  std::vector<SceneCamera> views;
  for (glm::dvec2 p : aperture_points(n)) views.push_back(lens.view(p));
  return views;
}

std::vector<double> view_depths(const Image& depth, const SceneCamera& camera) {
  std::vector<double> z(static_cast<size_t>(depth.width) * depth.height);
  for (size_t i = 0; i < z.size(); ++i) z[i] = camera.view_depth(depth.texels[i * 4]);
  return z;
}

glm::dvec2 coc_from_window_depth(const Lens& lens, const SceneCamera& camera, int rows) {
  // 1 / view_depth(d) = 1/n - d (f - n) / (f n) (SceneCamera::view_depth): coc is affine in d.
  const double n = camera.near_plane, f = camera.far_plane, k = lens.coc_scale(rows);
  return {k * (1.0 / lens.focus_distance - 1.0 / n), k * (f - n) / (f * n)};
}

double box_radius(double coc) { return 0.5 * (std::sqrt(1.0 + 3.0 * coc * coc) - 1.0); }

int level_of_coc(double coc, int max_level) { return std::min(static_cast<int>(std::floor(box_radius(coc) + 0.5)), max_level); }

int max_level(const Config& c) { return static_cast<int>(std::floor(box_radius(c.largest_coc) + 0.5)); }

int edge_reach(glm::ivec2 size) { return std::max(1, static_cast<int>(std::ceil(size.y / 100.0))); }

std::vector<uint8_t> depth_edge_mask(const std::vector<double>& z, glm::ivec2 size) {
  const int w = size.x, h = size.y, k = edge_reach(size);
  const auto at = [&](int x, int y) { return z[static_cast<size_t>(y) * w + x]; };
  const auto jump = [](double a, double b) { return std::abs(a - b) > kEdgeDepthJump * std::min(a, b); };
  std::vector<uint8_t> edge(static_cast<size_t>(w) * h, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double d = at(x, y);
      if ((x > 0 && jump(d, at(x - 1, y))) || (x + 1 < w && jump(d, at(x + 1, y))) || (y > 0 && jump(d, at(x, y - 1))) ||
          (y + 1 < h && jump(d, at(x, y + 1))))
        edge[static_cast<size_t>(y) * w + x] = 1;
    }
  // Within k of an edge pixel (a square): the rows' then the columns' running count of edges.
  std::vector<uint8_t> rows(edge.size(), 0), mask(edge.size(), 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int d = std::max(0, x - k); d <= std::min(w - 1, x + k) && !rows[static_cast<size_t>(y) * w + x]; ++d)
        rows[static_cast<size_t>(y) * w + x] = edge[static_cast<size_t>(y) * w + d];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int d = std::max(0, y - k); d <= std::min(h - 1, y + k) && !mask[static_cast<size_t>(y) * w + x]; ++d)
        mask[static_cast<size_t>(y) * w + x] = rows[static_cast<size_t>(d) * w + x];
  return mask;
}

std::string edge_region_name(glm::ivec2 size) {
  return "depth edges (within " + std::to_string(edge_reach(size)) + " px of a depth jump over " + format_double(100.0 * kEdgeDepthJump) + "%)";
}

}  // namespace blurlab::dof

namespace blurlab::effect {
extern const EffectInfo dof{
    .name = "dof",
    .summary = "depth of field of a thin lens from the frame's depth, judged against the lens itself (the scene rendered over its aperture)",
    .parameters = {dof::kFocalLength, dof::kFNumber, dof::kFocusDistance, dof::kSensorHeight, dof::kLensViews},
    .validate = dof::validate,
    .implementations = dof::implementations,
    .create = dof::create,
    .check = dof::check,
    .describe = dof::describe,
    .camera = dof::frame_camera,
    .note = dof::note,
    .ground_truth_views = dof::truth_views,
    .depth_parameter = dof::kFocusDistance.name,
};
}  // namespace blurlab::effect
