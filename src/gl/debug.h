#pragma once
// KHR_debug output: every GL error is printed (one line, with the object labels GL gives) and
// counted, so a test or a --gl-debug run fails on the first error instead of drawing garbage.
#include <cstddef>

namespace blurlab::gl {

// Debug builds check every GL call path with KHR_debug; release builds do with --gl-debug.
#ifdef NDEBUG
inline constexpr bool kDebugBuild = false;
#else
inline constexpr bool kDebugBuild = true;
#endif

// Installs the callback on the current context (synchronous, so the message points at the
// call that caused it). Returns false where the context has no KHR_debug.
bool enable_debug_output();
// GL errors reported since the program started (all threads: the callback counts process-wide).
size_t debug_error_count();

}  // namespace blurlab::gl
