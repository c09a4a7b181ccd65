/**
 * What the trainers' current releases do with a YAML's RoPE settings on the transformers line
 * they run (trainerTransformers.ts):
 * llama-factory/fails-on-transformers-5: configure_rope writes a float max_position_embeddings
 *   and a rope_scaling dict without rope_theta; transformers 5 refuses both.
 * llama-factory/inference-factor (information): chat/api/webchat/export scale by 2.0.
 * llama-factory/vllm-rope-scaling (error): get_infer_args refuses rope_scaling with infer_backend vllm.
 * axolotl/theta-ignored: on transformers 5 a `model_config.rope_theta` alone never reaches the model.
 * axolotl/override-fails (error): on transformers 5 a scaling dict without rope_theta, with the
 *   legacy `type` key, or `rope_scaling: null` fails when the model is built.
 * torchtune/beyond-max-seq-len (error): a sequence longer than the model builder's max_seq_len
 *   raises ValueError in TransformerDecoder._validate_inputs (torchtuneLimit.ts).
 */
import type { Finding, Severity } from '../core/findings';
import { Rule, finding, fmt, keyRangeOf, pathTo, rangeFor } from './context';
import type { RuleContext } from './context';
import { llamaFactoryRopePlan } from '../config/trainers/llamaFactoryRope';
import { type AxolotlOverrideOutcome, axolotlOverrideOutcomes, rope5Parameters } from '../config/trainers/axolotlOverrides';
import { trainerTransformersLine } from './trainerTransformers';
import { torchtuneMaxSeqLen } from '../config/trainers/torchtuneLimit';
import type { PlainObject } from '../fixes/render';

export const LF_FAILS_ON_5 = 'llama-factory/fails-on-transformers-5';
export const LF_INFERENCE_FACTOR = 'llama-factory/inference-factor';
export const LF_VLLM_SCALING = 'llama-factory/vllm-rope-scaling';
export const AXOLOTL_THETA_IGNORED = 'axolotl/theta-ignored';
export const AXOLOTL_OVERRIDE_FAILS = 'axolotl/override-fails';
export const TORCHTUNE_BEYOND_MAX = 'torchtune/beyond-max-seq-len';

export const trainerRuntimeRule: Rule = {
  codes: [LF_FAILS_ON_5, LF_INFERENCE_FACTOR, LF_VLLM_SCALING, AXOLOTL_THETA_IGNORED, AXOLOTL_OVERRIDE_FAILS, TORCHTUNE_BEYOND_MAX],
  check(ctx) {
    const t = ctx.training;
    if (!t) return [];
    if (t.tool === 'llama-factory') return llamaFactory(ctx);
    if (t.tool === 'axolotl') return axolotl(ctx);
    if (t.tool === 'torchtune') return torchtune(ctx);
    return [];
  },
};

function llamaFactory(ctx: RuleContext): Finding[] {
  const t = ctx.training!;
  const byName = t.scalingByName;
  if (!byName) return [];
  const out: Finding[] = [];
  const range = rangeFor(ctx.doc, byName);
  if (t.inference && t.backendRefusesScaling) {
    out.push(
      finding(
        LF_VLLM_SCALING,
        'error',
        'LLaMA-Factory refuses this config: "vLLM engine does not support RoPE scaling."',
        range,
        [{ title: 'Remove rope_scaling', kind: 'other', preferred: true, edits: ctx.editor.remove(t.scalingKeyPath ?? ['rope_scaling']) }],
        "get_infer_args raises ValueError when infer_backend is vllm and rope_scaling is set; vLLM reads the scaling from the model's config.json instead.",
      ),
    );
    return out;
  }
  const plan = llamaFactoryRopePlan(t, ctx.resolved?.rope);
  if (plan.kind !== 'applied') return out;
  if (plan.mode === 'inference') {
    out.push(
      finding(
        LF_INFERENCE_FACTOR,
        'information',
        `LLaMA-Factory will run this model with ${byName.value} scaling of factor 2.0 over ${fmt(plan.old)}, covering ${fmt(plan.newContext)} tokens.`,
        range,
        [],
        `Outside training (chat, api, webchat, export) model_max_length is unset and configure_rope uses factor 2.0, whatever cutoff_len a fine-tune used; ${fmt(plan.old)} is the model's ${plan.oldFrom}.`,
      ),
    );
  }
  const line = trainerTransformersLine('llama-factory', ctx.pins);
  if (line.line === 5) {
    const severity: Severity = line.pin ? 'error' : 'warning';
    out.push(
      finding(
        LF_FAILS_ON_5,
        severity,
        `On transformers 5.x this rope_scaling fails at load: max_position_embeddings becomes the float ${fmt(plan.newContext)}.0.`,
        range,
        [],
        `LLaMA-Factory sets max_position_embeddings to the float ${fmt(plan.newContext)}.0 and drops rope_theta: configure_rope assigns max_position_embeddings = ${fmt(plan.old)} × ${plan.factor}.0, which transformers 5's config validation refuses (expected int, got float), and replaces rope_scaling with a dict that has no rope_theta, so the rotary embedding has no base (TypeError). ` +
          `It counts here because ${line.why}. It works on transformers 4.x: pin transformers>=4.55.0,<5 (LLaMA-Factory excludes 4.57.0).`,
      ),
    );
  }
  return out;
}

