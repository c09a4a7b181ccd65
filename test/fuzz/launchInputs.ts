/**
 * Hostile launch files for the fuzz and growth checks: long tokens (a base64 blob, a hex RUN line),
 * deep nesting (subshells, YAML flow lists, a line of block indicators), many continuations, many
 * keys, huge files, in every launch format the readers take (shell, Dockerfile, compose, Kubernetes,
 * Modelfile, SkyPilot, dstack, production-stack Helm values). Each generator is a function of a
 * size, so the same shape can be grown tenfold to check the reader's time grows linearly.
 */
import fc from 'fast-check';

export type LaunchFormat = 'shell' | 'dockerfile' | 'compose' | 'kubernetes' | 'modelfile' | 'skypilot' | 'dstack' | 'helm-values';

/** The file name each format is read under. */
export const FILE_NAMES: Record<LaunchFormat, string> = {
  shell: 'serve.sh',
  dockerfile: 'Dockerfile',
  compose: 'compose.yaml',
  kubernetes: 'deployment.yaml',
  modelfile: 'Modelfile',
  skypilot: 'serve.sky.yaml',
  dstack: '.dstack.yml',
  'helm-values': 'values.yaml',
};

const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';

/**
 * A real launch per format, the seed the hostile parts are spliced around. The YAML task files
 * follow the shapes of public examples (test/fixtures/launch/readers: SkyPilot's qwen25-72b task,
 * dstack's vLLM service, production-stack's basic values).
 */
const LAUNCH: Record<LaunchFormat, string> = {
  shell: `vllm serve ${MODEL} --max-model-len 262144`,
  dockerfile: `FROM vllm/vllm-openai:v0.6.3\nCMD ["--model", "${MODEL}", "--max-model-len", "262144"]`,
  compose: `services:\n  api:\n    image: vllm/vllm-openai:v0.6.3\n    command: ["--model", "${MODEL}", "--max-model-len", "262144"]`,
  kubernetes: `apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          args: ["--model", "${MODEL}", "--max-model-len", "262144"]`,
  modelfile: 'FROM llama3.1:8b\nPARAMETER num_ctx 262144',
  skypilot: `envs:\n  MODEL_NAME: ${MODEL}\nresources:\n  accelerators: A100:1\nrun: |\n  vllm serve $MODEL_NAME --max-model-len 262144`,
  dstack: `type: service\nname: llama31\nenv:\n  - MODEL_ID=${MODEL}\ncommands:\n  - vllm serve $MODEL_ID --max-model-len 262144\nport: 8000`,
  'helm-values': `servingEngineSpec:\n  modelSpec:\n  - name: "llama3"\n    repository: "vllm/vllm-openai"\n    tag: "v0.6.3"\n    modelURL: "${MODEL}"\n    vllmConfig:\n      maxModelLen: 262144\n      extraArgs: ["--disable-log-requests"]`,
};

export type Shape = 'long-word' | 'long-hex-line' | 'deep-nesting' | 'deep-indicators' | 'continuations' | 'many-lines' | 'many-keys' | 'long-options';

const YAML_FORMATS: ReadonlySet<LaunchFormat> = new Set(['compose', 'kubernetes', 'skypilot', 'dstack', 'helm-values']);

/** `n` characters of a base64-like word and of hex. */
const word = (n: number) => 'aB3+'.repeat(Math.ceil(n / 4)).slice(0, n);
const hex = (n: number) => '0123456789abcdef'.repeat(Math.ceil(n / 16)).slice(0, n);
/** How many repetitions of a `per`-character unit make about `n` characters (at least one). */
const times = (n: number, per: number) => Math.max(1, Math.floor(n / per));
const lines = (k: number, line: (i: number) => string) => Array.from({ length: k }, (_, i) => line(i)).join('');

