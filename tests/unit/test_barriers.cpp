#include <gtest/gtest.h>

#include <vector>

#include "gl/barriers.h"

namespace blurlab::gl {
namespace {

TEST(Barriers, NoneWithoutImageStores) {
  std::vector<GLbitfield> issued;
  BarrierTracker t([&](GLbitfield b) { issued.push_back(b); });
  t.before(Access::ImageLoad, 1);
  t.before(Access::TextureFetch, 1);
  t.before(Access::Framebuffer, 1);
  EXPECT_TRUE(issued.empty());
}

TEST(Barriers, TheBitOfTheNextAccessOnce) {
  std::vector<GLbitfield> issued;
  BarrierTracker t([&](GLbitfield b) { issued.push_back(b); });
  t.image_stored(7);
  t.before(Access::TextureFetch, 7);
  t.before(Access::TextureFetch, 7);
  ASSERT_EQ(issued, std::vector<GLbitfield>{GL_TEXTURE_FETCH_BARRIER_BIT});
  t.before(Access::ImageLoad, 7);
  t.before(Access::Framebuffer, 7);
  t.before(Access::TextureUpdate, 7);
  EXPECT_EQ(issued, (std::vector<GLbitfield>{GL_TEXTURE_FETCH_BARRIER_BIT, GL_SHADER_IMAGE_ACCESS_BARRIER_BIT,
                                             GL_FRAMEBUFFER_BARRIER_BIT, GL_TEXTURE_UPDATE_BARRIER_BIT}));
  t.before(Access::ImageLoad, 7);
  EXPECT_EQ(issued.size(), 4u);
}

TEST(Barriers, OneBarrierCoversEveryTextureWrittenBeforeIt) {
  std::vector<GLbitfield> issued;
  BarrierTracker t([&](GLbitfield b) { issued.push_back(b); });
  t.image_stored(1);
  t.image_stored(2);
  t.before(Access::ImageLoad, 1);
  t.before(Access::ImageLoad, 2);
  EXPECT_EQ(issued.size(), 1u);
  t.image_stored(2);  // written again: needs a new barrier
  t.before(Access::ImageLoad, 2);
  EXPECT_EQ(issued.size(), 2u);
  t.before(Access::ImageLoad, 1);
  EXPECT_EQ(issued.size(), 2u);
}

TEST(Barriers, ForgottenTexturesNeedNothing) {
  std::vector<GLbitfield> issued;
  BarrierTracker t([&](GLbitfield b) { issued.push_back(b); });
  t.image_stored(3);
  t.forget(3);
  t.before(Access::Framebuffer, 3);
  EXPECT_TRUE(issued.empty());
}

}  // namespace
}  // namespace blurlab::gl
