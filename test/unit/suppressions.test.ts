/**
 * Suppressions silence exactly what they name: `# rope-lens: disable=…` on the line(s) above a
 * finding or its command, `disable-file`, and the project file `.rope-lens.yaml` (found upward from
 * the checked file by the Node reader) with enable/disable, severities, consumers and ignored paths.
 * Suppressed findings are kept aside with their kind (inSource / external) for SARIF.
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRopeLensService, type RopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { loadShellParser } from '../../shared/node/shellParser';
import { nodeProjectConfig } from '../../shared/node/projectConfig';
import { globToRegExp, parseProjectConfig } from '../../shared/service/projectConfig';
import type { ShellParser } from '../../shared/launch/types';
import type { FileAnalysis } from '../../shared/service/types';

/** `line code` of each finding; launch scripts here also get launch/length-exceeds-derived, which the tests leave aside. */
const codes = (a: FileAnalysis) => a.diagnostics.filter((d) => d.code !== 'launch/length-exceeds-derived').map((d) => `${d.range.start.line + 1} ${d.code}`);
const silenced = (a: FileAnalysis) =>
  (a.suppressed ?? [])
    .filter((s) => s.finding.code !== 'launch/length-exceeds-derived')
    .map((s) => `${s.finding.range.start.line + 1} ${s.finding.code} ${s.kind}`);

// Two llama-server commands on Qwen2.5 with a bare --rope-scale: launch/implicit-linear on each.
const TWO_COMMANDS = [
  'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 98304 --rope-scale 3 --port 8080',
  'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 98304 --rope-scale 3 --port 8081',
];
// Llama-2 trained at 4,096, trained at 16,384 with no scaling: training/context-exceeded on sequence_len.
const TRAIN = ['base_model: NousResearch/Llama-2-7b-hf', 'sequence_len: 16384', 'micro_batch_size: 1'];
// Llama-3-8B with max_position_embeddings raised to 65,536: rope/context-extended.
const LLAMA_RAISED = JSON.stringify(
  {
    _name_or_path: 'meta-llama/Meta-Llama-3-8B',
    architectures: ['LlamaForCausalLM'],
    model_type: 'llama',
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_hidden_layers: 32,
    max_position_embeddings: 65536,
    rope_theta: 500000.0,
  },
  null,
  2,
);

