// Depth of field's lens (effects/dof.h) and the scene camera's lens views (scene/scene.h), against
// the textbook's formulas worked out here independently: the circle of confusion on the sensor,
// where a sheared view puts a point, and the depth edges' mask.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>

#include "effects/dof.h"
#include "util/error.h"

namespace blurlab {
namespace {

dof::Lens lens(double focal_mm, double f_number, double focus, double sensor_mm) {
  dof::Lens l;
  l.focal_length_mm = focal_mm;
  l.f_number = f_number;
  l.focus_distance = focus;
  l.sensor_height_mm = sensor_mm;
  return l;
}

// The thin lens as textbooks write it, in millimetres: the blur circle's diameter on the sensor is
// A f |Z - Z_f| / (Z (Z_f - f)) for a point at Z when focused at Z_f (A = f / N); a frame of `rows`
// rows spans the sensor's height. Signed here: behind the focus positive.
double textbook_coc_pixels(const dof::Lens& l, double z_units, int rows) {
  const double u = dof::kMillimetresPerUnit, f = l.focal_length_mm, z = z_units * u, zf = l.focus_distance * u;
  const double diameter = (f / l.f_number) * f * (z - zf) / (z * (zf - f));
  return 0.5 * diameter / l.sensor_height_mm * rows;
}

TEST(DofLens, CircleOfConfusionIsTheTextbooksSignedNearNegative) {
  for (const dof::Lens& l : {lens(28, 2, 8.25, 24), lens(50, 1.4, 7.0, 24), lens(85, 8, 20.0, 15.6), lens(12, 0.95, 3.0, 4.8)})
    for (int rows : {90, 1080, 2160})
      for (double z : {1.0, 6.85, 7.5, 8.25, 9.0, 9.65, 30.0}) {
        const double expected = textbook_coc_pixels(l, z, rows);
        EXPECT_NEAR(l.coc(z, rows), expected, 1e-9 * (1.0 + std::abs(expected))) << "z " << z << " rows " << rows;
        if (z < l.focus_distance) {
          EXPECT_LT(l.coc(z, rows), 0.0);
        }
        if (z > l.focus_distance) {
          EXPECT_GT(l.coc(z, rows), 0.0);
        }
      }
  EXPECT_EQ(lens(28, 2, 8.25, 24).coc(8.25, 1080), 0.0);
  // The default lens at 1080 rows, focused on the middle row of the objects: the backdrop's circle
  // (what dof.h's numbers say) and the nearest surface's.
  EXPECT_NEAR(lens(28, 2, 8.25, 24).coc(30.0, 1080), 16.6, 0.1);
  EXPECT_NEAR(lens(28, 2, 8.25, 24).coc(6.85, 1080), -4.7, 0.1);
}

TEST(DofLens, FieldOfViewIsTheSensorSeenFromTheImageDistance) {
  const dof::Lens l = lens(28, 2, 8.25, 24);
  const double v = 28.0 * 412.5 / (412.5 - 28.0);
  EXPECT_NEAR(l.image_distance_mm(), v, 1e-12);
  EXPECT_NEAR(l.vertical_fov(), 2.0 * std::atan(12.0 / v), 1e-15);
  EXPECT_NEAR(l.camera().field_of_view_y, static_cast<float>(l.vertical_fov()), 1e-7);
  EXPECT_NEAR(l.aperture_diameter(), 14.0 / 50.0, 1e-15);
}

TEST(DofLens, CircleIsAffineInTheWindowDepth) {
  const dof::Lens l = lens(28, 2, 8.25, 24);
  const SceneCamera camera = l.camera();
  const glm::dvec2 ab = dof::coc_from_window_depth(l, camera, 1080);
  for (double d : {0.0, 0.5, 0.9, 0.95, 0.97, 0.999, 1.0})
    EXPECT_NEAR(ab.x + ab.y * d, l.coc(camera.view_depth(d), 1080), 1e-9) << d;
}

// Where a camera puts a world point: the picture's column and row (row 0 at the top).
glm::dvec2 pixel(const SceneCamera& camera, glm::vec3 world, glm::ivec2 size) {
  const glm::vec4 clip = camera.view_projection(static_cast<float>(size.x) / static_cast<float>(size.y)) * glm::vec4(world, 1.0f);
  const double x = clip.x / clip.w, y = clip.y / clip.w;
  return {(x + 1.0) * 0.5 * size.x, (y + 1.0) * 0.5 * size.y};
}

TEST(SceneCameraLens, APinholeIsTheSceneCameraAsItAlwaysWas) {
  const SceneCamera plain;
  for (float aspect : {16.0f / 9.0f, 1.0f, 0.5f}) {
    const glm::mat4 flip = glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, -1.0f, 1.0f));
    const glm::mat4 before = flip * glm::perspective(SceneCamera::fov_y(aspect), aspect, 0.5f, 30.0f) *
                             glm::lookAt(glm::vec3(0, 0, 7.5f), glm::vec3(0), glm::vec3(0, 1, 0));
    EXPECT_TRUE(plain.view_projection(aspect) == before) << aspect;  // bit for bit
  }
  EXPECT_EQ(plain.eye_position(), plain.eye);
  EXPECT_EQ(plain.backdrop_shift({1920, 1080}), glm::vec2(0.0f));
}

