/**
 * Issue 27, shell: `source FILE` brings the sourced file's functions and variables (the front-end
 * reads the file; a missing one is a note), and wrappers named for an engine are reported so the
 * engine module can read their arguments. Findings' tokens are the user's own: a call's argument
 * keeps its span; a value written in the sourced file sits on the call's command name.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLaunchFile, wrappedLaunchProgram } from '../../shared/launch/index';
import type { ShellParser, SourceReader } from '../../shared/launch/types';
import { argvOf, shellParser } from './helpers/launch';

const WILD = join(__dirname, '..', 'fixtures', 'launch', 'wild');

describe('launch files: sourced shell files and engine-named wrappers (issue 27)', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });
  const files =
    (map: Record<string, string>): SourceReader =>
    (name) =>
      name in map ? { path: `/ws/${name}`, text: map[name] } : undefined;

  it('the real emk/llama-server-local-model-config run.sh: run_llama_server from ../setup_llama_server.sh is followed to build/bin/llama-server', () => {
    const dir = join(WILD, 'emk__llama-server-local-model-config');
    const text = readFileSync(join(dir, 'Qwen3-30B-A3B-Instruct-2507', 'run.sh'), 'utf8');
    const setup = readFileSync(join(dir, 'setup_llama_server.sh'), 'utf8');
    const f = readLaunchFile(text, 'Qwen3-30B-A3B-Instruct-2507/run.sh', { shell, readSourced: files({ '../setup_llama_server.sh': setup }) });
    assert.ok(f);
    assert.equal(f.invocations.length, 1);
    const inv = f.invocations[0];
    const argv = argvOf(inv);
    assert.equal(argv[0], 'build/bin/llama-server');
    // The wrapper's defaults first, then the call's own arguments, as bash passes them.
    assert.deepEqual(argv.slice(1, 3), ['--no-webui', '--api-key']);
    const ctx = inv.argv[argv.indexOf('--ctx-size') + 1];
    assert.equal(ctx.value, '32768');
    assert.equal(ctx.raw, '"$(( 32*1024 ))"', "the call's argument keeps its own span in run.sh");
    assert.equal(ctx.from, undefined);
    // Written in the sourced file: placed on the call's name, marked as from there.
    const port = inv.argv[argv.indexOf('--port') + 1];
    assert.equal(port.value, '3191');
    assert.equal(port.from, '../setup_llama_server.sh');
    assert.equal(port.raw, 'run_llama_server');
    assert.equal(text.slice(port.offset, port.offset + port.length), 'run_llama_server');
    assert.ok(
      inv.notes.some((n) => /run_llama_server\(\) defined in \.\.\/setup_llama_server\.sh \(sourced\)/.test(n)),
      inv.notes.join('; '),
    );
    // `source ../.env` sits inside an `if [[ -f … ]]`: optional, not said.
    assert.ok(!inv.notes.some((n) => /\.env/.test(n)), inv.notes.join('; '));
  });

  it('variables from the sourced file reach the script; traces through them carry no span of the other file', () => {
    const text = 'source ./env.sh\nvllm serve "$MODEL" --max-model-len "$LEN"\n';
    const inv = readLaunchFile(text, 'serve.sh', { shell, readSourced: files({ './env.sh': 'MODEL=Qwen/Qwen2.5-7B-Instruct\nLEN=65536\n' }) })!.invocations[0];
    assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'Qwen/Qwen2.5-7B-Instruct', '--max-model-len', '65536']);
    const len = inv.argv[4];
    assert.equal(len.raw, '"$LEN"');
    assert.deepEqual(len.via, [{ name: 'LEN', from: './env.sh' }]);
  });

  it('a sourced file that is not there is a note on the launches after it, never an error', () => {
    const text = 'source ../setup.sh\nvllm serve m --max-model-len 4096\n';
    for (const readSourced of [undefined, files({})]) {
      const f = readLaunchFile(text, 'serve.sh', { shell, readSourced })!;
      assert.deepEqual(f.problems, []);
      assert.match(f.invocations[0].notes.join('\n'), /\.\.\/setup\.sh \(sourced\) was not found/);
    }
  });

  it("a launch written in the sourced file itself is that file's, and a file sourcing itself is not followed round", () => {
    const text = '. ./common.sh\necho ready\nstart_vllm m --max-model-len 4096\n';
    const common = '. ./common.sh\nvllm serve other-model\nstart_vllm() { vllm serve "$@"; }\n';
    const f = readLaunchFile(text, 'serve.sh', { shell, readSourced: files({ './common.sh': common }) })!;
    assert.equal(f.invocations.length, 1);
    assert.deepEqual(argvOf(f.invocations[0]), ['vllm', 'serve', 'm', '--max-model-len', '4096']);
    assert.equal(f.invocations[0].argv[2].raw, 'm');
  });

  it("a script that sources only files launching nothing (a virtualenv's activate) is not parsed at all", () => {
    let reads = 0;
    const readSourced: SourceReader = (name) => {
      reads++;
      return name === 'venv/bin/activate' ? { path: '/ws/venv/bin/activate', text: 'deactivate () { :; }\nexport VIRTUAL_ENV=/ws/venv\n' } : undefined;
    };
    assert.equal(readLaunchFile('source venv/bin/activate\npython manage.py migrate\n', 'setup.sh', { shell, readSourced }), undefined);
    assert.equal(reads, 1);
  });

  it('`local x=$2` then "$x": the token is the call\'s argument', () => {
    const text = 'serve() {\n  local model=$1\n  local len=$2\n  vllm serve "$model" --max-model-len "$len"\n}\nserve Qwen/Qwen2.5-7B-Instruct 131072\n';
    const inv = readLaunchFile(text, 'serve.sh', { shell })!.invocations[0];
    const len = inv.argv[4];
    assert.equal(len.value, '131072');
    assert.equal(text.slice(len.offset, len.offset + len.length), '131072');
    assert.equal(len.range.start.line, 5);
  });

  it('a wrapper named for an engine and not defined anywhere read is reported as a launch (the engine module decides)', () => {
    const text = 'source ../missing.sh\nrun_llama_server --model /m/Qwen3-8B-Q4_K_M.gguf --ctx-size 65536 --jinja\n';
    const f = readLaunchFile(text, 'run.sh', { shell })!;
    assert.ok(f, 'the file is read: the wrapper name is a launch word');
    assert.equal(f.invocations.length, 1);
    assert.equal(argvOf(f.invocations[0])[0], 'run_llama_server');
    for (const [name, program] of [
      ['run_llama_server', 'llama-server'],
      ['start_vllm', 'vllm'],
      ['serve_sglang', 'sglang'],
      ['launch-tgi', 'text-generation-launcher'],
      ['vllm_serve', 'vllm'],
    ] as const) {
      assert.equal(wrappedLaunchProgram(name), program, name);
    }
    for (const name of ['vllm', 'llama-server', './start_vllm.sh', 'pip', 'vllmx_run', 'settings_tgix'])
      assert.equal(wrappedLaunchProgram(name), undefined, name);
  });
});
