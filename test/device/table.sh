#!/usr/bin/env bash
# The proven table's device job, run from its prepared folder (test/support/deviceTable.sh): unpacks the
# carried Node into a temporary folder and runs table.js from there (no node_modules anywhere above it).
# Rows stream to $OUT/rows.jsonl, progress to $OUT/table.log, stderr to $OUT/stderr.txt, the machine to
# $OUT/machine.txt. Arguments go to table.js (--seconds N, --dims, --max-length, --drop-above, …).
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/.device-out}; mkdir -p "$OUT"
T=$(mktemp -d)
xz -dc "$D/node.xz" > "$T/node" && chmod +x "$T/node" || { echo "table.sh: cannot unpack Node" >&2; exit 3; }
{ nproc; grep -m1 'model name' /proc/cpuinfo; free -g | head -2; "$T/node" --version; } > "$OUT/machine.txt" 2>&1
cd "$T"
"$T/node" "$D/table.js" --table "$D/proven.json" --out "$OUT" "$@" 2> "$OUT/stderr.txt"
rc=$?
tail -n 3 "$OUT/table.log" 2>/dev/null
rm -f "$T/node"
exit $rc
