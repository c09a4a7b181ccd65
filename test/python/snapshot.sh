#!/usr/bin/env bash
# Regenerates the committed transformers 5.17 snapshot (test/fixtures/transformers-5.17/results.json) from the
# real-transformers tier's oracle: the same configs (the snapshot's own keys), loaded by transformers 5.17.0 in its
# venv (installed by test/python/install.sh). The snapshot is a cache of the tier for machines without Python: the
# unit tests read it; the tier itself (test/integration/realTransformers.test.ts) runs the releases live.
# Usage: bash test/python/snapshot.sh [out.json]   (default: overwrite the snapshot)
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=5.17.0
SNAP=test/fixtures/transformers-5.17/results.json
OUT=${1:-$SNAP}
bash test/python/install.sh "$VERSION"
node -e 'process.stdout.write(JSON.stringify(Object.keys(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).configs)))' "$SNAP" |
  ".cache/py/transformers-$VERSION/bin/python" test/python/transformers_oracle.py |
  node -e '
    // One line per config, as the snapshot has always been laid out (diffs stay readable).
    const run = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const lines = Object.entries(run.configs).map(([p, r]) => `  ${JSON.stringify(p)}: ${JSON.stringify(r)}`);
    process.stdout.write(`{"transformers": ${JSON.stringify(run.transformers)}, "torch": ${JSON.stringify(run.torch)}, "configs": {\n${lines.join(",\n")}\n}}\n`);
  ' >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
