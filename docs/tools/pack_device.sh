#!/usr/bin/env bash
# Packs built programs for a lent GPU machine that has a GL driver but not this project's
# libraries: the programs, the shared libraries they need that such a machine's image lacks, and
# the GL loader packages (libglvnd's EGL/GL). Run it from the project's root after a Release build:
#   docs/tools/pack_device.sh build-release/app/blurlab [other programs or data folders...]
# It fills .device/ (ignored by git): programs in .device/bin, their libraries in .device/lib, each
# folder as .device/<its name>, the loader packages in .device/debs, and .device/env.sh, which a
# command on the GPU machine sources from the project's root (it unpacks the loaders into /, so it
# needs root there):
#   source .device/env.sh && .device/bin/blurlab --headless ...
# The loader packages come from Debian's archive through apt-get download (amd64, whatever the
# machine packing them); the libraries the GPU machine has itself (glibc, libstdc++) or that the
# driver and the loaders provide are not carried.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [PROGRAM|FOLDER ...]" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
cd "$root"
rm -rf .device && mkdir -p .device/bin .device/lib .device/debs
system='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+|libgcc_s|libGL|libEGL|libGLX|libOpenGL|libGLdispatch|libGLES)'
for item in "$@"; do
  if [ -d "$item" ]; then cp -r "$item" .device/; continue; fi
  cp "$item" .device/bin/
  ldd "$item" | awk '/=> \//{print $1, $3}' | while read -r name path; do
    [[ $name =~ $system ]] || cp -L "$path" ".device/lib/$name"
  done
done
lists=/tmp/device-apt-lists
mkdir -p "$lists/partial"
o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
[ -n "$(ls "$lists"/*Packages* 2>/dev/null)" ] || apt-get $o update -qq >/dev/null
(cd .device/debs && apt-get $o download -qq libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1) ||
  { echo "pack_device.sh: could not download the GL loader packages" >&2; exit 1; }
cat > .device/env.sh <<'ENV'
# Sourced on the GPU machine from the project's root: the GL loaders, the carried libraries, and
# NVIDIA's EGL vendor file where the driver put it.
for f in .device/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
ENV
du -sh .device | awk '{print "packed .device: " $1}'
echo 'carry: [".device"]   command: source .device/env.sh && .device/bin/<program> ...'
