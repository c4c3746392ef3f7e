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

// Write after read: a pass stores into a texture an earlier pass read (a scratch image reused by
// the next layer). Without the barrier a GPU overlapped the two and the reader saw new texels.
TEST(Barriers, AStoreWaitsForEarlierReadsOfItsTexture) {
  std::vector<GLbitfield> issued;
  BarrierTracker t([&](GLbitfield b) { issued.push_back(b); });
  t.before_store(5);  // nothing touched it yet
  EXPECT_TRUE(issued.empty());
  t.shader_accessed(4);  // read by one pass
  t.before_store(5);     // another texture: free to go
  EXPECT_TRUE(issued.empty());
  t.before_store(4);
  ASSERT_EQ(issued, std::vector<GLbitfield>{GL_SHADER_IMAGE_ACCESS_BARRIER_BIT});
  t.before_store(4);  // behind that barrier now
  EXPECT_EQ(issued.size(), 1u);
}

TEST(Barriers, AStoreWaitsForEarlierStoresAndAnyImageBarrierCoversIt) {
  std::vector<GLbitfield> issued;
  BarrierTracker t([&](GLbitfield b) { issued.push_back(b); });
  t.image_stored(8);  // write after write
  t.shader_accessed(8);
  t.before_store(8);
  EXPECT_EQ(issued, std::vector<GLbitfield>{GL_SHADER_IMAGE_ACCESS_BARRIER_BIT});
  // A read-after-write barrier for another texture also orders later stores after every access.
  t.image_stored(1);
  t.shader_accessed(1);
  t.shader_accessed(2);
  t.before(Access::ImageLoad, 1);
  t.before_store(2);
  EXPECT_EQ(issued.size(), 2u);
  // A texture-fetch barrier does not.
  t.image_stored(3);
  t.shader_accessed(3);
  t.shader_accessed(2);
  t.before(Access::TextureFetch, 3);
  t.before_store(2);
  EXPECT_EQ(issued, (std::vector<GLbitfield>{GL_SHADER_IMAGE_ACCESS_BARRIER_BIT, GL_SHADER_IMAGE_ACCESS_BARRIER_BIT,
                                             GL_TEXTURE_FETCH_BARRIER_BIT, GL_SHADER_IMAGE_ACCESS_BARRIER_BIT}));
}

TEST(Barriers, ForgottenTexturesNeedNothing) {
  std::vector<GLbitfield> issued;
  BarrierTracker t([&](GLbitfield b) { issued.push_back(b); });
  t.image_stored(3);
  t.shader_accessed(3);
  t.forget(3);
  t.before(Access::Framebuffer, 3);
  t.before_store(3);
  EXPECT_TRUE(issued.empty());
}

}  // namespace
}  // namespace blurlab::gl