describe('suppressions: comments and the project file', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  let dir: string;
  let service: RopeLensService;
  before(async () => {
    shell = await loadShellParser();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-suppress-'));
    mkdirSync(join(dir, '.git'));
    service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell, project: nodeProjectConfig(0) });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const analyze = (name: string, text: string) => service.analyze(text, { fileName: join(dir, name) });

  it('without suppressions: each command and the YAML get their finding (the baseline the rest changes)', () => {
    assert.deepEqual(codes(analyze('serve.sh', TWO_COMMANDS.join('\n') + '\n')), ['1 launch/implicit-linear', '2 launch/implicit-linear']);
    assert.deepEqual(codes(analyze('train.yaml', TRAIN.join('\n') + '\n')), ['2 training/context-exceeded']);
  });

  it('disable=CODE above a line silences that finding only, not the same code on the next command', () => {
    const text = ['# rope-lens: disable=launch/implicit-linear  we run the long-context finetune', ...TWO_COMMANDS].join('\n') + '\n';
    const a = analyze('serve.sh', text);
    assert.deepEqual(codes(a), ['3 launch/implicit-linear']);
    assert.deepEqual(silenced(a), ['2 launch/implicit-linear inSource']);
    assert.match(a.suppressed![0].justification, /^line 1: # rope-lens: disable=launch\/implicit-linear  we run/);
  });

  it('a comment naming another code, or separated by a command, silences nothing', () => {
    const other = analyze('serve.sh', ['# rope-lens: disable=launch/beyond-trained', TWO_COMMANDS[0]].join('\n') + '\n');
    assert.deepEqual(codes(other), ['2 launch/implicit-linear']);
    const far = analyze('serve.sh', ['# rope-lens: disable=launch/implicit-linear', 'echo starting', TWO_COMMANDS[0]].join('\n') + '\n');
    assert.deepEqual(codes(far), ['3 launch/implicit-linear']);
  });

  it('stacked comment lines and a group selector; the comment above a continued command covers its other lines', () => {
    const text =
      [
        '# start the 96k server',
        '# rope-lens: disable=launch/*',
        'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf \\',
        '  -c 98304 \\',
        '  --rope-scale 3 --port 8080',
        TWO_COMMANDS[1],
      ].join('\n') + '\n';
    const a = analyze('serve.sh', text);
    assert.deepEqual(
      silenced(a).map((s) => s.split(' ')[1]),
      ['launch/implicit-linear'],
    );
    assert.deepEqual(codes(a), ['6 launch/implicit-linear']);
  });

  it('YAML: disable above the key; disable-file=CODE everywhere; disable-file alone silences every code', () => {
    const line = analyze('train.yaml', [TRAIN[0], '# rope-lens: disable=training/context-exceeded', TRAIN[1], TRAIN[2]].join('\n') + '\n');
    assert.deepEqual(codes(line), []);
    assert.deepEqual(silenced(line), ['3 training/context-exceeded inSource']);
    const wrongFile = analyze('train.yaml', ['# rope-lens: disable-file=rope/context-extended', ...TRAIN].join('\n') + '\n');
    assert.deepEqual(codes(wrongFile), ['3 training/context-exceeded']);
    const all = analyze('train.yaml', [...TRAIN, '# rope-lens: disable-file'].join('\n') + '\n');
    assert.deepEqual(codes(all), []);
    assert.deepEqual(silenced(all), ['2 training/context-exceeded inSource']);
  });

  it('Dockerfile and Modelfile comments', () => {
    const docker =
      [
        'FROM vllm/vllm-openai:v0.10.1',
        '# rope-lens: disable=vllm/removed-option',
        'CMD ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "65536", \\',
        '     "--rope-scaling", "{\\"rope_type\\":\\"yarn\\",\\"factor\\":2.0,\\"original_max_position_embeddings\\":32768}"]',
      ].join('\n') + '\n';
    const bare = analyze('Dockerfile', docker.replace(/^# rope-lens.*\n/m, ''));
    assert.ok(
      codes(bare).some((c) => c.endsWith('vllm/removed-option')),
      codes(bare).join(', '),
    );
    const d = analyze('Dockerfile', docker);
    assert.ok(!codes(d).some((c) => c.endsWith('vllm/removed-option')), codes(d).join(', '));
    assert.ok(silenced(d).some((c) => c.includes('vllm/removed-option inSource')));
    const modelfile =
      ['FROM qwen2.5:7b', '# rope-lens: disable=launch/removed-flag', 'PARAMETER rope_frequency_base 1000000', 'PARAMETER num_ctx 8192'].join('\n') + '\n';
    assert.ok(codes(analyze('Modelfile', modelfile.replace(/^# rope-lens.*\n/m, ''))).some((c) => c.endsWith('launch/removed-flag')));
    assert.ok(!codes(analyze('Modelfile', modelfile)).some((c) => c.endsWith('launch/removed-flag')));
  });

  it('unknown codes and unreadable directives are reported, and silence nothing', () => {
    const a = analyze('train.yaml', [TRAIN[0], '# rope-lens: disable=training/context-exceded', TRAIN[1], '# rope-lens: disabel=x'].join('\n') + '\n');
    assert.deepEqual(codes(a), ['3 training/context-exceeded']);
    assert.deepEqual(
      a.configProblems?.map((p) => p.line),
      [1, 3],
    );
    assert.match(said(a.configProblems![0]), /'training\/context-exceded' is no finding code/);
  });

  it('JSON has no comments: the project file silences its findings (external), and only the codes it names', () => {
    assert.deepEqual(
      codes(analyze('config.json', LLAMA_RAISED)).map((c) => c.split(' ')[1]),
      ['rope/context-extended'],
    );
    writeFileSync(join(dir, '.rope-lens.yaml'), 'disable: [rope/context-extended]\n');
    mkdirSync(join(dir, 'models', 'llama'), { recursive: true });
    const a = service.analyze(LLAMA_RAISED, { fileName: join(dir, 'models', 'llama', 'config.json') });
    assert.deepEqual(codes(a), []);
    assert.deepEqual(
      silenced(a).map((s) => s.split(' ').slice(1).join(' ')),
      ['rope/context-extended external'],
    );
    assert.equal(a.suppressed![0].justification, `${join(dir, '.rope-lens.yaml')}: disable rope/context-extended`);
    // Another code in the same tree is still reported.
    assert.deepEqual(codes(analyze('train.yaml', TRAIN.join('\n') + '\n')), ['2 training/context-exceeded']);
  });

  it('project file: enable keeps only the named groups; severity re-grades (code or group); ignore skips paths', () => {
    writeFileSync(join(dir, '.rope-lens.yaml'), 'enable: [launch]\n');
    assert.deepEqual(codes(analyze('train.yaml', TRAIN.join('\n') + '\n')), []);
    assert.equal(codes(analyze('serve.sh', TWO_COMMANDS[0] + '\n')).length, 1);

    writeFileSync(join(dir, '.rope-lens.yaml'), 'severity:\n  training/context-exceeded: error\n  launch: information\n');
    assert.equal(analyze('train.yaml', TRAIN.join('\n') + '\n').diagnostics[0].severity, 'error');
    assert.deepEqual([...new Set(analyze('serve.sh', TWO_COMMANDS[0] + '\n').diagnostics.map((d) => d.severity))], ['information']);
    // The user's own setting for a code wins over the project file's.
    const own = service.analyze(TRAIN.join('\n') + '\n', {
      fileName: join(dir, 'train.yaml'),
      settings: { severity: { 'training/context-exceeded': 'hint' } },
    });
    assert.equal(own.diagnostics[0].severity, 'hint');

    writeFileSync(join(dir, '.rope-lens.yaml'), 'ignore: [legacy/, "*.sh"]\n');
    mkdirSync(join(dir, 'legacy'));
    const ignored = service.analyze(TRAIN.join('\n') + '\n', { fileName: join(dir, 'legacy', 'train.yaml') });
    assert.deepEqual(codes(ignored), []);
    assert.match(ignored.ignoredBy!, /ignore legacy\/$/);
    assert.equal(analyze('serve.sh', TWO_COMMANDS[0] + '\n').ignoredBy?.endsWith('ignore *.sh'), true);
    assert.deepEqual(codes(analyze('train.yaml', TRAIN.join('\n') + '\n')), ['2 training/context-exceeded']);
  });

  it('project file: consumers count as pins (a Llama-3.1 config is refused by transformers 4.41: error)', () => {
    const cfg = JSON.stringify(
      {
        architectures: ['LlamaForCausalLM'],
        model_type: 'llama',
        hidden_size: 4096,
        num_attention_heads: 32,
        num_key_value_heads: 8,
        max_position_embeddings: 131072,
        rope_theta: 500000.0,
        rope_scaling: { rope_type: 'llama3', factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192 },
      },
      null,
      2,
    );
    const before = analyze('config.json', cfg).diagnostics.find((d) => d.code === 'consumer/refused');
    // No pin: an older release's refusal is a hint (the file's stamp is not its reader; issue 33).
    assert.equal(before?.severity, 'hint');
    writeFileSync(join(dir, '.rope-lens.yaml'), 'consumers: [transformers==4.41.0]\n');
    assert.equal(analyze('config.json', cfg).diagnostics.find((d) => d.code === 'consumer/refused')?.severity, 'error');
  });

  it('the project file is found upward, but not past the repository root; its problems are listed', () => {
    const outer = mkdtempSync(join(tmpdir(), 'rope-lens-outer-'));
    try {
      writeFileSync(join(outer, '.rope-lens.yaml'), 'disable: [training]\n');
      const repo = join(outer, 'repo');
      mkdirSync(join(repo, '.git'), { recursive: true });
      mkdirSync(join(repo, 'a', 'b'), { recursive: true });
      // Inside a repository without its own project file: the outer file does not apply.
      assert.deepEqual(codes(service.analyze(TRAIN.join('\n') + '\n', { fileName: join(repo, 'a', 'b', 'train.yaml') })), ['2 training/context-exceeded']);
      // Outside any repository, the folder above is searched.
      mkdirSync(join(outer, 'plain', 'x'), { recursive: true });
      assert.deepEqual(codes(service.analyze(TRAIN.join('\n') + '\n', { fileName: join(outer, 'plain', 'x', 'train.yaml') })), []);
      writeFileSync(join(repo, '.rope-lens.yaml'), 'disable: [training/context-exceded]\nseverity: {rope/base-below-bound: loud}\nfoo: 1\n');
      const a = service.analyze(TRAIN.join('\n') + '\n', { fileName: join(repo, 'a', 'b', 'train.yaml') });
      assert.deepEqual(codes(a), ['2 training/context-exceeded']);
      assert.equal(a.configProblems?.length, 3, JSON.stringify(a.configProblems));
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });

  it('globs: gitignore-like (a bare name at any depth, folders cover their contents, ** spans folders)', () => {
    const m = (g: string, p: string) => globToRegExp(g).test(p);
    assert.ok(m('*.json', 'a/b/config.json') && m('*.json', 'config.json'));
    assert.ok(m('legacy/', 'legacy/x/train.yaml') && !m('legacy/', 'new/legacy.yaml'));
    assert.ok(m('third_party/**', 'third_party/a/b.sh') && !m('third_party/**', 'src/third_party.sh'));
    assert.ok(m('models/**/config.json', 'models/config.json') && m('models/**/config.json', 'models/a/b/config.json'));
    assert.ok(!m('models/*.json', 'models/a/config.json') && m('models/*.json', 'models/config.json'));
    assert.deepEqual(parseProjectConfig('', '/r/.rope-lens.yaml').problems, []);
    assert.match(parseProjectConfig('- a\n', '/r/.rope-lens.yaml').problems[0], /expected a mapping/);
  });
});
