import { strict as assert } from 'node:assert';
import { readShellScript } from '../../shared/launch/shell';
import { readLaunchFile, launchFormatOf } from '../../shared/launch/index';
import type { ShellParser } from '../../shared/launch/types';
import { after, appendFlag, argvOf, assertExactSpans, envOf, fixture, shellParser, tokenOf } from './helpers/launch';

describe('launch files: shell scripts (tree-sitter-bash)', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });
  const read = (text: string, keepAll = false) => {
    const r = readShellScript(text, shell, { keepAll });
    assertExactSpans(text, r);
    return r;
  };

  it('a real vLLM launch: variables, export, prefix env, continuation, nohup and redirection peeled, commented block absent', () => {
    const text = fixture('serve-vllm.sh');
    const f = readLaunchFile(text, 'serve-vllm.sh', { shell })!;
    assert.equal(f.format, 'shell');
    assertExactSpans(text, f);
    assert.equal(f.invocations.length, 1, 'the commented-out launch is not an invocation');
    const inv = f.invocations[0];
    assert.deepEqual(argvOf(inv).slice(0, 3), ['vllm', 'serve', '/remote-home/share/LLM_CKPT/huggingface_models/Qwen3-32B']);
    const len = after(inv, '--max-model-len');
    assert.equal(len.value, '16384');
    assert.equal(len.raw, '${MAX_MODEL_LENGTH}');
    assert.equal(len.via?.[0].name, 'MAX_MODEL_LENGTH');
    const assigned = len.via![0].assignedAt!;
    assert.equal(text.split('\n')[assigned.start.line].slice(assigned.start.character, assigned.end.character), '16384');
    assert.deepEqual(envOf(inv), { VLLM_ALLOW_LONG_MAX_MODEL_LEN: '1', CUDA_VISIBLE_DEVICES: '0,1,2,3' });
    assert.equal(inv.entrypoint, 'program');
    assert.equal(inv.append?.separator, ' \\\n    ');
    // The new flag lands before the redirection, on its own continued line.
    const edited = appendFlag(text, inv, '--rope-scaling x');
    assert.match(edited, /--api-key 123 \\\n {4}--rope-scaling x > logs/);
  });

  it("quoting: single, double, $'…', concatenations; the value is what the program receives", () => {
    const text = `A=7\nvllm serve 'a b' "c $A" $'t\\tx' --x="$A"b --y='q'"r" plain\\ word\n`;
    const inv = read(text).invocations[0];
    assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'a b', 'c 7', 't\tx', '--x=7b', '--y=qr', 'plain word']);
    assert.deepEqual(
      inv.argv.map((t) => t.quote),
      ['none', 'none', 'single', 'double', 'ansi-c', 'mixed', 'mixed', 'none'],
    );
    assert.equal(tokenOf(inv, '--x=7b').raw, '--x="$A"b');
  });

  it('defaults: ${VAR:-d} and ${VAR-d} use the default when the file leaves VAR unset; := assigns', () => {
    const text = 'SET=""\nvllm serve m --a ${LEN:-4096} --b ${SET:-1} --c "${SET-2}" --d ${NEW:=77} --e $NEW\n';
    const inv = read(text).invocations[0];
    assert.equal(after(inv, '--a').value, '4096');
    assert.deepEqual(after(inv, '--a').via?.[0], {
      name: 'LEN',
      defaulted: true,
      defaultAt: { start: { line: 1, character: 24 }, end: { line: 1, character: 28 } },
    });
    assert.equal(after(inv, '--b').value, '1', ':- also replaces an empty value');
    assert.equal(after(inv, '--c').value, '', '- keeps a set empty value');
    assert.deepEqual(argvOf(read('E=""\nvllm serve $E m\n').invocations[0]), ['vllm', 'serve', 'm'], 'an empty unquoted expansion is no argument');
    assert.equal(after(inv, '--d').value, '77');
    assert.equal(after(inv, '--e').value, '77', ':= assigned NEW');
  });

  it('arithmetic: $(( 32*1024 )), $((LEN*2)), hex and octal; unknown parts make the token unknown', () => {
    const text = 'LEN=4096\nllama-server -m x.gguf -c $(( 32*1024 )) --a $((LEN*2)) --b "$((0x10 + 010))" --c $((UNSET_X * 2)) --d $((1/0))\n';
    const inv = read(text).invocations[0];
    assert.equal(after(inv, '-c').value, '32768');
    assert.equal(after(inv, '--a').value, '8192');
    assert.equal(after(inv, '--a').via?.[0].name, 'LEN');
    assert.equal(after(inv, '--b').value, '24');
    assert.equal(after(inv, '--c').known, false);
    assert.equal(after(inv, '--d').known, false, 'division by zero is not a value');
  });

  it('declarations: export, local, declare -x, readonly; prefix assignments hold for one command only', () => {
    const text = 'export A=1 B\nB=2\ndeclare -x C=3\nreadonly D=4\nE=5 vllm serve m --d $D\nvllm serve m --e "$E"\n';
    const [first, second] = read(text).invocations;
    assert.deepEqual(envOf(first), { A: '1', C: '3', E: '5' });
    assert.equal(after(first, '--d').value, '4');
    assert.equal(after(second, '--e').known, false, 'E was only set for the first command');
    assert.deepEqual(Object.keys(second.env).sort(), ['A', 'C']);
  });

  it("assignments alone on a line before a command are statements, not that command's prefix", () => {
    const text = 'A=1 B=2\nvllm serve m --a $A --b $B\n';
    const inv = read(text).invocations[0];
    assert.deepEqual(envOf(inv), {}, 'not exported, not a prefix');
    assert.equal(after(inv, '--b').value, '2');
    assert.equal(inv.range.start.line, 1);
  });

  it('a variable assigned in an if branch is traced as conditional; one assigned unconditionally is not', () => {
    const text = 'LEN=4096\nif [ "$BIG" = 1 ]; then\n  LEN=131072\nfi\nPORT=8000\nvllm serve m --max-model-len $LEN --port $PORT\n';
    const inv = read(text).invocations[0];
    assert.equal(after(inv, '--max-model-len').value, '131072');
    assert.equal(after(inv, '--max-model-len').via?.[0].conditional, true);
    assert.equal(after(inv, '--port').via?.[0].conditional, undefined);
    const inside = read('if [ -n "$X" ]; then\n  LEN=2048\n  vllm serve m --max-model-len $LEN\nfi\n').invocations[0];
    assert.equal(after(inside, '--max-model-len').via?.[0].conditional, undefined, 'read in the branch that set it');
  });

  it('a sourced file is noted: its variables are unknown', () => {
    const inv = read('set -a\nsource .env\nset +a\nvllm serve "$MODEL"\n').invocations[0];
    assert.equal(inv.argv[2].known, false);
    assert.match(inv.notes.join(), /\.env \(sourced\)/);
  });

  it('local variables stay in their function, unset forgets, arrays grow with +=, case branches are walked', () => {
    const text = [
      'LEN=1024',
      'start() { local LEN=2048; vllm serve a --max-model-len $LEN; }',
      'start',
      'vllm serve b --max-model-len $LEN',
      'ARGS=(--port 8000)',
      'ARGS+=(--host 0.0.0.0)',
      'unset LEN',
      'case "$1" in',
      '  big) vllm serve c "${ARGS[@]}" --max-model-len ${LEN:-65536} ;;',
      'esac',
      '',
    ].join('\n');
    const [a, b, c] = read(text).invocations;
    assert.equal(after(a, '--max-model-len').value, '2048');
    assert.equal(after(b, '--max-model-len').value, '1024');
    assert.deepEqual(argvOf(c), ['vllm', 'serve', 'c', '--port', '8000', '--host', '0.0.0.0', '--max-model-len', '65536']);
    assert.equal(after(c, '--max-model-len').via?.[0].defaulted, true);
  });

  it('a function that wraps the binary: "$@", $1 and ${@:2} take the call\'s arguments; the definition alone launches nothing', () => {
    const defOnly = 'serve() { vllm serve "$@" --port 8000; }\n';
    assert.equal(read(defOnly).invocations.length, 0);
    const text = 'serve() { vllm serve "$@" --port 8000; }\nserve Qwen/X --max-model-len 8192\n';
    const [inv] = read(text).invocations;
    assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'Qwen/X', '--max-model-len', '8192', '--port', '8000']);
    assert.equal(after(inv, '--max-model-len').range.start.line, 1, 'call arguments keep their call-site spans');
    assert.match(inv.notes.join(), /serve\(\)/);
    assert.equal(inv.range.start.line, 1, 'the invocation is where the function is called');
    const sliced = read('run() { exec python3 -m vllm.entrypoints.openai.api_server --model "$1" "${@:2}"; }\nrun m --a 1 --b 2\n').invocations[0];
    assert.deepEqual(argvOf(sliced), ['python3', '-m', 'vllm.entrypoints.openai.api_server', '--model', 'm', '--a', '1', '--b', '2']);
  });

  it('arrays and unquoted word splitting: "${ARGS[@]}" keeps element spans; $OPTS splits into spans inside its assignment', () => {
    const text = 'ARGS=(--max-model-len 8192 "--served-model-name" "my model")\nOPTS="--port 8000 --host 0.0.0.0"\nvllm serve m "${ARGS[@]}" $OPTS\n';
    const inv = read(text).invocations[0];
    assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'm', '--max-model-len', '8192', '--served-model-name', 'my model', '--port', '8000', '--host', '0.0.0.0']);
    assert.equal(after(inv, '--max-model-len').range.start.line, 0, 'array elements point into the array literal');
    assert.equal(after(inv, '--port').raw, '8000');
    assert.equal(after(inv, '--port').range.start.line, 1, 'split words point into the assignment');
  });

  it('wrappers peeled: exec, nohup, env A=1, time, sudo -E, uv run, timeout, CUDA_VISIBLE_DEVICES=…', () => {
    const cases: [string, string[], Record<string, string>?][] = [
      ['exec vllm serve m', ['vllm', 'serve', 'm']],
      ['nohup time vllm serve m', ['vllm', 'serve', 'm']],
      ['env -u X A=1 B=2 vllm serve m', ['vllm', 'serve', 'm'], { A: '1', B: '2' }],
      ['sudo -E -u svc vllm serve m', ['vllm', 'serve', 'm']],
      ['uv run --with vllm vllm serve m', ['vllm', 'serve', 'm']],
      ['timeout -s INT 3600 python3 -m sglang.launch_server --model-path m', ['python3', '-m', 'sglang.launch_server', '--model-path', 'm']],
      [
        'CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server --model m',
        ['python', '-m', 'vllm.entrypoints.openai.api_server', '--model', 'm'],
        { CUDA_VISIBLE_DEVICES: '0' },
      ],
    ];
    for (const [line, argv, env] of cases) {
      const r = read(line + '\n');
      assert.equal(r.invocations.length, 1, line);
      assert.deepEqual(argvOf(r.invocations[0]), argv, line);
      if (env) assert.deepEqual(envOf(r.invocations[0]), env, line);
    }
  });

  it('docker run: options skipped, -e/--env into env, IMAGE token, args to the image; --entrypoint makes a program', () => {
    const text =
      'docker run --gpus all --ipc=host -v ~/.cache/huggingface:/root/.cache/huggingface -p 8000:8000 \\\n  -e HF_TOKEN=abc --env "VLLM_X=1" --rm -it \\\n  vllm/vllm-openai:v0.10.1 --model Qwen/X --max-model-len 4096\n' +
      'docker run --entrypoint llama-server ghcr.io/ggml-org/llama.cpp:server -m /m.gguf -c 8192\n';
    const [img, prog] = read(text).invocations;
    assert.equal(img.entrypoint, 'image');
    assert.equal(img.image?.value, 'vllm/vllm-openai:v0.10.1');
    assert.deepEqual(argvOf(img), ['--model', 'Qwen/X', '--max-model-len', '4096']);
    assert.deepEqual(envOf(img), { HF_TOKEN: 'abc', VLLM_X: '1' });
    assert.equal(img.env.VLLM_X.raw, '1', 'the env value spans only the value inside the quotes');
    assert.equal(prog.entrypoint, 'program');
    assert.deepEqual(argvOf(prog), ['llama-server', '-m', '/m.gguf', '-c', '8192']);
    assert.equal(prog.image?.value, 'ghcr.io/ggml-org/llama.cpp:server');
  });

  it("docker run -e NAME passes the value the script exported; the script's other exports stay outside the container", () => {
    const text = 'export HF_TOKEN=hf_abc\nexport OTHER=1\ndocker run -e HF_TOKEN -e UNSET_ONE vllm/vllm-openai --model m\n';
    const inv = read(text).invocations[0];
    assert.deepEqual(envOf(inv), { HF_TOKEN: 'hf_abc' });
    assert.match(inv.notes.join(), /UNSET_ONE/);
  });

  it('docker run with the image and the model through variables (TGI launch script)', () => {
    const text = fixture('tgi-docker.sh');
    const f = readLaunchFile(text, 'tgi-docker.sh', { shell })!;
    assertExactSpans(text, f);
    const inv = f.invocations[0];
    assert.equal(inv.image?.value, 'ghcr.io/huggingface/text-generation-inference:2.2.0');
    assert.equal(after(inv, '--max-total-tokens').value, '2048');
    assert.equal(after(inv, '--model-id').known, false, '$1 at top level is the script argument: unknown');
    assert.equal(inv.env.HF_TOKEN.known, false);
  });

  it('commands inside if, for, pipelines, &&, subshells and $( ) are found', () => {
    const text =
      'if [ -n "$X" ]; then\n  vllm serve a\nfi\nfor i in 1 2; do sglang serve b; done\ntrue && (llama-server -m c.gguf) | tee log\necho "$(ollama serve)"\n';
    const r = read(text);
    assert.deepEqual(
      r.invocations.map((i) => argvOf(i)[0]),
      ['vllm', 'sglang', 'llama-server', 'ollama'],
    );
  });

  it('bash -c "…" and sh -c \'…\' in a script: the launch inside, at its own spans', () => {
    const text = 'LEN=2048\nnohup bash -c "pip install -U vllm && vllm serve m --max-model-len $LEN" &\nsh -c \'exec llama-server -m x.gguf -c 4096\'\n';
    const [a, b] = read(text).invocations;
    assert.deepEqual(argvOf(a), ['vllm', 'serve', 'm', '--max-model-len', '2048']);
    assert.equal(after(a, '--max-model-len').raw, '$LEN');
    assert.match(a.notes.join(), /through bash -c/);
    assert.deepEqual(argvOf(b), ['llama-server', '-m', 'x.gguf', '-c', '4096']);
  });

  it('heredoc bodies and comments are not commands', () => {
    const text = "cat > run.sh <<EOF\nvllm serve not-this\nEOF\n# vllm serve nor-this\n: <<'DOC'\nsglang nope\nDOC\nvllm serve yes\n";
    const r = read(text);
    assert.deepEqual(r.invocations.map(argvOf), [['vllm', 'serve', 'yes']]);
  });

  it('a continuation dangling at the end of the file still gives the command, with no problem', () => {
    for (const text of ['vllm serve m --max-model-len 4096 \\', 'vllm serve m --max-model-len 4096 \\\n']) {
      const r = read(text);
      assert.deepEqual(argvOf(r.invocations[0]), ['vllm', 'serve', 'm', '--max-model-len', '4096']);
      assert.deepEqual(r.problems, []);
    }
  });

  it('llama.cpp behind a function with "$@", a default path and $(( )) in quotes', () => {
    const text = fixture('llama-server.sh');
    const f = readLaunchFile(text, 'llama-server.sh', { shell })!;
    assertExactSpans(text, f);
    const inv = f.invocations[0];
    assert.equal(argvOf(inv)[0], 'build/bin/llama-server');
    assert.equal(after(inv, '--ctx-size').value, '32768');
    assert.equal(after(inv, '--ctx-size').raw, '"$(( 32*1024 ))"');
    assert.equal(after(inv, '-m').known, false, '$HOME is not known');
    assert.deepEqual(argvOf(inv).slice(-4), ['--batch-size', '2048', '--ubatch-size', '512']);
  });

  it('SGLang with a JSON override in single quotes and a commented-out second launch', () => {
    const text = fixture('sglang-yarn.sh');
    const f = readLaunchFile(text, 'run.sh', { shell })!;
    assertExactSpans(text, f);
    assert.equal(f.invocations.length, 1);
    const inv = f.invocations[0];
    assert.deepEqual(JSON.parse(after(inv, '--json-model-override-args').value).rope_scaling.factor, 4);
    assert.equal(after(inv, '--json-model-override-args').quote, 'single');
    assert.deepEqual(envOf(inv), { SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN: '1' });
  });

  it('python running a script named for training is a launch (python train.py, python -u pretrain_gpt.py); other scripts are not', () => {
    const f = readLaunchFile(
      '#!/bin/bash\npython train.py --model_name_or_path m --max_length 4096\npython -u tools/pretrain_gpt.py --seq-length 4096\npython app.py --port 80\npython -c "print(1)"\n',
      'x.sh',
      { shell },
    )!;
    assert.deepEqual(
      f.invocations.map((i) => argvOf(i).slice(0, 3).join(' ')),
      ['python train.py --model_name_or_path', 'python -u tools/pretrain_gpt.py'],
    );
    assert.equal(
      readLaunchFile('python app.py --port 80\npython scripts/download_models.py -m llama3\n', 'x.sh', { shell }),
      undefined,
      'no launch word: not parsed',
    );
  });

  it('readLaunchFile: no launch word → undefined without parsing; format by name, language id or shebang', () => {
    const throwing: ShellParser = {
      parse: () => {
        throw new Error('must not parse');
      },
    };
    assert.equal(readLaunchFile('echo hello\nls -la\n', 'x.sh', { shell: throwing }), undefined);
    assert.equal(readLaunchFile('echo vllm is great\n', 'x.sh', { shell }), undefined, 'a mention that launches nothing');
    assert.equal(launchFormatOf('run', undefined, '#!/usr/bin/env bash\n'), 'shell');
    assert.equal(launchFormatOf('run', 'shellscript', ''), 'shell');
    assert.equal(launchFormatOf('x.zsh', undefined, ''), 'shell');
    assert.equal(launchFormatOf('notes.txt', undefined, 'vllm serve'), undefined);
  });
});