// A view from a point of the lens: the focus plane stays put, a point at view depth z moves by the
// lens offset times H / (2 tan(fov / 2)) (1 / z_f - 1 / z) pixels (rows grow downwards, so up in the
// lens is up in the picture: fewer rows). Averaged over the aperture's disk, exactly coc(z)'s disk.
TEST(SceneCameraLens, TheShearKeepsTheFocusPlaneAndMovesTheRestByTheCircle) {
  const glm::ivec2 size{1920, 1080};
  const dof::Lens l = lens(28, 2, 8.25, 24);
  const SceneCamera centre = l.camera();
  const double per_inverse_depth = size.y / (2.0 * std::tan(centre.field_of_view_y / 2.0));
  for (glm::dvec2 point : {glm::dvec2(1, 0), glm::dvec2(0, 1), glm::dvec2(-0.6, 0.8), glm::dvec2(0.3, -0.2)}) {
    const SceneCamera view = l.view(point);
    const glm::dvec2 offset = glm::dvec2(view.lens_offset);
    for (double z : {6.85, 8.25, 9.0, 20.0, 29.0})
      for (glm::vec2 lateral : {glm::vec2(0.0f), glm::vec2(2.0f, -1.0f), glm::vec2(-3.5f, 1.5f)}) {
        const glm::vec3 world(lateral.x, lateral.y, static_cast<float>(7.5 - z));
        const glm::dvec2 moved = pixel(view, world, size) - pixel(centre, world, size);
        const double k = per_inverse_depth * (1.0 / l.focus_distance - 1.0 / z);
        EXPECT_NEAR(moved.x, offset.x * k, 2e-3) << "z " << z;
        EXPECT_NEAR(moved.y, -offset.y * k, 2e-3) << "z " << z;
      }
    // The backdrop, drawn in window space, moves as a point at the far plane does.
    const glm::vec3 far_point(1.0f, -0.5f, 7.5f - view.far_plane);
    const glm::dvec2 backdrop = pixel(view, far_point, size) - pixel(centre, far_point, size);
    EXPECT_NEAR(view.backdrop_shift(size).x, backdrop.x, 2e-3);
    EXPECT_NEAR(view.backdrop_shift(size).y, backdrop.y, 2e-3);
    // The radius of that displacement at unit lens offset is the circle of confusion's per unit of
    // aperture radius: the disk of lens points makes coc(z)'s disk.
    EXPECT_NEAR(0.5 * l.aperture_diameter() * per_inverse_depth * (1.0 / l.focus_distance - 1.0 / 30.0), l.coc(30.0, size.y), 1e-3);
  }
}

