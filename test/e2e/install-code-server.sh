#!/usr/bin/env bash
# Installs code-server 4.100.3 (Code 1.100.3, the newest release that runs on Node 20) into the
# ignored folder .cache/code-server, for the extension-host suite and the UI scenario in test/e2e.
# Idempotent: returns at once when the pinned version is already there.
#
# Needs (apt): libkrb5-dev (kerberos native module), ripgrep (seeds @vscode/ripgrep's download,
# which otherwise fetches from the network), chromium (the browser the tests drive).
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=4.100.3
DIR=.cache/code-server
BIN=$DIR/node_modules/code-server/out/node/entry.js

if [ -f "$BIN" ] && node -e "process.exit(require('./$DIR/node_modules/code-server/package.json').version === '$VERSION' ? 0 : 1)" 2>/dev/null; then
  echo "code-server $VERSION already installed in $DIR"
  exit 0
fi

for tool in rg; do
  command -v "$tool" >/dev/null || { echo "install-code-server: '$tool' missing (apt-get install ripgrep)"; exit 1; }
done
[ -e /usr/include/gssapi/gssapi.h ] || { echo "install-code-server: gssapi headers missing (apt-get install libkrb5-dev)"; exit 1; }

mkdir -p "$DIR"
[ -f "$DIR/package.json" ] || echo '{ "name": "rope-lens-code-server", "private": true }' > "$DIR/package.json"

# @vscode/ripgrep's postinstall downloads from GitHub unless this cache file exists; Debian's rg 13 works.
export TMPDIR="$PWD/$DIR/tmp"
RG_CACHE="$TMPDIR/vscode-ripgrep-cache-1.15.11"
mkdir -p "$RG_CACHE"
tar czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg

# unsafe_perm: code-server's postinstall refuses root without it; yes: node-pty's `npx node-gyp` must not prompt.
cd "$DIR"
npm_config_unsafe_perm=true npm_config_yes=true npm install --no-audit --no-fund "code-server@$VERSION"
node -e "const v=require('./node_modules/code-server/package.json').version; if (v !== '$VERSION') { console.error('got', v); process.exit(1) }"
echo "code-server $VERSION installed in $DIR"
