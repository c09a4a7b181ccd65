/**
 * The browser server's file access: ClientFiles answers the synchronous analysis from what the
 * client sent, asks for misses once, batches the folders a lookup climbs, and re-checks only when
 * an answer brought something; the pure lookups over it find the files the Node ones find.
 */
import { strict as assert } from 'node:assert';
import { ClientFiles } from '../../server/web/clientFiles';
import { projectConfigFrom, sourcedFilesFrom, workspaceFactsFrom } from '../../shared/files/fileSources';
import { READ_DIRECTORY_METHOD, READ_FILE_METHOD } from '../../shared/protocol/files';

/** A client over an in-memory tree (path → text; folders implied), recording each request. */
function fakeClient(tree: Record<string, string>) {
  const asked: string[] = [];
  const entries = (dir: string) => {
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const names = new Set<string>();
    for (const p of Object.keys(tree)) if (p.startsWith(prefix)) names.add(p.slice(prefix.length).split('/')[0]);
    return names.size ? [...names] : undefined;
  };
  const connection = {
    sendRequest: async (type: { method: string }, params: { path: string }) => {
      asked.push(`${type.method === READ_FILE_METHOD ? 'file' : type.method === READ_DIRECTORY_METHOD ? 'dir' : type.method} ${params.path}`);
      return type.method === READ_FILE_METHOD ? { text: tree[params.path] } : { entries: entries(params.path) };
    },
  };
  return { asked, connection: connection as never };
}

/** Runs lookups until no question is in flight: the rounds the server would go through. */
async function settle<T>(files: ClientFiles, lookup: () => T): Promise<{ value: T; rounds: number }> {
  let rounds = 0;
  for (;;) {
    const value = lookup();
    if (files.pending === 0) return { value, rounds };
    rounds++;
    await files.settled();
    assert.ok(rounds < 20, 'the rounds end');
  }
}

describe('browser server: files through the client', () => {
  it('answers a miss with undefined, asks once, and re-checks once the text arrives', async () => {
    const { asked, connection } = fakeClient({ '/ws/a.txt': 'hello' });
    const files = new ClientFiles();
    let changed = 0;
    files.attach(connection, () => changed++);
    assert.equal(files.readText('/ws/a.txt'), undefined);
    assert.equal(files.readText('/ws/a.txt'), undefined, 'still on its way');
    await files.settled();
    assert.equal(files.readText('/ws/a.txt'), 'hello');
    assert.equal(asked.filter((a) => a === 'file /ws/a.txt').length, 1);
    assert.ok(changed >= 1);
  });

  it('asks every folder above a listing in one batch, and skips files a known listing lacks', async () => {
    const { asked, connection } = fakeClient({ '/r/a/b/c/x.yaml': 'x: 1' });
    const files = new ClientFiles();
    files.attach(connection, () => undefined);
    files.listDir('/r/a/b/c');
    assert.deepEqual(asked.filter((a) => a.startsWith('dir')).sort(), ['dir /', 'dir /r', 'dir /r/a', 'dir /r/a/b', 'dir /r/a/b/c'].sort());
    await files.settled();
    const before = asked.length;
    assert.equal(files.readText('/r/a/b/.rope-lens.yaml'), undefined);
    assert.equal(asked.length, before, 'a listing without the name answers without a request');
  });

  it('a "missing" answer does not trigger a re-check', async () => {
    const { connection } = fakeClient({});
    const files = new ClientFiles();
    let changed = 0;
    files.attach(connection, () => changed++);
    files.readText('/nowhere/file');
    await files.settled();
    // The folder listings came back empty-handed too (undefined): nothing new was learned.
    assert.equal(changed, 0);
  });

  it('finds the project file above, stops at the repository root, in a few rounds', async () => {
    const tree = {
      '/home/u/.rope-lens.yaml': 'disable: [rope/base-below-bound]\n',
      '/home/u/repo/.git/HEAD': 'ref: main',
      '/home/u/repo/.rope-lens.yaml': 'severity:\n  rope/base-below-bound: error\n',
      '/home/u/repo/models/m/config.json': '{}',
    };
    const { connection } = fakeClient(tree);
    const files = new ClientFiles();
    files.attach(connection, () => undefined);
    const { value, rounds } = await settle(files, () => projectConfigFrom(files)('/home/u/repo/models/m/config.json'));
    assert.equal(value?.path, '/home/u/repo/.rope-lens.yaml');
    assert.ok(rounds <= 3, `${rounds} rounds`);

    // Outside the repository's .git the lookup does not climb past it: a folder with .git and no project file.
    const { connection: c2 } = fakeClient({ '/home/u/.rope-lens.yaml': 'disable: []\n', '/home/u/r2/.git/HEAD': 'x', '/home/u/r2/a.json': '{}' });
    const f2 = new ClientFiles();
    f2.attach(c2, () => undefined);
    assert.equal((await settle(f2, () => projectConfigFrom(f2)('/home/u/r2/a.json'))).value, undefined);
  });

  it('reads pins from the nearest folder that has any, and sourced scripts beside or above', async () => {
    const tree = {
      '/p/.git/HEAD': 'x',
      '/p/requirements.txt': 'vllm==0.10.1\n',
      '/p/env.sh': 'export MODEL=x\n',
      '/p/serve/run.sh': 'source env.sh\n',
    };
    const { connection } = fakeClient(tree);
    const files = new ClientFiles();
    files.attach(connection, () => undefined);
    const pins = (await settle(files, () => workspaceFactsFrom(files).pinsFor('/p/serve/run.sh'))).value;
    assert.deepEqual(
      pins.map((p) => [p.pkg, p.version, p.source]),
      [['vllm', '0.10.1', '/p/requirements.txt:1']],
    );
    const sourced = (await settle(files, () => sourcedFilesFrom(files)('/p/serve/run.sh', 'env.sh'))).value;
    assert.equal(sourced?.path, '/p/env.sh');
    assert.equal(sourced?.text, tree['/p/env.sh']);
  });
});
