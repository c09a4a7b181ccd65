import { strict as assert } from 'node:assert';
import { createResolver, FileReader, joinPath, dirName } from '../../shared/config/resolve';

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

const cfg = (theta: number, mpe: number) => JSON.stringify({ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: mpe, rope_theta: theta });

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

  it('falls back to the catalog, then gives up', () => {
    const r = createResolver({ reader: memoryReader({}), hubCache: '/hub' });
    const hit = r.resolve(['meta-llama/Llama-2-7b-hf'], '/w/x.yml')!;
    assert.equal(hit.from, 'catalog:meta-llama/Llama-2-7b-hf');
    assert.equal(hit.rope.contextLength.value, 4096);
    assert.equal(r.resolve(['nobody/nothing'], '/w/x.yml'), undefined);
  });
});
