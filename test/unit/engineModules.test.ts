/**
 * "A sixth engine is one module": every registered engine implements the whole Engine interface,
 * the rules never branch on an engine's name and reach engine modules only through the registry,
 * and a stand-in engine registered at run time is read, judged and fixed by the common rules.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type ImportEdge, importsOf, tsFiles } from '../architecture/imports';
import { ENGINES, registerEngine } from '../../shared/serving/engines';
import type { Engine } from '../../shared/serving/engines';
import type { EngineName, ServingInput } from '../../shared/serving/types';
import { readArgv, lastUse, programName } from '../../shared/serving/argv';
import { withScaling, scalingWords } from '../../shared/serving/launchModel';
import { scalingFacts } from '../../shared/serving/common';
import type { LaunchRequest } from '../../shared/launch/request';
import { shellFileOf } from './helpers/invocation';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { said } from './helpers/findingText';

/** Imports that reach an engine module directly (`from → target`). */
function importsOfEngineModules(edges: readonly ImportEdge[], engineFiles: ReadonlySet<string>): string[] {
  return edges.filter((e) => e.target && engineFiles.has(e.target)).map((e) => `${e.from} → ${e.target}`);
}

/** Engine names as code compares them: the registry's ids and the program names people write. */
const ENGINE_WORDS = [...ENGINES.map((e) => e.id), 'llamacpp', 'llama-server', 'llama-cli', 'text-generation-launcher', 'sgl', 'vllm-openai'];

/** Lines of `text` that compare something with an engine's name (`=== 'vllm'`, `case 'tgi':`, `['vllm', 'sglang'].includes(`). */
export function engineNameComparisons(text: string): string[] {
  const words = ENGINE_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const lit = `['"\`](?:${words})['"\`]`;
  const re = new RegExp(`[!=]==?\\s*${lit}|${lit}\\s*[!=]==?|case\\s+${lit}|\\[\\s*${lit}[^\\]]*\\]\\s*\\.includes\\(`, 'i');
  return text.split('\n').filter((l) => re.test(l) && !/^\s*(\*|\/\/)/.test(l));
}

