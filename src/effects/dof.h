#pragma once
// Depth of field: what a thin lens does to the HDR scene, and the techniques that approximate it
// after the fact from the frame and its depth. What dof.cpp (the lens, the effect, its ground
// truth, the variable-radius variants as its blur) and dof_near_far.cpp (the engines' technique)
// share.
//
// The lens. A thin lens of focal length f and f-number N focused at distance z_f forms its image
// of that plane at v = f z_f / (z_f - f) behind it, where the sensor (height S) lies: the frame's
// vertical field of view is 2 atan(S / 2v), and the aperture's diameter is A = f / N. A point at
// view depth z (its distance along the view axis) is spread on the sensor over a disk, its circle
// of confusion, of radius (A / 2) v |1/z_f - 1/z|; on a frame of H rows, in pixels,
//   coc(z) = K (1/z_f - 1/z),  K = (A / 2) H v / S,
// signed: negative in front of the focus (the near field), positive behind it (the far field).
// Lengths of the lens are in millimetres, the scene's in its units: one unit is kMillimetresPerUnit
// (the scene is a tabletop: icosahedra about 5 cm across, seen from 37.5 cm).
//
// The ground truth. The same lens as a camera: the scene rendered from points spread over the
// aperture's disk, each view's projection sheared so that the plane at z_f stays put
// (SceneCamera::lens_offset), a point at depth z then lands (lens offset) (H / 2 tan(fov / 2))
// (1/z_f - 1/z) pixels from where the lens's centre sees it: over the disk of radius A / 2 exactly
// coc(z)'s disk. Averaged in HDR (effects/scene_mean.h) and shown like every effect's frame
// (effects/tonemap.h): the picture a lens makes, occlusion and all, independent of every technique.
//
// The techniques see only the frame (from the lens's centre) and its depth. Each is judged on its
// shipped frame against the ground truth over the whole frame and over the pixels near depth edges
// (depth_edge_mask), where a technique that gathers at each pixel's own radius spreads sharp
// foreground over the blurred background (halos) and cuts blurred foreground off at its silhouette.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "effects/effect.h"
#include "image/image.h"
#include "scene/scene.h"

namespace blurlab::dof {

inline constexpr double kMillimetresPerUnit = 50.0;
// The largest circle of confusion (radius, pixels) over the scene's depth range that the
// techniques take: a variable-radius variant's box of the same second moment stays within the
// radius a variant reaches (blur/kernel.h kMaxRadius), and the ground truth's views within reason.
inline constexpr double kMaxCocRadius = 128.0;
// The ground truth's views over the aperture: at most this many (--lens-views).
inline constexpr int kMaxViews = 4096;
// The widest vertical field of view a lens may give.
inline constexpr double kMaxFovDegrees = 120.0;

struct Lens {
  double focal_length_mm = 28.0;
  double f_number = 2.0;
  double focus_distance = 8.25;  // scene units, along the view axis
  double sensor_height_mm = 24.0;

  double image_distance_mm() const;   // v
  double vertical_fov() const;        // radians
  double aperture_diameter() const;   // A, scene units
  // K of coc(z) = K (1/z_f - 1/z) on a frame of `rows` rows.
  double coc_scale(int rows) const;
  double coc(double view_depth, int rows) const;
  // The frame's camera: the scene's eye and target, the lens's field of view.
  SceneCamera camera() const;
  // The view of the ground truth from `point` of the aperture (a point of the unit disk).
  SceneCamera view(glm::dvec2 point) const;
};

// The scene's depth range: the view depths (from the frame's eye) its objects' surfaces span, and
// the backdrop, which lies at the far plane (the depth buffer's clear value).
double nearest_surface();
double farthest_surface();

struct Config {
  Lens lens;
  int views = 0;           // the ground truth's views over the aperture
  bool views_auto = true;  // --lens-views auto: views chosen from the largest circle
  double largest_coc = 0;  // |coc| over the scene's depth range, pixels
};
// The parameters' values for a frame of `size`; throws UsageError (one line, with the numbers).
Config config(const EffectValues& values, glm::ivec2 size);
// The views --lens-views auto takes for a largest circle of confusion of radius `coc` pixels: the
// aperture's points sampled at most a pixel apart on the frame (pi coc^2 of them), from 16 up to
// kMaxViews.
int auto_views(double largest_coc);
// What a focus outside the scene's depth range means (EffectInfo::note), or empty.
std::string focus_note(const Lens& lens);

// n points over the unit disk, evenly: the golden-angle spiral (Vogel), point i at radius
// sqrt((i + 1/2) / n), angle i pi (3 - sqrt 5).
std::vector<glm::dvec2> aperture_points(int n);
std::vector<SceneCamera> lens_views(const Lens& lens, int n);

// Each pixel's view depth and signed circle of confusion from the depth image (window depth in red).
std::vector<double> view_depths(const Image& depth, const SceneCamera& camera);
// coc = a + b d for a window depth d (what the GPU's passes compute, from the same numbers in fp32).
glm::dvec2 coc_from_window_depth(const Lens& lens, const SceneCamera& camera, int rows);

// The variable-radius variants' level of a circle of confusion: the box (2r + 1 taps a side) of
// the disk's second moment, r (r + 1) / 3 = c^2 / 4, r = (sqrt(1 + 3 c^2) - 1) / 2, rounded (halves
// up) and at most `max_level`.
double box_radius(double coc);
int level_of_coc(double coc, int max_level);
// R, the variants' kernel radius: the level of the largest circle.
int max_level(const Config& c);

// The pixels near depth edges: a pixel is at an edge where a 4-neighbour's view depth differs by
// more than kEdgeDepthJump of the nearer one's (an object's silhouette, against the backdrop or
// another object; a face of an icosahedron, even at a grazing angle, changes far less from pixel
// to pixel); the mask holds every pixel within edge_reach(size) pixels (a square) of one.
inline constexpr double kEdgeDepthJump = 0.1;
// k: 1% of the frame's height (at least 1): where halos and cut silhouettes live at every size.
int edge_reach(glm::ivec2 size);
std::vector<uint8_t> depth_edge_mask(const std::vector<double>& view_depth, glm::ivec2 size);
std::string edge_region_name(glm::ivec2 size);

// Texture slots of the effect's stages (EffectPasses::texture).
inline constexpr int kLevelsSlot = 0;    // the variants' levels, from the circles of confusion
inline constexpr int kBlurredSlot = 1;   // their blur of the HDR frame
inline constexpr int kHalfSlot = 10;     // near-far: the half-resolution frame and circles
inline constexpr int kTilesSlot = 11;    //   each tile's largest near and far circles
inline constexpr int kDilatedSlot = 12;  //   the same over the tiles around
inline constexpr int kFarSlot = 13;      //   the far field
inline constexpr int kNearSlot = 14;     //   the near field

// The engines' technique (dof_near_far.cpp).
inline constexpr std::string_view kNearFar = "near-far";
std::unique_ptr<Effect> create_near_far();
// Its tiles: kNearFarTile x kNearFarTile half-resolution texels (a gather workgroup). A pixel's
// near field gathers from the tiles within near_dilation_tiles of its own: those holding a texel
// whose near circle (the scene's largest, plus a pixel of soft edge) may cover it.
inline constexpr int kNearFarTile = 8;
int near_dilation_tiles(const Config& c, int rows);
// Its stages against its CPU model, each from the stage's input as the GPU made it.
std::vector<StageCheck> check_near_far(const EffectReadback& run, const Config& c);
std::string describe_near_far(const Config& c, glm::ivec2 size);

}  // namespace blurlab::dof
