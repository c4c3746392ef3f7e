#!/usr/bin/env bash
# Packs built programs for another Linux machine that has a GPU and its GL driver but not this
# project's libraries or build tools: the programs, the shared libraries they need that such a
# machine may lack, and the GL loader packages (libglvnd's EGL/GL). Run it from the project's root
# after a Release build:
#   docs/tools/pack_device.sh DIR build-release/app/blurlab [other programs or data folders...]
# It fills DIR (made afresh; keep it outside git's view, e.g. pack/, which .gitignore names):
# programs in DIR/bin, their libraries in DIR/lib, each folder as DIR/<its name>, the loader
# packages in DIR/debs, and DIR/env.sh. Copy DIR and this tree to the GPU machine; there, from the
# project's root, `source DIR/env.sh` (it unpacks the loaders into /, so it needs root) and run:
#   source pack/env.sh && blurlab --headless ...
# The loader packages come from Debian's archive through apt-get download (amd64, whatever the
# machine packing them); the libraries every such machine has (glibc, libstdc++) or that the driver
# and the loaders provide are not packed.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 DIR PROGRAM [PROGRAM|FOLDER ...]" >&2; exit 2; }
dir=$1
shift
case $dir in ""|/|.|..) echo "pack_device.sh: DIR '$dir' would replace more than a pack" >&2; exit 2 ;; esac
root=$(git rev-parse --show-toplevel)
cd "$root"
rm -rf "$dir" && mkdir -p "$dir/bin" "$dir/lib" "$dir/debs"
system='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+|libgcc_s|libGL|libEGL|libGLX|libOpenGL|libGLdispatch|libGLES)'
for item in "$@"; do
  if [ -d "$item" ]; then cp -r "$item" "$dir/"; continue; fi
  cp "$item" "$dir/bin/"
  ldd "$item" | awk '/=> \//{print $1, $3}' | while read -r name path; do
    [[ $name =~ $system ]] || cp -L "$path" "$dir/lib/$name"
  done
done
lists=/tmp/pack-apt-lists
mkdir -p "$lists/partial"
o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
[ -n "$(ls "$lists"/*Packages* 2>/dev/null)" ] || apt-get $o update -qq >/dev/null
(cd "$dir/debs" && apt-get $o download -qq libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1) ||
  { echo "pack_device.sh: could not download the GL loader packages" >&2; exit 1; }
cat > "$dir/env.sh" <<'ENV'
# Sourced on the GPU machine: the GL loaders, the packed libraries and programs, and NVIDIA's EGL
# vendor file where the driver put it. The pack's folder is where this file lies.
pack=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for f in "$pack"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$pack/bin:$PATH
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
ENV
du -sh "$dir" | awk '{print "packed " $2 ": " $1}'