describe('engine modules: a sixth engine is one module', () => {
  it('every registered engine implements the whole interface, with a unique id and label', () => {
    assert.ok(ENGINES.length >= 5);
    assert.equal(new Set(ENGINES.map((e) => e.id)).size, ENGINES.length);
    assert.equal(new Set(ENGINES.map((e) => e.label)).size, ENGINES.length);
    for (const e of ENGINES) {
      for (const m of ['readArgv', 'effect', 'plan', 'honoursWindows'] as const) assert.equal(typeof e[m], 'function', `${e.id}.${m}`);
      assert.ok(e.env instanceof RegExp, `${e.id}.env`);
      assert.equal(typeof e.overLengthText === 'function' || e.ownCodes === true, true, `${e.id} says what it does above its derived length`);
      // How a scaling reaches the engine: an override object, its own flags, or a sentence saying it has none.
      assert.ok(e.override || e.scalingFlags || e.noScalingOption, `${e.id} says how a scaling is given`);
      if (e.scalingFlags) {
        const yarn = e.scalingFlags.write({ type: 'yarn', factor: 4, original: 32768 });
        const linear = e.scalingFlags.write({ type: 'linear', factor: 4 });
        assert.ok(yarn || linear, `${e.id}'s flag writer writes some scaling`);
        for (const opts of [yarn, linear]) for (const o of opts ?? []) assert.match(o.flag, /^-/, `${e.id}: ${o.flag}`);
      }
    }
  });

  it('no module under shared/rules/ compares with an engine name (the checker catches one)', () => {
    const bad = tsFiles('shared/rules').flatMap((f) => engineNameComparisons(readFileSync(join(ROOT, f), 'utf8')).map((l) => `${f}: ${l.trim()}`));
    assert.deepEqual(bad, []);
    assert.equal(engineNameComparisons(`if (ctx.engine === 'vllm') {`).length, 1);
    assert.equal(engineNameComparisons(`  case 'llama.cpp': {`).length, 1);
    assert.equal(engineNameComparisons(`const x = 'sglang' !== engine;`).length, 1);
    assert.equal(engineNameComparisons(`if (['tgi', 'ollama'].includes(e)) {`).length, 1);
    assert.equal(engineNameComparisons(`const how = engine.replacesScaling; // unlike 'vllm'`).length, 0);
  });

  it('rules reach engine modules only through the registry, with no exception (the checker catches one)', () => {
    // An engine module is a serving/ file that exports an Engine object.
    const engineFiles = new Set(tsFiles('shared/serving').filter((f) => /:\s*Engine\s*=\s*\{/.test(readFileSync(join(ROOT, f), 'utf8'))));
    assert.ok(engineFiles.size >= 5, [...engineFiles].join(', '));
    assert.ok(engineFiles.has('shared/serving/vllm.ts') && engineFiles.has('shared/serving/sglang.ts'));
    assert.deepEqual(importsOfEngineModules(tsFiles('shared/rules').flatMap(importsOf), engineFiles), []);
    // vLLM's own-code judge (rules/launch/vllmLength.ts) once imported serving/vllm.ts directly: that edge fails now.
    const direct = { from: 'shared/rules/launch/vllmLength.ts', spec: '../../serving/vllm', target: 'shared/serving/vllm.ts' };
    const viaEngine = { from: 'shared/rules/launch/vllmLength.ts', spec: '../../serving/engine', target: 'shared/serving/engine.ts' };
    assert.deepEqual(importsOfEngineModules([direct, viaEngine], engineFiles), ['shared/rules/launch/vllmLength.ts → shared/serving/vllm.ts']);
  });

  it('an engine judged under its own codes, or fixed through an override, carries its length rule', () => {
    for (const e of ENGINES) {
      if (e.ownCodes) assert.ok(e.lengthPolicy && e.longEnv, `${e.id}: ownCodes needs lengthPolicy and longEnv`);
      if (e.override) assert.ok(e.lengthPolicy, `${e.id}: an override's fixes are checked against its lengthPolicy`);
      const p = e.lengthPolicy;
      if (!p) continue;
      assert.ok(p.keys.length > 0, `${e.id}.lengthPolicy.keys`);
      // The values it writes to raise the length do raise the length it starts from: Qwen-1's config
      // (catalog Qwen/Qwen-7B) writes seq_length 8192 and max_position_embeddings 32768.
      const rope = catalogResolver.resolve(['Qwen/Qwen-7B'], '/tmp/serve.sh')!.rope;
      const qwen1: ServingInput = { rope, trainedContext: 8192, contextKeys: { seq_length: 8192, max_position_embeddings: 32768 } };
      assert.equal(p.base(qwen1).value, 8192, `${e.id} starts Qwen-1 from seq_length`);
      const raised = { ...qwen1, contextKeys: { ...qwen1.contextKeys, ...p.lengthValues(qwen1, 65536) } };
      assert.equal(p.base(raised).value, 65536, `${e.id}: ${JSON.stringify(p.lengthValues(qwen1, 65536))}`);
    }
  });
});

/**
 * A stand-in sixth engine, written as an engine module would be: `toyserve --model M --ctx N`,
 * with YaRN or linear scaling as `--scale-type yarn --scale F --orig T`. It derives
 * max_position_embeddings × factor and refuses a longer length, as vLLM does.
 */
const TOY_SPECS = [
  { name: 'model', flags: ['--model'], takesValue: true },
  { name: 'ctx', flags: ['--ctx'], takesValue: true },
  { name: 'scale-type', flags: ['--scale-type'], takesValue: true },
  { name: 'scale', flags: ['--scale'], takesValue: true },
  { name: 'orig', flags: ['--orig'], takesValue: true },
];
const toyEngine: Engine = {
  id: 'toyserve' as EngineName,
  label: 'ToyServe',
  readArgv(inv) {
    if (programName(inv.argv[0]) !== 'toyserve') return undefined;
    const r = readArgv(inv.argv, 1, TOY_SPECS, { equals: true, underscores: false });
    const req: LaunchRequest = { program: 'toyserve', role: 'serving', invocation: inv, rope: {}, problems: [], notes: [] };
    const model = lastUse(r, 'model');
    if (model?.value) req.model = model.value;
    const ctx = lastUse(r, 'ctx');
    if (ctx?.value && /^\d+$/.test(ctx.value.value)) req.length = { value: Number(ctx.value.value), option: ctx };
    for (const n of ['scale-type', 'scale', 'orig']) {
      const u = lastUse(r, n);
      if (u) req.rope[n] = u;
    }
    return req;
  },
  effect(req, input) {
    let rope = input.rope,
      facts = scalingFacts(rope);
    const type = req.rope['scale-type']?.value?.value;
    const factor = Number(req.rope['scale']?.value?.value ?? 1);
    if (type === 'yarn' || type === 'linear') {
      const params: Record<string, unknown> = { rope_type: type, factor };
      if (type === 'yarn') params['original_max_position_embeddings'] = Number(req.rope['orig']?.value?.value ?? input.trainedContext);
      ({ rope, facts } = withScaling(rope, params, 'command line'));
    }
    const derived = Math.floor(input.rope.contextLength.value * (facts.factor ?? 1));
    return {
      rope,
      facts,
      derived,
      basis: facts.type === 'none' ? 'max_position_embeddings' : scalingWords(facts),
      scalingFromCommand: !!type,
      replacesModelScaling: !!type && scalingFacts(input.rope).type !== 'none',
      notes: [],
      overLength: 'refuses',
    };
  },
  plan: (input) => ({
    engine: 'toyserve' as EngineName,
    derivedMaxLen: input.rope.contextLength.value,
    context: input.context ?? input.trainedContext,
    args: ['toyserve'],
    env: {},
    overrides: null,
    notes: [],
  }),
  env: /^TOYSERVE_/,
  scalingFlags: {
    write: (s) =>
      s.type === 'yarn'
        ? [
            { name: 'scale-type', flag: '--scale-type', value: 'yarn' },
            { name: 'scale', flag: '--scale', value: String(s.factor) },
            { name: 'orig', flag: '--orig', value: String(s.original) },
          ]
        : s.type === 'linear'
          ? [
              { name: 'scale-type', flag: '--scale-type', value: 'linear' },
              { name: 'scale', flag: '--scale', value: String(s.factor) },
            ]
          : undefined,
    typeOption: 'scale-type',
    scales: [{ name: 'scale' }],
    originalOption: 'orig',
  },
  replacesScaling: "the flags replace the model's rope_scaling",
  honoursWindows: () => true,
  overLengthText: (w) => `${w.label} ${w.length} is above the ${w.derived} ToyServe derives from ${w.model}: ToyServe refuses to start.`,
};

describe('engine modules: a stand-in sixth engine, judged by the common rules with no rule change', () => {
  const oracle = createSyncOracle();
  const opts = { fileName: '/tmp/launch/serve.sh', resolver: catalogResolver, oracle, variant: 'v5' as const };
  const analyze = (text: string) => analyzeLaunchFile(shellFileOf(text), text, { ...opts, reparse: (t) => shellFileOf(t) });
  let unregister: () => void = () => undefined;
  before(() => {
    unregister = registerEngine(toyEngine);
  });
  after(() => unregister());

  it('a registered id cannot be registered twice', () => {
    assert.throws(() => registerEngine(toyEngine), /already registered/);
  });

  it('its argv is read, its length verdict is judged, and its own flags fix it', () => {
    const text = 'toyserve --model Qwen/Qwen2.5-7B-Instruct --ctx 65536\n';
    const a = analyze(text);
    assert.equal(a.launches.length, 1);
    assert.equal(a.launches[0].derivedMaxLen, 32768);
    assert.equal(a.launches[0].trainedContext, 32768);
    const d = a.diagnostics.filter((x) => x.code === 'launch/length-exceeds-derived');
    assert.equal(d.length, 1, JSON.stringify(a.diagnostics.map((x) => [x.code, x.message])));
    assert.equal(d[0].severity, 'error');
    assert.match(said(d[0]), /ToyServe refuses to start/);
    // The preferred fix is the advice's (Qwen's documented YaRN ×4 over 32,768), through the engine's writer.
    const preferred = d[0].fixes.find((f) => f.preferred);
    assert.match(
      preferred?.title ?? '',
      /^Add YaRN flags as Qwen's .* documents them: --scale-type yarn --scale 4 --orig 32768\b/,
      JSON.stringify(d[0].fixes.map((f) => f.title)),
    );
    const yarn = d[0].fixes.find((f) => f.kind === 'yarn' && !f.rewrite?.recipe);
    assert.ok(yarn, JSON.stringify(d[0].fixes.map((f) => f.title)));
    // The title is the writer's own words, with the bound's verdict after them.
    assert.match(yarn!.title, /^Add YaRN flags: --scale-type yarn --scale 2 --orig 32768\b/);
    const fixed = applyTextEdits(text, new LineIndex(text), yarn!.edits);
    assert.equal(fixed, 'toyserve --model Qwen/Qwen2.5-7B-Instruct --ctx 65536 --scale-type yarn --scale 2 --orig 32768\n');
    assert.deepEqual(
      analyze(fixed).diagnostics.map((x) => [x.code, x.message]),
      [],
    );
  });

  it('a scaling it sets that falls short is a launch/scaling-mismatch, fixed through its writer', () => {
    const text = 'toyserve --model Qwen/Qwen2.5-7B-Instruct --ctx 65536 --scale-type yarn --scale 2 --orig 16384\n';
    const d = analyze(text).diagnostics.filter((x) => x.code === 'launch/scaling-mismatch');
    assert.equal(d.length, 1);
    assert.equal(d[0].fixes[0].title, 'Set --scale 2 --orig 32768');
    const fixed = applyTextEdits(text, new LineIndex(text), d[0].fixes[0].edits);
    assert.equal(fixed, 'toyserve --model Qwen/Qwen2.5-7B-Instruct --ctx 65536 --scale-type yarn --scale 2 --orig 32768\n');
  });

  it("an unknown model is not judged, said in the engine's own name", () => {
    const a = analyze('toyserve --model nobody/NoSuchModel-7B --ctx 65536\n');
    assert.deepEqual(a.diagnostics, []);
    assert.match(a.launches[0].unjudged ?? '', /the length ToyServe derives/);
  });
});
