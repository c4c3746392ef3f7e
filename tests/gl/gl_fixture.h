#pragma once
// One headless GL context per test process (debug output on); every GL test fails if the
// driver reported a GL error while it ran.
#include <gtest/gtest.h>

#include "gl/context.h"
#include "gl/debug.h"

namespace blurlab::test {

const gl::GlInfo& gl_info();

class GlTest : public ::testing::Test {
 protected:
  void SetUp() override { errors_before_ = gl::debug_error_count(); }
  void TearDown() override {
    EXPECT_EQ(gl::debug_error_count(), errors_before_) << "OpenGL errors were reported (see stderr)";
  }

 private:
  size_t errors_before_ = 0;
};

template <typename Param>
class GlTestWithParam : public GlTest, public ::testing::WithParamInterface<Param> {};

}  // namespace blurlab::test