/** One hostile file of `format` and `shape` at size `n` (characters or repetitions, roughly linear in n). */
export function hostileLaunch(format: LaunchFormat, shape: Shape, n: number): string {
  if (YAML_FORMATS.has(format)) return hostileYaml(format, shape, n);
  const launch = LAUNCH[format];
  const [first, second = ''] = launch.split('\n');
  switch (shape) {
    case 'long-word':
      return format === 'shell' ? `#!/bin/sh\nTOKEN=${word(n)}\n${launch} --api-key ${word(n)}\n` : `# ${word(n)}\n${launch}\n`;
    case 'long-hex-line':
      if (format === 'dockerfile') return `${first}\nRUN echo ${hex(n)} > /blob\n${second}\n`;
      if (format === 'shell') return `#!/bin/sh\necho ${hex(n)}\n${launch}\n`;
      return `${launch}\nSYSTEM ${hex(n)}\n`;
    case 'deep-nesting': {
      const depth = times(n, 4);
      if (format === 'shell') return `#!/bin/bash\n${'('.repeat(depth)}${launch}${')'.repeat(depth)}\n`;
      if (format === 'dockerfile') return `${first}\nRUN ${'$('.repeat(depth)}true${')'.repeat(depth)}\n${second}\n`;
      return `${launch}\nSYSTEM """${'['.repeat(depth)}${']'.repeat(depth)}"""\n`;
    }
    case 'deep-indicators': {
      // Brace groups in a shell, Go template blocks in a Modelfile: one construct inside the other.
      const k = times(n, 6);
      if (format === 'shell') return `#!/bin/bash\n${'{ '.repeat(k)}${launch}${'; }'.repeat(k)}\n`;
      if (format === 'dockerfile') return `${first}\nRUN ${'{ '.repeat(k)}true${'; }'.repeat(k)}\n${second}\n`;
      return `${launch}\nTEMPLATE """${'{{ if .S }}'.repeat(times(n, 20))}x${'{{ end }}'.repeat(times(n, 20))}"""\n`;
    }
    case 'continuations': {
      const k = times(n, 12);
      if (format === 'shell') return `#!/bin/sh\n${launch} \\\n${'  --served-model-name x \\\n'.repeat(k)}  --port 8000\n`;
      if (format === 'dockerfile') return `${first}\nRUN true \\\n${'  && true \\\n'.repeat(k)}  && true\n${second}\n`;
      return `${launch}\n${'PARAMETER stop x\n'.repeat(k)}`;
    }
    case 'many-lines': {
      const k = times(n, 20);
      if (format === 'shell') return `#!/bin/sh\n${'export A_VAR=1 # padding\n'.repeat(k)}${launch}\n`;
      if (format === 'dockerfile') return `${first}\n${'ENV A_VAR=1 B=2\n'.repeat(k)}${second}\n`;
      return `${launch}\n${'# a padding line\n'.repeat(k)}`;
    }
    case 'many-keys': {
      // Distinct names: every one is a new binding in the reader's variable scope.
      const k = times(n, 16);
      if (format === 'shell') return `#!/bin/sh\n${lines(k, (i) => `export V_${i}=${i}\n`)}${launch}\n`;
      if (format === 'dockerfile') return `${first}\n${lines(k, (i) => `ENV K_${i}=${i}\n`)}${second}\n`;
      return `${launch}\n${lines(k, (i) => `PARAMETER stop s_${i}\n`)}`;
    }
    case 'long-options': {
      const k = times(n, 6);
      if (format === 'shell') return `#!/bin/sh\npython3 ${'-a -b '.repeat(k)}train.py\n${launch}\n`;
      if (format === 'dockerfile') return `${first}\nRUN python ${'-X -Y '.repeat(k)}x\n${second}\n`;
      return `${launch}\nPARAMETER ${'x '.repeat(k)}\n`;
    }
  }
}

/**
 * The YAML formats: the hostile part is a top-level key of its own (`x-fuzz`, an extension field
 * compose allows and the other readers ignore), except continuations, which continue the launch
 * command itself through a block scalar (or, in Helm values, a long extraArgs list).
 */
function hostileYaml(format: LaunchFormat, shape: Shape, n: number): string {
  const launch = LAUNCH[format];
  switch (shape) {
    case 'long-word':
      return `${launch}\nx-fuzz: ${word(n)}\n`;
    case 'long-hex-line':
      return `${launch}\nx-fuzz: "${hex(n)}"\n`;
    case 'deep-nesting': {
      const depth = times(n, 2);
      return `${launch}\nx-fuzz: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    }
    case 'deep-indicators':
      return `${launch}\nx-fuzz:\n  ${'- '.repeat(times(n, 2))}x\n`;
    case 'continuations':
      return yamlContinuations(format, times(n, 26));
    case 'many-lines':
      return `${launch}\n${'# padding line in yaml\n'.repeat(times(n, 23))}`;
    case 'many-keys':
      return `${launch}\nx-fuzz:\n${lines(times(n, 14), (i) => `  key_${i}: ${i}\n`)}`;
    case 'long-options':
      return `${launch}\nx-fuzz: "${'-a '.repeat(times(n, 3))}"\n`;
  }
  return launch;
}

/** The launch command continued over `k` lines inside the format's own script block. */
function yamlContinuations(format: LaunchFormat, k: number): string {
  const cont = (indent: string) =>
    `${indent}vllm serve ${MODEL} --max-model-len 262144 \\\n${`${indent}  --served-model-name x \\\n`.repeat(k)}${indent}  --port 8000\n`;
  switch (format) {
    case 'compose':
      return `services:\n  api:\n    image: vllm/vllm-openai:v0.6.3\n    entrypoint: ["/bin/sh", "-c"]\n    command:\n      - |\n${cont('        ')}`;
    case 'kubernetes':
      return `apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          command: ["/bin/sh", "-c"]\n          args:\n            - |\n${cont('              ')}`;
    case 'skypilot':
      return `resources:\n  accelerators: A100:1\nrun: |\n${cont('  ')}`;
    case 'dstack':
      return `type: service\nname: llama31\ncommands:\n  - |\n${cont('    ')}port: 8000\n`;
    default:
      return `${LAUNCH[format]}\n      extraArgs:\n${'        - "--served-model-name"\n        - "x"\n'.repeat(k)}`.replace(
        '      extraArgs: ["--disable-log-requests"]\n',
        '',
      );
  }
}

export const FORMATS = Object.keys(FILE_NAMES) as LaunchFormat[];
export const SHAPES: Shape[] = ['long-word', 'long-hex-line', 'deep-nesting', 'deep-indicators', 'continuations', 'many-lines', 'many-keys', 'long-options'];

/** A random hostile launch file: a format, a shape, a size up to `maxSize`, and a random splice. */
export const hostileLaunchFile = (maxSize: number): fc.Arbitrary<{ format: LaunchFormat; text: string }> =>
  fc
    .record({
      format: fc.constantFrom(...FORMATS),
      shape: fc.constantFrom(...SHAPES),
      size: fc.integer({ min: 1, max: maxSize }),
      splice: fc.string({ maxLength: 40 }),
      at: fc.nat(),
    })
    .map(({ format, shape, size, splice, at }) => {
      const text = hostileLaunch(format, shape, size);
      const i = at % (text.length + 1);
      return { format, text: text.slice(0, i) + splice + text.slice(i) };
    });
