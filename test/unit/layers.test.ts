/** The layering of shared/ (test/architecture/layers.ts) holds for every import; webviews stay Node-free. */
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, closure, importsOf, tsFiles } from '../architecture/imports';
import { layerViolations, ruleFolderViolations, serviceOnlyViolations, unknownFolders, webviewViolations } from '../architecture/check';

describe('layering', () => {
  const sharedEdges = tsFiles('shared').flatMap(importsOf);

  it('every folder under shared/ has a row in the layer table', () => {
    const entries = readdirSync(join(ROOT, 'shared'), { withFileTypes: true }).map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
    assert.deepEqual(unknownFolders(entries), []);
  });

  it('no shared/ module imports upward, sideways, Node built-ins outside shared/node, or editor APIs', () => {
    assert.ok(sharedEdges.length > 200, `the import scan found only ${sharedEdges.length} imports`);
    assert.deepEqual(layerViolations(sharedEdges), []);
  });

  it('the checker itself reports the violations the layering forbids', () => {
    const e = (from: string, spec: string, target?: string) => ({ from, spec, target });
    const v = layerViolations([
      e('shared/fixes/rewrites.ts', '../rules/context', 'shared/rules/context.ts'),
      e('shared/gpu/fbKernel.ts', '../bstar/index', 'shared/bstar/index.ts'),
      e('shared/bstar/sweep.ts', 'node:worker_threads'),
      e('shared/service/analyze.ts', '../node/resolveNode', 'shared/node/resolveNode.ts'),
      e('shared/rules/context.ts', '../document/configNode', 'shared/document/configNode.ts'),
    ]);
    assert.equal(v.length, 4, v.join('\n'));
    assert.match(v[0], /may not import upward/);
    assert.match(v[1], /share a row/);
    assert.match(v[2], /Node built-in/);
    assert.deepEqual(
      unknownFolders([
        { name: 'newThing', isDirectory: true },
        { name: 'stray.ts', isDirectory: false },
      ]).length,
      2,
    );
    assert.match(unknownFolders([{ name: 'newThing', isDirectory: true }])[0], /add it to LAYERS/);
  });

  it('no rule module imports another rule folder; server/ reaches the engines only through the service', () => {
    assert.deepEqual(ruleFolderViolations(sharedEdges), []);
    assert.deepEqual(serviceOnlyViolations(tsFiles('server').flatMap(importsOf)), []);
    const e = (from: string, target: string) => ({ from, spec: target, target });
    assert.equal(ruleFolderViolations([e('shared/rules/launch/grammar.ts', 'shared/rules/serving/removedOption.ts')]).length, 1);
    assert.equal(ruleFolderViolations([e('shared/rules/context.ts', 'shared/rules/launch/context.ts')]).length, 1);
    assert.equal(
      ruleFolderViolations([e('shared/rules/launch/grammar.ts', 'shared/rules/context.ts'), e('shared/rules/index.ts', 'shared/rules/launch/index.ts')]).length,
      0,
    );
    assert.match(serviceOnlyViolations([e('server/cli/serve.ts', 'shared/serving/index.ts')])[0], /only through the service/);
  });

  it('the webview bundles reach no Node-only, LSP or server code', () => {
    const reached = closure(['media/src/inspector.ts', 'media/src/kernels.ts']);
    assert.ok(reached.has('shared/inspector/build.ts'));
    const edges = [...reached].flatMap(importsOf);
    assert.deepEqual(webviewViolations(edges), []);
    assert.equal(webviewViolations([{ from: 'media/src/x.ts', spec: '../../shared/node/engine', target: 'shared/node/engine.ts' }]).length, 1);
  });

  it('the client imports neither the server nor the CLI; the server never imports the client', () => {
    const bad = [
      ...tsFiles('client')
        .flatMap(importsOf)
        .filter((e) => e.target?.startsWith('server/')),
      ...tsFiles('server')
        .flatMap(importsOf)
        .filter((e) => e.target?.startsWith('client/') || e.spec === 'vscode'),
    ].map((e) => `${e.from} → ${e.target ?? e.spec}`);
    assert.deepEqual(bad, []);
  });
});
