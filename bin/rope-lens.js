#!/usr/bin/env node
// Thin launcher: the CLI itself is bundled by esbuild into dist/cli.js.
'use strict';
const path = require('path');
const fs = require('fs');
const cli = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  process.stderr.write('rope-lens: dist/cli.js is missing; run `npm run build` first\n');
  process.exit(2);
}
require(cli)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
