#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "gl/gl.h"
#include "util/error.h"

#include "gl_fixture.h"

namespace blurlab::test {
namespace {
std::unique_ptr<gl::HeadlessContext> g_context;
}

const gl::GlInfo& gl_info() { return g_context->info(); }

std::string run_recipe_program() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / BLURLAB_RUN_RECIPE_FROM_TESTS).lexically_normal().string();
}

std::string assets_dir() {
  const char* dir = std::getenv("BLURLAB_ASSETS_DIR");
  return dir && *dir ? dir : BLURLAB_ASSETS_DIR;
}

}  // namespace blurlab::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Listing the tests (CTest's discovery at build time) needs no GL context.
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  // Tests run on the software rasterizer unless BLURLAB_TEST_DEVICE says otherwise, so results
  // do not depend on the machine's GPU.
  const char* device = std::getenv("BLURLAB_TEST_DEVICE");
  const auto preference = device && std::string(device) == "gpu" ? blurlab::gl::DevicePreference::Gpu
                          : device && std::string(device) == "auto" ? blurlab::gl::DevicePreference::Auto
                                                                    : blurlab::gl::DevicePreference::Software;
  try {
    blurlab::test::g_context = blurlab::gl::HeadlessContext::create(/*debug=*/true, preference);
  } catch (const blurlab::Error& e) {
    std::fprintf(stderr, "blurlab_gl_tests: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "%s", blurlab::gl::describe(blurlab::test::gl_info()).c_str());
  if (!blurlab::test::gl_info().debug || !epoxy_has_gl_extension("GL_KHR_debug")) {
    std::fprintf(stderr, "the test context has no KHR_debug output\n");
    return 1;
  }
  const int result = RUN_ALL_TESTS();
  blurlab::test::g_context.reset();
  return result;
}
