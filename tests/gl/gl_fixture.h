#pragma once
// One headless GL context per test process (debug output on); every GL test fails if the
// driver reported a GL error while it ran.
#include <glm/vec2.hpp>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "gl/context.h"
#include "gl/debug.h"
#include "gl/format.h"
#include "image/image.h"

namespace blurlab::test {

const gl::GlInfo& gl_info();

// blurlab-run-recipe of this build, found beside this test program as the build lays them out, so
// that a build packed and run in another folder (tests/gpu/pack.sh) runs its own runner.
std::string run_recipe_program();
// The sources' assets/: BLURLAB_ASSETS_DIR from the environment where CTest sets it (a packed
// build's CTest files name the sources where they run), else those this build was made from.
std::string assets_dir();

class GlTest : public ::testing::Test {
 protected:
  void SetUp() override { errors_before_ = gl::debug_error_count(); }
  void TearDown() override {
    EXPECT_EQ(gl::debug_error_count(), errors_before_) << "OpenGL errors were reported (see stderr)";
  }

 private:
  size_t errors_before_ = 0;
};

// Noise over hard-edged blocks of `block` texels: every wrong tap, offset or border shows. rgba8
// inputs are quantized by the upload; rgba16f inputs are linear-light HDR values up to 4.
inline Image blocks_under_noise(glm::ivec2 size, gl::Format format, unsigned seed, glm::ivec2 block) {
  Image image(size.x, size.y);
  std::mt19937 rng(seed);
  const float peak = format == gl::Format::rgba8 ? 1.0f : 4.0f;
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int y = 0; y < size.y; ++y)
    for (int x = 0; x < size.x; ++x)
      for (int c = 0; c < 4; ++c) {
        const bool on = ((x / block.x) + (y / block.y) + c) % 3 == 0;
        image.at(x, y, c) = peak * (on ? 0.7f : 0.0f) + peak * 0.3f * u(rng);
      }
  return image;
}

template <typename Param>
class GlTestWithParam : public GlTest, public ::testing::WithParamInterface<Param> {};

}  // namespace blurlab::test
