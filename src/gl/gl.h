#pragma once
// The one place that includes the GL loader (libepoxy): it resolves core and extension
// entry points for whichever context (EGL or GLX) is current.
#include <epoxy/gl.h>
