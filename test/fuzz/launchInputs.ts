/**
 * Hostile launch files for the fuzz and growth checks: long tokens (a base64 blob, a hex RUN line),
 * deep nesting (subshells, YAML lists), many continuations, huge files, in every launch format the
 * readers take (shell, Dockerfile, compose, Kubernetes, Modelfile). Each generator is a function
 * of a size, so the same shape can be grown tenfold to check the reader's time grows linearly.
 */
import fc from 'fast-check';

export type LaunchFormat = 'shell' | 'dockerfile' | 'compose' | 'kubernetes' | 'modelfile';

/** The file name each format is read under. */
export const FILE_NAMES: Record<LaunchFormat, string> = {
  shell: 'serve.sh',
  dockerfile: 'Dockerfile',
  compose: 'compose.yaml',
  kubernetes: 'deployment.yaml',
  modelfile: 'Modelfile',
};

/** A real launch line per format, the seed the hostile parts are spliced around. */
const LAUNCH: Record<LaunchFormat, string> = {
  shell: 'vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 131072',
  dockerfile: 'FROM vllm/vllm-openai:v0.6.3\nCMD ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "131072"]',
  compose: 'services:\n  api:\n    image: vllm/vllm-openai:v0.6.3\n    command: ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "131072"]',
  kubernetes:
    'apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          args: ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "131072"]',
  modelfile: 'FROM llama3.1:8b\nPARAMETER num_ctx 131072',
};

export type Shape = 'long-word' | 'long-hex-line' | 'deep-nesting' | 'continuations' | 'many-lines' | 'long-options';

/** One hostile file of `format` and `shape` at size `n` (characters or repetitions, roughly linear in n). */
export function hostileLaunch(format: LaunchFormat, shape: Shape, n: number): string {
  const launch = LAUNCH[format];
  const word = 'aB3+'.repeat(Math.ceil(n / 4)).slice(0, n);
  const hex = '0123456789abcdef'.repeat(Math.ceil(n / 16)).slice(0, n);
  const comment = format === 'compose' || format === 'kubernetes' ? '# ' : format === 'modelfile' ? '# ' : '# ';
  switch (shape) {
    case 'long-word':
      return format === 'shell' ? `#!/bin/sh\nTOKEN=${word}\n${launch} --api-key ${word}\n` : `${comment}${word}\n${launch}\n`;
    case 'long-hex-line':
      if (format === 'dockerfile') return `${launch.split('\n')[0]}\nRUN echo ${hex} > /blob\n${launch.split('\n')[1]}\n`;
      if (format === 'shell') return `#!/bin/sh\necho ${hex}\n${launch}\n`;
      if (format === 'modelfile') return `${launch}\nSYSTEM ${hex}\n`;
      return `${launch}\n    env: [{name: BLOB, value: "${hex}"}]\n`;
    case 'deep-nesting': {
      const depth = Math.max(1, Math.floor(n / 4));
      if (format === 'shell') return `#!/bin/bash\n${'('.repeat(depth)}${launch}${')'.repeat(depth)}\n`;
      if (format === 'dockerfile') return `${launch.split('\n')[0]}\nRUN ${'$('.repeat(depth)}true${')'.repeat(depth)}\n${launch.split('\n')[1]}\n`;
      if (format === 'modelfile') return `${launch}\nSYSTEM """${'['.repeat(depth)}${']'.repeat(depth)}"""\n`;
      return `${launch}\n    labels: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    }
    case 'continuations': {
      const k = Math.max(1, Math.floor(n / 12));
      if (format === 'shell') return `#!/bin/sh\n${launch} \\\n${'  --served-model-name x \\\n'.repeat(k)}  --port 8000\n`;
      if (format === 'dockerfile') return `${launch.split('\n')[0]}\nRUN true \\\n${'  && true \\\n'.repeat(k)}  && true\n${launch.split('\n')[1]}\n`;
      if (format === 'modelfile') return `${launch}\n${'PARAMETER stop x\n'.repeat(k)}`;
      return `${launch}\n${'          # continued\n'.repeat(k)}`;
    }
    case 'many-lines': {
      const k = Math.max(1, Math.floor(n / 20));
      if (format === 'shell') return `#!/bin/sh\n${'export A_VAR=1 # padding\n'.repeat(k)}${launch}\n`;
      if (format === 'dockerfile') return `${launch.split('\n')[0]}\n${'ENV A_VAR=1 B=2\n'.repeat(k)}${launch.split('\n')[1]}\n`;
      if (format === 'modelfile') return `${launch}\n${'# a padding line\n'.repeat(k)}`;
      return `${launch}\n${'# padding line in yaml\n'.repeat(k)}`;
    }
    case 'long-options': {
      const k = Math.max(1, Math.floor(n / 6));
      if (format === 'shell') return `#!/bin/sh\npython3 ${'-a -b '.repeat(k)}train.py\n${launch}\n`;
      if (format === 'dockerfile') return `${launch.split('\n')[0]}\nRUN python ${'-X -Y '.repeat(k)}x\n${launch.split('\n')[1]}\n`;
      if (format === 'modelfile') return `${launch}\nPARAMETER ${'x '.repeat(k)}\n`;
      return `${launch}\n    x: "${'-a '.repeat(k)}"\n`;
    }
  }
}

export const FORMATS = Object.keys(FILE_NAMES) as LaunchFormat[];
export const SHAPES: Shape[] = ['long-word', 'long-hex-line', 'deep-nesting', 'continuations', 'many-lines', 'long-options'];

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