function axolotl(ctx: RuleContext): Finding[] {
  const t = ctx.training!;
  const line = trainerTransformersLine('axolotl', ctx.pins);
  const out: Finding[] = [];
  for (const o of axolotlOverrideOutcomes(t, line.line, ctx.resolved?.rope)) out.push(axolotlFinding(ctx, o, line.why, !!line.pin));
  return out;
}

/** The model's own base, as a plain number for a fix. */
function modelBase(ctx: RuleContext): number | undefined {
  const b = ctx.resolved?.rope.base.value;
  return b !== undefined && Number.isFinite(b) ? b : undefined;
}

function axolotlFinding(ctx: RuleContext, o: AxolotlOverrideOutcome, why: string, pinned: boolean): Finding {
  const t = ctx.training!;
  const block = t.overridePath ?? ['overrides_of_model_config'];
  const base = modelBase(ctx);
  const counts = `It counts here because ${why}; on transformers 4.x the override is applied as written.`;
  if (o.kind === 'theta-ignored') {
    const params: PlainObject = rope5Parameters(ctx.resolved?.rope, o.value);
    const fix = {
      title: `Also write rope_theta ${fmt(o.value)} into ${block.join('.')}.rope_parameters (transformers 5)`,
      kind: 'other' as const,
      preferred: true,
      edits: ctx.editor.set([...block, 'rope_parameters'], params),
    };
    return finding(
      AXOLOTL_THETA_IGNORED,
      pinned ? 'error' : 'warning',
      `On transformers 5.x this rope_theta never reaches the model: training runs at the model's own base${base !== undefined ? ` ${fmt(base)}` : ''}.`,
      keyRangeOf(ctx.doc, o.node),
      [fix],
      `axolotl sets it with setattr on the loaded config; transformers 5 reads the base from rope_parameters, which already holds the model's own rope_theta. ${counts}`,
    );
  }
  const path = [...block, o.kind === 'cleared' ? 'rope_scaling' : 'key' in o ? o.key.split('.').pop()! : 'rope_scaling'];
  const fixes: Finding['fixes'] = [];
  let message: string;
  let detail: string;
  if (o.kind === 'cleared') {
    message = 'On transformers 5.x `rope_scaling: null` fails when the model is built: the rope parameters become None.';
    detail = 'axolotl sets it with setattr; transformers 5 keeps the base inside rope_parameters, which null replaces (TypeError).';
    if (base !== undefined)
      fixes.push({
        title: `Write rope_parameters {rope_type: default, rope_theta: ${fmt(base)}} instead`,
        kind: 'other',
        preferred: true,
        edits: [...ctx.editor.remove(path), ...ctx.editor.set([...block, 'rope_parameters'], { rope_type: 'default', rope_theta: base })],
      });
  } else if (o.kind === 'legacy-type') {
    message = `On transformers 5.x this ${o.key} fails when built: it has \`type\` but lacks \`rope_type\`.`;
    detail =
      'It has `type` but no `rope_type`: axolotl sets the dict with setattr after the config is read, so transformers 5 never renames the legacy `type` key.';
    const type = String(t.overrides.scaling?.rawType?.value ?? '');
    const entries: PlainObject = { rope_type: type };
    if (base !== undefined && t.overrides.base === undefined) entries.rope_theta = base;
    fixes.push({
      title: `Write rope_type: ${type}${entries.rope_theta !== undefined ? ` and rope_theta: ${fmt(base!)}` : ''}`,
      kind: 'other',
      preferred: true,
      edits: ctx.editor.mergeObject(path, entries, ['type']),
    });
  } else {
    message = `On transformers 5.x this ${o.key} fails when the model is built: it has no rope_theta.`;
    detail = `Without rope_theta the rotary embedding has no base: axolotl sets it with setattr; in transformers 5 it replaces rope_parameters whole, the model's rope_theta${base !== undefined ? ` ${fmt(base)}` : ''} included (TypeError).`;
    if (base !== undefined)
      fixes.push({
        title: `Keep the model's rope_theta ${fmt(base)} in ${o.key}`,
        kind: 'other',
        preferred: true,
        edits: ctx.editor.mergeObject(path, { rope_theta: base }, []),
      });
  }
  return finding(AXOLOTL_OVERRIDE_FAILS, 'error', message, keyRangeOf(ctx.doc, o.node), fixes, `${detail} ${counts}`);
}

function torchtune(ctx: RuleContext): Finding[] {
  const t = ctx.training!;
  const limit = torchtuneMaxSeqLen(t, ctx.effective);
  const seq = t.sequenceLength;
  if (limit === undefined || !seq?.node || seq.value <= limit) return [];
  return [
    finding(
      TORCHTUNE_BEYOND_MAX,
      'error',
      `torchtune stops at the first sequence longer than ${fmt(limit)}: the model builder's max_seq_len is ${fmt(limit)}, not ${fmt(seq.value)}.`,
      rangeFor(ctx.doc, seq),
      [{ title: `Set ${seq.key ?? 'max_seq_len'} to ${limit}`, kind: 'other', preferred: true, edits: ctx.editor.set(pathTo(seq.node), limit) }],
      'TransformerDecoder raises ValueError "seq_len (…) of input tensor should be smaller than max_seq_len" (with packing, on the first batch). Its RoPE cache is built for max_seq_len positions only; the named builders fix it to the model\'s context and take no max_seq_len argument.',
    ),
  ];
}
