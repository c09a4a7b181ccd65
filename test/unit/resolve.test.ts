import { strict as assert } from 'node:assert';
import { createResolver, FileReader, joinPath, dirName, parseHubRef } from '../../shared/config/resolve';

/** An in-memory file system for the resolver. */
function memoryReader(files: Record<string, string>): FileReader {
  return {
    readText: (p) => files[p],
    listDir: (p) => {
      const prefix = p.endsWith('/') ? p : p + '/';
      const names = new Set<string>();
      for (const f of Object.keys(files)) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]);
      return names.size ? [...names] : undefined;
    },
  };
}

const cfg = (theta: number, mpe: number) =>
  JSON.stringify({ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: mpe, rope_theta: theta });

describe('base-model resolution', () => {
  it('joins and splits paths', () => {
    assert.equal(joinPath('/a/b', '../c', './config.json'), '/a/c/config.json');
    assert.equal(dirName('/w/train/axolotl.yml'), '/w/train');
  });

  it('prefers a local folder relative to the YAML', () => {
    const r = createResolver({ reader: memoryReader({ '/w/models/my-llama/config.json': cfg(123456, 8192) }), hubCache: '/hub' });
    const hit = r.resolve(['../models/my-llama'], '/w/train/run.yml')!;
    assert.equal(hit.from, '/w/models/my-llama/config.json');
    assert.equal(hit.rope.base.value, 123456);
  });

  it('reads the Hugging Face cache snapshot refs/main points at', () => {
    const files = {
      '/hub/models--org--tiny/refs/main': 'bbb\n',
      '/hub/models--org--tiny/snapshots/aaa/config.json': cfg(1, 2048),
      '/hub/models--org--tiny/snapshots/bbb/config.json': cfg(777777, 4096),
    };
    const hit = createResolver({ reader: memoryReader(files), hubCache: '/hub' }).resolve(['org/tiny'], '/w/x.yml')!;
    assert.equal(hit.from, 'hf-cache:/hub/models--org--tiny/snapshots/bbb/config.json');
    assert.equal(hit.rope.base.value, 777777);
  });

  it("org/name@revision reads that branch, tag or commit; a bare id never takes another branch's snapshot", () => {
    const main = 'a'.repeat(40),
      v2 = 'b'.repeat(40);
    const files = {
      '/hub/models--org--tiny/refs/main': main,
      '/hub/models--org--tiny/refs/v2': v2,
      [`/hub/models--org--tiny/snapshots/${main}/config.json`]: cfg(10000, 2048),
      [`/hub/models--org--tiny/snapshots/${v2}/config.json`]: cfg(500000, 8192),
    };
    const r = createResolver({ reader: memoryReader(files), hubCache: '/hub' });
    assert.equal(r.resolve(['org/tiny@v2'], '/w/x.yml')!.rope.base.value, 500000);
    assert.equal(r.resolve([`org/tiny@${main}`], '/w/x.yml')!.rope.base.value, 10000);
    assert.equal(r.resolve(['org/tiny'], '/w/x.yml')!.rope.base.value, 10000);
    assert.equal(r.resolve(['org/tiny@v3'], '/w/x.yml'), undefined);
    const { ['/hub/models--org--tiny/refs/main']: _gone, ...withoutMain } = files;
    assert.equal(createResolver({ reader: memoryReader(withoutMain), hubCache: '/hub' }).resolve(['org/tiny'], '/w/x.yml')?.rope.base.value, 10000);
    // The catalog describes main only: an explicit other revision of a catalog model is not answered from it.
    assert.ok(createResolver().resolve(['meta-llama/Meta-Llama-3-8B'], '/w/x.yml'));
    assert.equal(createResolver().resolve(['meta-llama/Meta-Llama-3-8B@refs-pr-1'], '/w/x.yml'), undefined);
  });

  it('parses Hub references', () => {
    assert.deepEqual(parseHubRef('org/name@v1.0'), { id: 'org/name', revision: 'v1.0' });
    assert.deepEqual(parseHubRef('org/name'), { id: 'org/name' });
    assert.equal(parseHubRef('./models/x'), undefined);
    assert.equal(parseHubRef('org/config.json'), undefined);
    assert.equal(parseHubRef('org/name@'), undefined);
    assert.equal(parseHubRef('org/name@../../../etc'), undefined);
    assert.deepEqual(parseHubRef('org/name@refs/pr/1'), { id: 'org/name', revision: 'refs/pr/1' });
  });

  it('falls back to the catalog, then gives up', () => {
    const r = createResolver({ reader: memoryReader({}), hubCache: '/hub' });
    const hit = r.resolve(['meta-llama/Llama-2-7b-hf'], '/w/x.yml')!;
    assert.equal(hit.from, 'catalog:meta-llama/Llama-2-7b-hf');
    assert.equal(hit.rope.contextLength.value, 4096);
    assert.equal(r.resolve(['nobody/nothing'], '/w/x.yml'), undefined);
  });
});
