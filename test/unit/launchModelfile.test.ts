import { strict as assert } from 'node:assert';
import { launchFormatOf, readLaunchFile } from '../../shared/launch/index';
import { readModelfile } from '../../shared/launch/modelfile';
import type { Token } from '../../shared/launch/types';
import { fixture } from './helpers/launch';

const slice = (text: string, t: Token) => text.slice(t.offset, t.offset + t.length);

describe('launch files: Ollama Modelfiles (grammar of ollama parser/parser.go)', () => {
  it('FROM and PARAMETERs with exact spans; text inside """ strings is not read as instructions', () => {
    const text = fixture('Modelfile');
    const f = readLaunchFile(text, 'Modelfile')!;
    assert.equal(f.format, 'modelfile');
    const m = f.modelfile!;
    assert.equal(m.from?.value, 'hf.co/Qwen/Qwen3-VL-8B-Instruct-GGUF:Q4_K_M');
    assert.equal(m.parameters.num_ctx.value.value, '4096', 'the num_ctx inside SYSTEM """…""" is prompt text');
    assert.equal(slice(text, m.parameters.num_ctx.value), '4096');
    assert.equal(slice(text, m.parameters.num_ctx.name), 'num_ctx');
    assert.equal(m.parameters.stop.value.value, '<|end|>', 'lower-case `parameter`, quoted value');
    assert.equal(m.parameters.stop.value.raw, '"<|end|>"');
    assert.deepEqual(Object.keys(m.parameters), ['temperature', 'num_ctx', 'num_predict', 'stop']);
    assert.deepEqual(f.problems, []);
    // A new PARAMETER line goes after the last one.
    assert.equal(m.appendAt?.offset, m.parameters.stop.value.offset + m.parameters.stop.value.length);
  });

  it('case-insensitive instructions, comments, last PARAMETER wins, values run to the end of the line', () => {
    const text = '# base\nFrom llama3.1:8b\nParameter num_ctx 2048\n  # indented comment\nPARAMETER num_ctx 8192\nPARAMETER stop <|eot_id|> more\n';
    const m = readModelfile(text).modelfile!;
    assert.equal(m.from?.value, 'llama3.1:8b');
    assert.equal(m.parameters.num_ctx.value.value, '8192');
    assert.equal(m.parameters.num_ctx.value.range.start.line, 4);
    assert.equal(m.parameters.stop.value.value, '<|eot_id|> more', 'spaces inside a value belong to it');
  });

  it('an unterminated """ and an unknown instruction are problems, not crashes; no FROM is said', () => {
    const r = readModelfile('FROM x\nSYSTEM """never closed\nPARAMETER num_ctx 1\n');
    assert.equal(r.modelfile?.parameters.num_ctx, undefined, 'everything after the open string belongs to it');
    assert.match(r.problems.map((p) => p.message).join(), /unterminated/);
    const bad = readModelfile('BOGUS thing\nPARAMETER num_ctx 4096\n');
    assert.match(bad.problems.map((p) => p.message).join(), /instruction must be one of/);
    assert.match(bad.problems.map((p) => p.message).join(), /no FROM/);
    assert.equal(bad.modelfile?.parameters.num_ctx.value.value, '4096');
  });

  it('CRLF and a BOM keep exact spans', () => {
    const text = '\uFEFFFROM qwen2.5:7b\r\nPARAMETER num_ctx 32768\r\n';
    const m = readModelfile(text).modelfile!;
    assert.equal(m.from?.value, 'qwen2.5:7b');
    assert.equal(slice(text, m.parameters.num_ctx.value), '32768');
    assert.deepEqual(m.parameters.num_ctx.value.range.start, { line: 1, character: 18 });
  });

  it('format by name: Modelfile, *.Modelfile, *.modelfile', () => {
    for (const n of ['Modelfile', 'qwen.Modelfile', 'x/y.modelfile']) assert.equal(launchFormatOf(n, undefined, ''), 'modelfile', n);
  });
});
