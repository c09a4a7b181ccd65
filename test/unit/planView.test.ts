/**
 * The plan view's data and page protocol: what the server hands the webview (planViewData), the
 * messages and state the page may send (validated), the embedded payload, and the input boxes'
 * length parsing (the editor and the CLI accept the same spellings).
 */
import { strict as assert } from 'node:assert';
import { buildPlan } from '../../shared/planner/plan';
import { loadPlanModel } from '../../shared/planner/modelSource';
import { catalogResolver, type FileReader } from '../../shared/config/resolve';
import { planViewData, settingText } from '../../shared/inspector/planView';
import { parsePageMessage, parsePlanRequest, parseState } from '../../shared/inspector/messages';
import { renderInspectorHtml } from '../../shared/inspector/html';
import { parseContextLength, parseStageList, stagesProblem, targetProblem } from '../../shared/planner/lengthInput';

const noFiles: FileReader = { readText: () => undefined, listDir: () => undefined };

describe('plan view data (server → webview)', () => {
  const model = loadPlanModel('meta-llama/Meta-Llama-3-8B', noFiles, catalogResolver);
  const plan = buildPlan(model, { target: 262144, stages: [65536] });
  const request = { target: 262144, stages: [65536] };

  it('one row per option, the recommended one marked, cells formatted as the CLI prints them', () => {
    const v = planViewData(plan, { label: 'run/train.yaml', uri: 'file:///ws/run/train.yaml', request });
    assert.equal(v.stages.length, 2);
    v.stages.forEach((s, k) => {
      const p = plan.stages[k];
      assert.equal(s.rows.length, p.options.length);
      assert.deepEqual(
        s.rows.filter((r) => r.recommended).map((r) => r.method),
        p.recommended ? [p.recommended] : [],
      );
      assert.equal(s.recommendedLabel, p.options.find((o) => o.method === p.recommended)?.label ?? null);
      s.rows.forEach((r, i) => {
        const o = p.options[i];
        assert.equal(r.bound, o.meetsBound ? 'meets' : `holds to ${o.lmax.toLocaleString('en-US')}`);
        assert.deepEqual(r.wavelengths, o.wavelengths);
        assert.equal(r.tags.includes('inference only'), !o.trainable);
      });
    });
    // A plan offers a robust base only where its ±10% neighbourhood is proven: on the CPU up to 131,072 tokens
    // (stage 1, 65,536), and past that from the proven table, which holds 262,144 at rotary dim 128 (issue 42).
    assert.ok(v.stages[0].rows.some((r) => r.method === 'robust-base'));
    assert.ok(v.stages[1].rows.some((r) => r.method === 'robust-base'));
    const yarn = v.stages[1].rows.find((r) => r.method === 'yarn')!;
    assert.equal(yarn.setting, 'factor 32, original 8192');
    assert.equal(settingText(plan.stages[0].options.find((o) => o.method === 'as-shipped')!), 'as configured');
  });

  it('the trained wavelengths are 2π/θᵢ of the unscaled base (first pair 2π, last 2π·b^((d−2)/d))', () => {
    const v = planViewData(plan, { label: 'x', uri: 'file:///x', request });
    assert.equal(v.dims.length, 64);
    assert.equal(v.trainedWavelengths.length, 64);
    assert.ok(Math.abs(v.trainedWavelengths[0] - 2 * Math.PI) < 1e-12);
    const last = 2 * Math.PI * Math.pow(500000, 126 / 128);
    assert.ok(Math.abs(v.trainedWavelengths[63] - last) / last < 1e-12);
  });

  it("a stage is writable only where the file's trainer has a snippet for it", () => {
    const none = planViewData(plan, { label: 'a/config.json', uri: 'file:///a/config.json', request });
    assert.equal(none.writeTarget, undefined);
    assert.ok(none.stages.every((s) => !s.writable));
    for (const trainer of ['axolotl', 'llama-factory', 'torchtune'] as const) {
      const v = planViewData(plan, { label: 'run/train.yaml', uri: 'file:///ws/run/train.yaml', request, trainer });
      assert.deepEqual(v.writeTarget, { trainer, fileLabel: 'train.yaml' });
      v.stages.forEach((s, k) => assert.equal(s.writable, plan.stages[k].snippets[trainer] !== undefined, `${trainer} stage ${k}`));
    }
    // A trainer without a snippet: Llama-3-8B with no builder arguments known has none for torchtune.
    const bare = buildPlan({ ...model, config: undefined }, { target: 65536 });
    const v = planViewData(bare, { label: 'x.yaml', uri: 'file:///x.yaml', request: { target: 65536 }, trainer: 'torchtune' });
    assert.equal(v.stages[0].writable, false);
    assert.match(v.stages[0].snippets.find((s) => s.trainer === 'torchtune')!.note!, /needs vocab_size/);
  });

  it('the page payload embeds the plan so that no label can close the script element', () => {
    const v = planViewData(plan, { label: 'evil</script><script>alert(1)</script>.yaml', uri: 'file:///e.yaml', request });
    const html = renderInspectorHtml({ script: { src: 'x.js' }, style: { href: 'x.css' } }, { nonce: 'abc', title: 't', plan: v, standalone: false });
    assert.equal((html.match(/<\/script>/g) ?? []).length, 2, 'only the payload and the bundle close a script');
    const json = /<script type="application\/json" id="rope-lens-data">(.*?)<\/script>/s.exec(html)![1];
    assert.equal(JSON.parse(json).plan.source.label, v.source.label);
  });
});

