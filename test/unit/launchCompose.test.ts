import { strict as assert } from 'node:assert';
import { readCompose } from '../../shared/launch/compose';
import { launchFormatOf, readLaunchFile } from '../../shared/launch/index';
import { readKubernetes } from '../../shared/launch/kubernetes';
import { splitLikeCompose } from '../../shared/launch/shellwords';
import type { ShellParser } from '../../shared/launch/types';
import { after, appendFlag, argvOf, assertExactSpans, envOf, fixture, shellParser } from './helpers/launch';

describe('launch files: compose and Kubernetes YAML', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });

  describe('compose', () => {
    it('a real multi-service file: folded command with ${VAR:-default}s, list command under entrypoint, env-only Ollama, nginx left out', () => {
      const text = fixture('docker-compose.yml');
      const f = readLaunchFile(text, 'docker-compose.yml', { shell })!;
      assert.equal(f.format, 'compose');
      assertExactSpans(text, f);
      assert.deepEqual(
        f.invocations.map((i) => i.image?.value),
        ['vllm/vllm-openai:latest', 'lmsysorg/sglang:v0.4.9', 'ollama/ollama:0.9.6'],
      );
      const [vllm, sglang, ollama] = f.invocations;
      assert.equal(vllm.entrypoint, 'image');
      const len = after(vllm, '--max-model-len');
      assert.equal(len.value, '8000');
      assert.equal(len.raw, '${MAX_MODEL_LEN:-8000}');
      assert.deepEqual(len.via, [{ name: 'MAX_MODEL_LEN', defaulted: true }]);
      assert.equal(vllm.env.HUGGING_FACE_HUB_TOKEN.known, false, '${HF_TOKEN} comes from the host');
      assert.equal(vllm.env.VLLM_ALLOW_LONG_MAX_MODEL_LEN.raw, '1');
      assert.match(vllm.notes.join(), /env_file/);
      assert.equal(sglang.entrypoint, 'program');
      assert.deepEqual(argvOf(sglang), [
        'python3',
        '-m',
        'sglang.launch_server',
        '--model-path',
        'meta-llama/Llama-3.1-8B-Instruct',
        '--context-length',
        '65536',
      ]);
      assert.equal(after(sglang, '--model-path').raw, '"meta-llama/Llama-3.1-8B-Instruct"');
      assert.deepEqual(argvOf(ollama), []);
      assert.deepEqual(envOf(ollama), { OLLAMA_CONTEXT_LENGTH: '8192', OLLAMA_HOST: '0.0.0.0' });
      // A new list item goes on its own `- ` line at the list's indentation.
      assert.match(appendFlag(text, sglang, '--enable-torch-compile'), /- 65536\n {6}- --enable-torch-compile\n/);
    });

    it('command strings are split as compose splits them (go-shellwords): quotes group, backslash escapes, ; ends', () => {
      assert.deepEqual(
        splitLikeCompose(`--a 'x y' "p\\"q" r\\ s`).words.map((w) => w.value),
        ['--a', 'x y', 'p"q', 'r s'],
      );
      const stop = splitLikeCompose('--a 1; rm -rf /');
      assert.deepEqual(
        stop.words.map((w) => w.value),
        ['--a', '1'],
      );
      assert.equal(stop.stoppedAt, 5);
      assert.ok(splitLikeCompose('--a "open').error);
      const text =
        'services:\n  v:\n    image: vllm/vllm-openai\n    command: --model m --rope-scaling \'{"rope_type":"yarn","factor":4.0}\' --max-model-len "32768"\n';
      const inv = readCompose(text).invocations[0];
      assertExactSpans(text, { invocations: [inv] });
      assert.equal(JSON.parse(after(inv, '--rope-scaling').value).factor, 4);
      assert.equal(after(inv, '--max-model-len').raw, '"32768"');
    });

    it('interpolation: $$ is a literal $, ${VAR:-d} takes the default, a host variable is unknown', () => {
      const text =
        'services:\n  v:\n    image: vllm/vllm-openai\n    command: ["--api-key", "$$ecret", "--max-model-len", "${LEN:-4096}", "--served-model-name", "$NAME"]\n';
      const inv = readCompose(text).invocations[0];
      assert.equal(after(inv, '--api-key').value, '$ecret');
      assert.equal(after(inv, '--max-model-len').value, '4096');
      assert.equal(after(inv, '--served-model-name').known, false);
    });

    it('environment as a K=V list and as a map; a name without value is unknown', () => {
      const text =
        'services:\n  a:\n    image: vllm/vllm-openai\n    environment:\n      - "VLLM_X=1"\n      - HOST_ONLY\n  b:\n    image: ollama/ollama\n    environment:\n      OLLAMA_CONTEXT_LENGTH: "16384"\n      FROM_HOST:\n';
      const [a, b] = readCompose(text).invocations;
      assertExactSpans(text, { invocations: [a, b] });
      assert.equal(a.env.VLLM_X.value, '1');
      assert.equal(a.env.VLLM_X.raw, '1');
      assert.equal(a.env.HOST_ONLY.known, false);
      assert.equal(b.env.OLLAMA_CONTEXT_LENGTH.value, '16384');
      assert.equal(b.env.FROM_HOST.known, false);
    });

    it('bash -c in a folded command: the script is read as shell, spans exact across the fold', () => {
      const text = 'services:\n  sh:\n    image: python:3.11\n    command: >\n      bash -c "pip install vllm &&\n      vllm serve x --max-model-len 1024"\n';
      const inv = readCompose(text, shell).invocations[0];
      assertExactSpans(text, { invocations: [inv] });
      assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'x', '--max-model-len', '1024']);
      assert.equal(after(inv, '--max-model-len').range.start.line, 5);
    });

    it('format: compose.yaml, docker-compose.*.yml; other YAML is not compose', () => {
      for (const n of ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.gpu.yaml', 'deploy/docker-compose-prod.yml'])
        assert.equal(launchFormatOf(n, undefined, 'services: {}'), 'compose', n);
      assert.equal(launchFormatOf('values.yaml', undefined, 'services: {}'), undefined);
    });
  });

  describe('Kubernetes', () => {
    it('a Deployment after a Service: command + args, $(VAR) from env, valueFrom unknown, list layout kept', () => {
      const text = fixture('k8s-vllm.yaml');
      const f = readLaunchFile(text, 'k8s-vllm.yaml', { shell })!;
      assert.equal(f.format, 'kubernetes');
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 1);
      const inv = f.invocations[0];
      assert.equal(inv.entrypoint, 'program');
      assert.equal(inv.image?.value, 'vllm/vllm-openai:v0.10.1');
      const len = after(inv, '--max-model-len');
      assert.equal(len.value, '32768');
      assert.equal(len.raw, '"$(MAX_MODEL_LEN)"');
      assert.equal(len.via?.[0].name, 'MAX_MODEL_LEN');
      assert.equal(inv.env.HUGGING_FACE_HUB_TOKEN.known, false);
      assert.match(appendFlag(text, inv, '--enforce-eager'), /- "0\.9"\n {12}- --enforce-eager\n/);
    });

    it('a StatefulSet whose args are a bash -c script (block literal): the launch inside, spans exact', () => {
      const text = fixture('k8s-sglang.yaml');
      const f = readLaunchFile(text, 'sts.yaml', { shell })!;
      assertExactSpans(text, f);
      const inv = f.invocations[0];
      assert.deepEqual(argvOf(inv).slice(0, 3), ['python3', '-m', 'sglang.launch_server']);
      assert.equal(after(inv, '--context-length').value, '32768');
      assert.equal(after(inv, '--node-rank').known, false, 'POD_INDEX comes from a fieldRef');
      assert.equal(inv.append?.separator, ' \\\n          ');
    });

    it('env values may use earlier env values through $(NAME); $$( stays literal', () => {
      const text =
        'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai\n    command: [vllm, serve, "$(DIR)/m", --x, "$$(NOT)"]\n    env:\n    - {name: BASE, value: /models}\n    - {name: DIR, value: "$(BASE)/qwen"}\n';
      const inv = readKubernetes(text).invocations[0];
      assert.equal(inv.env.DIR.value, '/models/qwen');
      assert.equal(argvOf(inv)[2], '/models/qwen/m');
      assert.equal(after(inv, '--x').value, '$(NOT)');
    });

    it('a LeaderWorkerSet: leader and worker templates, a double-quoted sh -c script over two lines mapped back exactly', () => {
      const text = [
        'apiVersion: leaderworkerset.x-k8s.io/v1',
        'kind: LeaderWorkerSet',
        'spec:',
        '  leaderWorkerTemplate:',
        '    leaderTemplate:',
        '      spec:',
        '        containers:',
        '          - name: leader',
        '            image: vllm/vllm-openai:v0.8.5',
        '            command:',
        '              - sh',
        '              - -c',
        '              - "bash setup.sh leader --size=$(LWS_GROUP_SIZE); ',
        '                 python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-405B-Instruct --max-model-len 8192"',
        '    workerTemplate:',
        '      spec:',
        '        containers:',
        '          - name: worker',
        '            image: lmsysorg/sglang:latest',
        '            command: [python3, -m, sglang.launch_server, --model-path, m, --context-length, "4096"]',
        '',
      ].join('\n');
      assert.equal(launchFormatOf('lws.yaml', undefined, text), 'kubernetes');
      const f = readLaunchFile(text, 'lws.yaml', { shell })!;
      assertExactSpans(text, f);
      assert.deepEqual(
        f.invocations.map((i) => argvOf(i).slice(0, 3).join(' ')),
        ['python3 -m vllm.entrypoints.openai.api_server', 'python3 -m sglang.launch_server'],
      );
      const len = after(f.invocations[0], '--max-model-len');
      assert.equal(len.value, '8192');
      assert.equal(len.range.start.line, 13, "the token sits on the script's second line");
    });

    it("args without command that start with a launch program are the command the image runs (GKE's Vertex vLLM image)", () => {
      const text =
        'apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - image: us-docker.pkg.dev/vertex-ai/pytorch-vllm-serve:20250405\n        args:\n        - python3\n        - -m\n        - vllm.entrypoints.api_server\n        - --max-model-len=1310720\n';
      const inv = readKubernetes(text, shell).invocations[0];
      assert.equal(inv.entrypoint, 'program');
      assert.deepEqual(argvOf(inv).slice(0, 3), ['python3', '-m', 'vllm.entrypoints.api_server']);
      assert.match(inv.notes.join(' '), /args without command start with a program/);
    });

    it("args without command are the image's arguments; Pod, Job, CronJob and List kinds", () => {
      const container = (indent: string) =>
        `${indent}containers:\n${indent}- name: c\n${indent}  image: lmsysorg/sglang:latest\n${indent}  args: ["--model-path", "m", "--context-length", "4096"]\n`;
      const text = [
        `apiVersion: v1\nkind: Pod\nspec:\n${container('  ')}`,
        `apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n${container('      ')}`,
        `apiVersion: batch/v1\nkind: CronJob\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n${container('          ')}`,
        `apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: DaemonSet\n  spec:\n    template:\n      spec:\n${container('        ')}`,
      ].join('---\n');
      const f = readKubernetes(text, shell);
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 4);
      for (const inv of f.invocations) {
        assert.equal(inv.entrypoint, 'image');
        assert.equal(after(inv, '--context-length').value, '4096');
      }
      assert.equal(launchFormatOf('pod.yaml', undefined, text), 'kubernetes');
      assert.equal(launchFormatOf('svc.yaml', undefined, 'apiVersion: v1\nkind: Service\n'), undefined);
    });
  });
});