TEST(DofLens, ApertureHasTheDisksSecondMoment) {
  for (int n : {16, 100, 1000}) {
    const std::vector<glm::dvec2> points = dof::aperture_points(n);
    ASSERT_EQ(points.size(), static_cast<size_t>(n));
    glm::dvec2 mean(0.0);
    double second = 0.0;
    for (glm::dvec2 p : points) {
      EXPECT_LE(glm::length(p), 1.0);
      mean += p / static_cast<double>(n);
      second += glm::dot(p, p) / n;
    }
    EXPECT_NEAR(second, 0.5, 1e-12);  // (sum (i + 1/2)) / n^2 = 1/2 exactly
    EXPECT_LT(glm::length(mean), 3.0 / n);
  }
}

TEST(DofLens, BoxLevelHasTheDisksSecondMoment) {
  for (double c : {0.0, 1.0, 2.5, 16.6, 100.0}) {
    const double r = dof::box_radius(c);
    EXPECT_NEAR(r * (r + 1.0) / 3.0, c * c / 4.0, 1e-9 * (1.0 + c * c));
  }
  EXPECT_EQ(dof::level_of_coc(0.0, 10), 0);
  EXPECT_EQ(dof::level_of_coc(-16.6, 100), 14);  // r = 13.88
  EXPECT_EQ(dof::level_of_coc(16.6, 10), 10);
}

// near-far's dilation: a pixel's near field must hear from every tile holding a texel whose near
// circle may cover it. A texel in a tile D + 1 tiles away (Chebyshev) from the pixel's lies at
// least D tiles and one texel from it, 2 (D kNearFarTile + 1) full-resolution pixels along an axis;
// a circle c covers a pixel within c + 1/2 (the soft edge). So the tiles beyond the dilation must lie
// beyond the scene's largest near circle.
TEST(DofNearFar, DilationReachesEveryTileANearCircleCovers) {
  for (const dof::Lens& l : {lens(28, 2, 8.25, 24), lens(28, 0.25, 8.25, 24), lens(50, 1.4, 9.0, 24), lens(28, 1, 30.0, 24)})
    for (int rows : {90, 360, 1080, 2160}) {
      dof::Config c;
      c.lens = l;
      const double nearest_circle = -l.coc(dof::nearest_surface(), rows);
      const int d = dof::near_dilation_tiles(c, rows);
      EXPECT_GE(d, 0);
      if (nearest_circle > 1.0) {  // a near field exists
        EXPECT_GE(2.0 * (d * dof::kNearFarTile + 1), nearest_circle + 0.5) << "f/" << l.f_number << " focus " << l.focus_distance << " rows " << rows;
      }
    }
}

TEST(DofEdges, MaskHoldsThePixelsWithinReachOfADepthJump) {
  const glm::ivec2 size{40, 300};  // 1% of 300 rows: k = 3
  ASSERT_EQ(dof::edge_reach(size), 3);
  std::vector<double> z(static_cast<size_t>(size.x) * size.y, 30.0);
  for (int y = 100; y < 200; ++y)
    for (int x = 10; x < 30; ++x) z[static_cast<size_t>(y) * size.x + x] = 8.0 + 0.01 * x;  // a slanted face: no jump within it
  const std::vector<uint8_t> mask = dof::depth_edge_mask(z, size);
  // The edge pixels, by hand: both sides of each side of the rectangle (not the corners' diagonal
  // neighbours, which have no 4-neighbour across the boundary).
  std::vector<glm::ivec2> edges;
  for (int y = 100; y < 200; ++y)
    for (int x : {9, 10, 29, 30}) edges.emplace_back(x, y);
  for (int x = 10; x < 30; ++x)
    for (int y : {99, 100, 199, 200}) edges.emplace_back(x, y);
  for (int y = 0; y < size.y; ++y)
    for (int x = 0; x < size.x; ++x) {
      bool expected = false;
      for (glm::ivec2 e : edges) expected = expected || std::max(std::abs(x - e.x), std::abs(y - e.y)) <= 3;
      ASSERT_EQ(mask[static_cast<size_t>(y) * size.x + x] != 0, expected) << x << "," << y;
    }
}

}  // namespace
}  // namespace blurlab