describe('plan view page protocol', () => {
  it('plan-write carries a stage index, nothing else', () => {
    assert.deepEqual(parsePageMessage({ type: 'plan-write', stage: 1 }), { ok: true, value: { type: 'plan-write', stage: 1 } });
    for (const bad of [
      { type: 'plan-write', stage: -1 },
      { type: 'plan-write', stage: 0.5 },
      { type: 'plan-write', stage: '0' },
      { type: 'plan-write', stage: 0, extra: 1 },
      { type: 'plan-write', stage: 99 },
    ]) {
      assert.equal(parsePageMessage(bad).ok, false, JSON.stringify(bad));
    }
  });

  it('state keeps the plan view and its request across a reload; invalid parts are dropped', () => {
    const s = parseState({ uri: 'file:///a.yaml', view: 'plan', plan: { target: 65536, stages: [32768] } });
    assert.deepEqual(s, { uri: 'file:///a.yaml', view: 'plan', plan: { target: 65536, stages: [32768] } });
    assert.deepEqual(parseState({ uri: 'file:///a.yaml', view: 'plan' }), { uri: 'file:///a.yaml' }, 'no plan request: no plan view');
    assert.deepEqual(parseState({ uri: 'file:///a.yaml', view: 'plan', plan: { target: 'big' } }), { uri: 'file:///a.yaml' });
    assert.equal(parsePlanRequest({ target: 65536, stages: [1.5] }).ok, false);
    assert.equal(parsePlanRequest({ target: 65536, extra: true }).ok, false);
  });
});

describe('plan lengths as typed', () => {
  it('131072, 131_072, 131,072 and 128k are the same length; 1m is 2²⁰', () => {
    for (const t of ['131072', '131_072', '131,072', '128k', ' 128K ']) assert.deepEqual(parseContextLength(t), { ok: true, value: 131072 }, t);
    assert.deepEqual(parseContextLength('1m'), { ok: true, value: 1048576 });
    for (const t of ['', 'abc', '12.5k', '-4', '0']) assert.equal(parseContextLength(t).ok, false, t);
    assert.deepEqual(parseStageList('32k, 65536'), { ok: true, value: [32768, 65536] });
    assert.deepEqual(parseStageList(''), { ok: true, value: [] });
  });

  it('the input boxes refuse a target at or below the trained context and stages out of order', () => {
    assert.equal(targetProblem('128k', 8192), undefined);
    assert.match(targetProblem('8192', 8192)!, /does not exceed the trained context 8,192/);
    assert.match(targetProblem('lots', 8192)!, /not a length/);
    assert.match(targetProblem(String(2 ** 25), 8192)!, /beyond the longest length/);
    assert.equal(stagesProblem('', 8192, 131072), undefined);
    assert.equal(stagesProblem('32k, 64k', 8192, 131072), undefined);
    assert.match(stagesProblem('64k, 32k', 8192, 131072)!, /must increase/);
    assert.match(stagesProblem('128k', 8192, 131072)!, /shorter than the target/);
  });
});
