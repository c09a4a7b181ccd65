/**
 * Issue 34, deliverable 3: every launch read or said. Real-shaped files (test/fixtures/launch/said)
 * for each shape the held-out set missed: process managers that take the command as one string,
 * commands assembled in a variable and run by eval / bash -c, LLAMA_ARG_* given to a wrapper,
 * arguments for an image whose entrypoint is unknown, RUN build steps, and a CMD an engine image's
 * entrypoint swallows (launch/cmd-after-entrypoint). Each context mistake gets its finding on the
 * user's own characters; what is not judged is said (a launch description with `unread`).
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLaunchFile } from '../../shared/launch/index';
import type { ShellParser } from '../../shared/launch/types';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import type { Finding } from '../../shared/core/findings';
import { LineMap } from '../../shared/launch/text';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { argvOf, assertExactSpans, envOf, shellParser } from './helpers/launch';

const dir = join(__dirname, '..', 'fixtures', 'launch', 'said');
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

describe('launch files: every launch read or said (issue 34)', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  let service: ReturnType<typeof createRopeLensService>;
  before(async () => {
    shell = await shellParser();
    service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell });
  });
  const analyze = (name: string, text = read(name)) => service.analyze(text, { fileName: join(dir, name) });
  /** The text a finding points at. */
  const at = (text: string, f: { range: Finding['range'] }) => {
    const m = new LineMap(text);
    const s = m.offset(f.range.start);
    return text.slice(s, m.offset(f.range.end));
  };
  const lengthFindings = (name: string, text = read(name)) =>
    analyze(name, text)
      .diagnostics.filter((d) => d.code === 'vllm/max-model-len-exceeds')
      .map((d) => at(text, d));

  describe('process managers', () => {
    it('pm2 start "vllm serve …": the string is read as shell, the finding on 65536 inside it', () => {
      const text = read('pm2-serve.sh');
      const f = readLaunchFile(text, 'pm2-serve.sh', { shell })!;
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 1);
      assert.deepEqual(argvOf(f.invocations[0]), ['vllm', 'serve', 'meta-llama/Llama-2-7b-hf', '--port', '8000', '--max-model-len', '65536']);
      assert.ok(f.invocations[0].notes.includes('through pm2 start'), f.invocations[0].notes.join('; '));
      const d = analyze('pm2-serve.sh').diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds');
      assert.ok(d);
      assert.equal(d.range.start.line, 5);
      assert.equal(at(text, d), '65536');
    });

    it('pm2 … -- args, tmux new-session, tmux new "…", screen -dmS, systemd-run -E, setsid nohup timeout: each read, each length on its own token', () => {
      const text = read('sessions.sh');
      const f = readLaunchFile(text, 'sessions.sh', { shell })!;
      assertExactSpans(text, f);
      assert.deepEqual(
        f.invocations.map((i) => argvOf(i).slice(0, 2)),
        Array(6).fill(['vllm', 'serve']),
      );
      assert.deepEqual(envOf(f.invocations[4]), { CUDA_VISIBLE_DEVICES: '1' }, 'systemd-run -E sets the environment');
      const lines = analyze('sessions.sh')
        .diagnostics.filter((d) => d.code === 'vllm/max-model-len-exceeds')
        .map((d) => [d.range.start.line, at(text, d)]);
      assert.deepEqual(lines, [
        [3, '32768'],
        [4, '16384'],
        [5, '12288'],
        [6, '8192'],
        [7, '10240'],
        [8, '6144'],
      ]);
    });

    it('a wrapper whose lone string is one word is the program, not a script (tmux new -d htop)', () => {
      const f = readLaunchFile('tmux new -d vllm\n', 'x.sh', { shell });
      // `vllm` alone is a launch word but starts nothing RoPE Lens judges; it must not be read as a script.
      assert.ok(!f || f.invocations.every((i) => !i.notes.some((n) => n.startsWith('through tmux'))));
    });
  });

  describe('command strings assembled and run', () => {
    it('CMD="vllm serve …"; CMD+=" …"; eval "$CMD": the finding lands in the += assignment that wrote the length', () => {
      const text = read('eval-cmd.sh');
      assert.deepEqual(lengthFindings('eval-cmd.sh'), ['65536']);
      const d = analyze('eval-cmd.sh').diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
      assert.equal(d.range.start.line, 8, 'the CMD+=" --max-model-len 65536" line');
      // The fix edits that token in place, and the edited script reads clean.
      const fix = d.fixes.find((x) => x.preferred)!;
      const fixed = applyTextEdits(text, new LineMap(text), fix.edits);
      assert.match(fixed, /CMD\+=" --max-model-len 4096"/);
      assert.deepEqual(lengthFindings('eval-cmd.sh', fixed), []);
    });

    it('eval $CMD (unquoted) and $CMD run as the command read the same', () => {
      const base = read('eval-cmd.sh');
      for (const run of ['eval $CMD', '$CMD', 'bash -c "$CMD"', 'sh -c "$CMD"']) {
        const text = base.replace('eval "$CMD"', run);
        assert.deepEqual(lengthFindings('eval-cmd.sh', text), ['65536'], run);
      }
    });

    it('nohup bash -c "$CMD" with the length in another variable: on the ARGS assignment', () => {
      const text = read('bash-c-cmd.sh');
      const d = analyze('bash-c-cmd.sh').diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
      assert.ok(d);
      assert.equal(d.range.start.line, 1);
      assert.equal(at(text, d), '32768');
    });

    it('in exec forms: a Dockerfile CMD with JSON-escaped quotes and a compose block script, each word on its own characters', () => {
      const docker =
        'FROM python:3.11-slim\nRUN pip install vllm\nCMD ["bash", "-c", "CMD=\\"vllm serve meta-llama/Llama-2-7b-hf\\"; CMD+=\\" --max-model-len 65536\\"; eval $CMD"]\n';
      const f = readLaunchFile(docker, 'Dockerfile', { shell })!;
      assertExactSpans(docker, f);
      assert.deepEqual(lengthFindings('Dockerfile', docker), ['65536']);
      const compose =
        'services:\n  llm:\n    image: python:3.11\n    command:\n      - bash\n      - -c\n      - |\n        CMD="vllm serve meta-llama/Llama-2-7b-hf"\n        CMD+=" --max-model-len 32768"\n        eval "$CMD"\n';
      assert.deepEqual(lengthFindings('compose.yaml', compose), ['32768']);
    });

    it('a value the script cannot know (a command substitution) maps to its reference, never a wrong span', () => {
      const text = 'LEN=$(cat len.txt)\nCMD="vllm serve meta-llama/Llama-2-7b-hf --max-model-len $LEN"\neval "$CMD"\n';
      const f = readLaunchFile(text, 's.sh', { shell })!;
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 1);
    });
  });

  describe('engine variables given to a wrapper', () => {
    it('LLAMA_ARG_CTX_SIZE=44000 ./start.sh: read as llama-server, said so, the finding on 44000', () => {
      const text = read('llama-arg-wrapper.sh');
      const a = analyze('llama-arg-wrapper.sh');
      const d = a.diagnostics.find((x) => x.code === 'launch/length-exceeds-derived');
      assert.ok(d, a.diagnostics.map((x) => x.code).join());
      assert.equal(at(text, d), '44000');
      assert.ok(a.launches![0].notes.some((n) => /\.\/start\.sh is given LLAMA_ARG_MODEL, LLAMA_ARG_CTX_SIZE: read as llama-server's settings/.test(n)));
    });

    it('Dockerfile ENV LLAMA_ARG_… with CMD ["/start.sh"] on a plain base image: the script is named in the note', () => {
      const text =
        'FROM ubuntu:22.04\nCOPY start.sh /start.sh\nENV LLAMA_ARG_MODEL=/models/Meta-Llama-3-8B-Instruct.Q4_K_M.gguf\nENV LLAMA_ARG_CTX_SIZE=44000\nCMD ["/start.sh"]\n';
      const a = analyze('Dockerfile', text);
      const d = a.diagnostics.find((x) => x.code === 'launch/length-exceeds-derived')!;
      assert.ok(d);
      assert.equal(at(text, d), '44000');
      assert.match(a.launches![0].notes[0], /^\/start\.sh is given LLAMA_ARG_MODEL, LLAMA_ARG_CTX_SIZE/);
    });

    it('export LLAMA_ARG_… then a script: the script is read with them; other commands are not launches', () => {
      const text =
        'export LLAMA_ARG_CTX_SIZE=44000\nexport LLAMA_ARG_MODEL=/models/Meta-Llama-3-8B-Instruct.Q4_K_M.gguf\ncd /srv\nbash run-server.sh --port 8080\n';
      const a = analyze('serve.sh', text);
      assert.equal(a.launches?.length, 1);
      assert.equal(a.launches![0].program, 'llama.cpp');
      assert.equal(a.launches![0].requestedLength, 44000);
    });
  });

  describe('compose arguments for an image whose entrypoint is unknown', () => {
    it('--max-model-len ⇒ vLLM (said); --context-length alone is said not read; LLAMA_ARG_* ⇒ llama-server; sh -c under the vLLM image is an error', () => {
      const name = 'compose-args/docker-compose.yml';
      const text = read(name);
      const a = analyze(name, text);
      const codes = a.diagnostics.map((d) => `${d.range.start.line}:${d.code}:${at(text, d)}`);
      assert.ok(codes.includes('5:vllm/max-model-len-exceeds:"65536"') || codes.some((c) => c.startsWith('5:vllm/max-model-len-exceeds')), codes.join('\n'));
      assert.ok(
        codes.some((c) => c.startsWith('13:launch/length-exceeds-derived')),
        codes.join('\n'),
      );
      assert.ok(
        codes.some((c) => c.startsWith('16:launch/cmd-after-entrypoint:"sh"')),
        codes.join('\n'),
      );
      const vllm = a.launches!.find((l) => l.range.start.line === 5)!;
      assert.ok(vllm.notes.some((n) => n.includes('whose entrypoint is unknown: read as vLLM arguments because --max-model-len')));
      const unread = a.launches!.filter((l) => l.unread);
      assert.equal(unread.length, 1);
      assert.equal(unread[0].range.start.line, 8);
      assert.match(unread[0].unjudged!, /entrypoint is unknown, are not read/);
      // Said in the hover too.
      assert.ok(a.launchHovers!.some((h) => h.range.start.line === 8 && /Not read as a launch/.test(h.markdown)));
    });
  });

  describe('RUN is a build step', () => {
    it('RUN vllm serve … is said, not judged (one launch/not-read note, issue 40); RUN pip install vllm is nothing', () => {
      const a = analyze('Dockerfile.run-serve');
      assert.deepEqual(
        a.diagnostics.map((d) => [d.code, d.severity, d.range.start.line]),
        [['launch/not-read', 'information', 3]],
      );
      const unread = a.launches!.filter((l) => l.unread);
      assert.equal(unread.length, 1);
      assert.equal(unread[0].range.start.line, 3);
      assert.match(unread[0].unjudged!, /^RUN vllm serve … runs while the image is built, not when the container starts/);
    });
  });

  describe('launch/cmd-after-entrypoint', () => {
    it('FROM vllm/vllm-openai + CMD ["sh", "-c", "python -m vllm… --max-model-len ${MAX_MODEL_LEN}"]: an error at "sh", the launch meant judged too, the fix clears the entrypoint', () => {
      const name = 'Dockerfile.sh-c';
      const text = read(name);
      const a = analyze(name, text);
      const err = a.diagnostics.find((d) => d.code === 'launch/cmd-after-entrypoint');
      assert.ok(err, a.diagnostics.map((d) => d.code).join());
      assert.equal(err.severity, 'error');
      assert.equal(at(text, err), '"sh"');
      assert.match(said(err), /vLLM takes `sh` as the model to serve.*the container runs `vllm serve sh -c …`/);
      assert.ok(
        a.diagnostics.some((d) => d.code === 'vllm/max-model-len-exceeds'),
        'the launch inside is judged',
      );
      const fix = err.fixes.find((f) => f.preferred)!;
      const fixed = applyTextEdits(text, new LineMap(text), fix.edits);
      assert.match(fixed, /\nENTRYPOINT \[\]\nCMD \["sh", "-c"/);
      const after = analyze(name, fixed);
      assert.ok(!after.diagnostics.some((d) => d.code === 'launch/cmd-after-entrypoint'));
      assert.ok(
        after.diagnostics.some((d) => d.code === 'vllm/max-model-len-exceeds'),
        'still judged once cleared',
      );
    });

    it('a shell-form CMD under the vLLM image is /bin/sh -c after the entrypoint; a plain base image, a cleared ENTRYPOINT or SGLang are not reported', () => {
      const has = (text: string) => analyze('Dockerfile', text).diagnostics.some((d) => d.code === 'launch/cmd-after-entrypoint');
      assert.ok(has('FROM vllm/vllm-openai:v0.10.1\nCMD vllm serve meta-llama/Llama-2-7b-hf --max-model-len 4096\n'));
      assert.ok(!has('FROM python:3.11\nCMD ["sh", "-c", "vllm serve meta-llama/Llama-2-7b-hf --max-model-len 4096"]\n'));
      assert.ok(!has('FROM vllm/vllm-openai:latest\nENTRYPOINT []\nCMD ["sh", "-c", "vllm serve meta-llama/Llama-2-7b-hf --max-model-len 4096"]\n'));
      assert.ok(!has('FROM vllm/vllm-openai:latest\nENTRYPOINT ["/bin/bash", "-c"]\nCMD ["vllm serve meta-llama/Llama-2-7b-hf --max-model-len 4096"]\n'));
      assert.ok(!has('FROM lmsysorg/sglang:latest\nCMD ["sh", "-c", "python3 -m sglang.launch_server --model-path meta-llama/Llama-2-7b-hf"]\n'));
    });

    it('Kubernetes args: ["sh", "-c", …] under the vLLM image: the fix renames args to command', () => {
      const text =
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n      image: vllm/vllm-openai:latest\n      args: ["sh", "-c", "vllm serve meta-llama/Llama-2-7b-hf --max-model-len 4096"]\n';
      const a = analyze('pod.yaml', text);
      const err = a.diagnostics.find((d) => d.code === 'launch/cmd-after-entrypoint')!;
      assert.ok(err);
      const fixed = applyTextEdits(text, new LineMap(text), err.fixes[0].edits);
      assert.match(fixed, /\n {6}command: \["sh", "-c"/);
      assert.ok(!analyze('pod.yaml', fixed).diagnostics.some((d) => d.code === 'launch/cmd-after-entrypoint'));
    });
  });
});
