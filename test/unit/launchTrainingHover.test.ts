/** A training launch has a hover too: the trainer, its model, the length read and the trained context. */
import { strict as assert } from 'node:assert';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import type { ShellParser } from '../../shared/launch/types';
import { shellParser } from './helpers/launch';

describe('hover on a training launch', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });

  it("ms-swift: model, training length and trained context, on the command's range", () => {
    const text = '#!/bin/bash\nswift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 131072 --train_type lora\n';
    const a = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver, shellParser: () => shell }).analyze(text, {
      fileName: '/ws/train.sh',
    });
    const h = a.launchHovers!.find((x) => x.range.start.line === 1);
    assert.ok(h, JSON.stringify(a.launchHovers));
    assert.match(h!.markdown, /\*\*ms-swift launch\*\* of `Qwen\/Qwen2\.5-7B-Instruct`/);
    assert.match(h!.markdown, /\| training length \| 131,072/);
    assert.match(h!.markdown, /\| trained context \| 32,768 \|/);
  });
});
