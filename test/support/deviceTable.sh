#!/usr/bin/env bash
# Prepares the proven table's device job: a folder (git-ignored) holding everything it needs on the lent
# machine, which has no Node and no node_modules: Node itself (xz, ~24 MB), the job's three bundles
# (test/device/table.ts, tableChain.ts, shared/node/proofWorker.ts), a copy of proven.json and run.sh.
#   bash test/support/deviceTable.sh [DEST]       DEST defaults to .device/table in this checkout; a device
#   call sends the session's checkout, so a helper working elsewhere passes <that checkout>/.device/table.
# On the machine (carry .device/table):  bash .device/table/run.sh --seconds 430
# Rehearsal here, from an empty folder:  OUT=/tmp/out bash <copy>/run.sh --seconds 60 --drop-above 8192 --max-length 16384
set -euo pipefail
cd "$(dirname "$0")/../.."
DEST=${1:-.device/table}
mkdir -p "$DEST"; find "$DEST" -mindepth 1 ! -name node.xz -delete
for e in table tableChain; do
  npx esbuild "test/device/$e.ts" --bundle --platform=node --target=node20 --format=cjs --minify --log-level=warning --outfile="$DEST/$e.js"
done
npx esbuild shared/node/proofWorker.ts --bundle --platform=node --target=node20 --format=cjs --minify --log-level=warning --outfile="$DEST/proofWorker.js"
cp shared/bstar/table/proven.json "$DEST/"
cp test/device/table.sh "$DEST/run.sh"
# Compressing Node takes minutes on a busy machine: kept from an earlier run when Node has not changed since.
[ "$DEST/node.xz" -nt "$(command -v node)" ] || xz -T2 -6 -c "$(command -v node)" > "$DEST/node.xz"
du -sh "$DEST"
total=$(du -sb "$DEST" | cut -f1)
[ "$total" -lt $((40 * 1024 * 1024)) ] || { echo "deviceTable: $DEST is $total bytes, over its 40 MiB share of the carry" >&2; exit 1; }
