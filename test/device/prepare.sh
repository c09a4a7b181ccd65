#!/usr/bin/env bash
# Fills .device/ (git-ignored) with everything test/device/run.sh needs on the lent GPU machine, which
# has no Node, no browser and no node_modules: Node itself (xz), webgpu's package.json and its Linux
# dawn.node (xz), the production bundles, and the GL/Vulkan loader packages. Run here, from the repo root
# of the checkout the device call sends (the session's checkout), after `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/../.."
D=.device
rm -rf "$D"; mkdir -p "$D/dist" "$D/webgpu" "$D/gl"

node esbuild.mjs --production --outdir "$D/build" >/dev/null
cp "$D/build/cli.js" "$D/build/bstarWorker.js" "$D/build/webgpuWorker.js" "$D/build/webgpuProbe.js" "$D/dist/"
rm -rf "$D/build"
# Issue 36's measurement (robust-base proofs and the validity map): run.sh with MEASURE_SCRIPT=dist/proof.js.
npx esbuild test/device/proof.ts --bundle --platform=node --target=node20 --minify --log-level=warning --outfile="$D/dist/proof.js"
cp test/device/measure.mjs test/device/quick.mjs "$D/"

W=$(node -p "require('path').dirname(require.resolve('webgpu/package.json'))")
cp "$W/package.json" "$D/webgpu/"
xz -T2 -6 -c "$W/dist/linux-x64/dawn.node" > "$D/webgpu/dawn.node.xz"
xz -T2 -6 -c "$(command -v node)" > "$D/node.xz"

o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
mkdir -p /tmp/amd64/partial
apt-get $o update -qq >/dev/null
(cd "$D/gl" && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)

du -sh "$D"; find "$D" -type f -printf '%8s %p\n' | sort -k2
total=$(du -sb "$D" | cut -f1)
[ "$total" -lt $((60 * 1024 * 1024)) ] || { echo "prepare: $D is $total bytes, over the 60 MiB budget" >&2; exit 1; }
