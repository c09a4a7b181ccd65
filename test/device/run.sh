#!/usr/bin/env bash
# On the lent GPU machine (run from the repo root, with .device carried): unpack the GL/Vulkan loaders,
# Node and dawn.node, then run measure.mjs, which writes its JSON and text into $OUT.
# Locally (llvmpipe, tiny lengths): MEASURE_SCALE=small OUT=/tmp/out bash test/device/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
D=$PWD/.device
OUT=${OUT:-$PWD/.device-out}; mkdir -p "$OUT"
T=$(mktemp -d)
if ! command -v node >/dev/null 2>&1 || [ "${MEASURE_CARRIED_NODE:-1}" = 1 ]; then
  xz -dc "$D/node.xz" > "$T/node" && chmod +x "$T/node"; NODE=$T/node
else
  NODE=$(command -v node)
fi
if [ -d /usr/local/nvidia ]; then
  for f in "$D"/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
mkdir -p "$T/webgpu/dist/linux-x64"
cp "$D/webgpu/package.json" "$T/webgpu/"
xz -dc "$D/webgpu/dawn.node.xz" > "$T/webgpu/dist/linux-x64/dawn.node"
export ROPE_LENS_WEBGPU_DIR=$T/webgpu
(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true) > "$OUT/device.txt" 2>&1
"$NODE" "$D/${MEASURE_SCRIPT:-measure.mjs}" "$D/dist/cli.js" "$OUT" 2> >(tee "$OUT/stderr.log" | grep -v '^Warning: max' >&2)
rc=$?
rm -rf "$T"
exit $rc
