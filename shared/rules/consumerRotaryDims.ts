/**
 * consumer/rotary-dims-differ: consumers that load this file rotate different numbers of each
 * head's dimensions, because the config states the rotated part in a key only some of them read.
 * MiniMax-M2.5 writes `rotary_dim: 64` with `head_dim: 128`: vLLM rotates 64 (its MiniMaxM2Attention
 * takes config.rotary_dim), transformers 5.x's minimax_m2 class rotates all 128 (it reads only
 * rope_parameters["partial_rotary_factor"]). A model run with the wrong channels rotated produces
 * garbage past the first tokens, with no error. Warning; no fix (where each reader looks differs by
 * class), the message says which key every reader takes.
 */
import type { Finding } from '../core/findings';
import type { ConsumerReading } from '../serving/consumer';
import { rotaryDimDiffers } from '../serving/consumers';
import { Rule, finding, rangeFor } from './context';
import { transformers5RotaryDim } from '../config/modelConfig';

export const ROTARY_DIMS_DIFFER = 'consumer/rotary-dims-differ';

function names(rs: ConsumerReading[]): string {
  return rs.map((r) => r.label).join(', ');
}

export const consumerRotaryDimsRule: Rule = {
  codes: [ROTARY_DIMS_DIFFER],
  check(ctx) {
    const rope = ctx.model;
    if (ctx.fileKind !== 'model-config' || !rope || !ctx.consumers?.length) return [];
    const wrong = ctx.consumers.filter(rotaryDimDiffers);
    if (!wrong.length) return [];
    const stated = rope.rotaryDim;
    // No channel stated to rotate is an invalid value with its own finding (rope/partial-rotary-range
    // or rope/invalid-value); which readers ignore it is no second finding on the same key.
    if (!(stated.value > 0)) return [];
    const right = ctx.consumers.filter((r) => r.rotaryDim !== undefined && !rotaryDimDiffers(r) && (r.status === 'reads' || r.status === 'refuses'));
    const byCount = new Map<number, ConsumerReading[]>();
    for (const r of wrong) byCount.set(r.rotaryDim!, [...(byCount.get(r.rotaryDim!) ?? []), r]);
    const clauses = [...byCount].map(([n, rs]) => `${names(rs)} rotate${rs.length === 1 ? 's' : ''} ${n} of ${rope.headDim.value} dimensions of each head`);
    const agree = right.length
      ? `; ${names(right)} rotate${right.length === 1 ? 's' : ''} ${stated.value} as the file states (${stated.key ?? stated.note ?? 'rotary dimension'})`
      : '';
    // Why 5.x rotates the whole head, and (when the file states rotary_dim) the key 5.x does read.
    const v5 = wrong.find((r) => r.consumer === 'transformers-5');
    const why = v5 ? transformers5RotaryDim(rope, stated).note : undefined;
    const fromRotaryDim = stated.key?.split('.').pop() === 'rotary_dim';
    const advice =
      (why ? ` ${why[0].toUpperCase()}${why.slice(1)}.` : '') +
      (v5 && fromRotaryDim
        ? ` Stating "partial_rotary_factor": ${+(stated.value / rope.headDim.value).toFixed(6)} in rope_parameters would make it rotate ${stated.value} as well (5.x reads the factor there).`
        : '');
    const one = byCount.size === 1 ? [...byCount][0] : undefined;
    const named = one && `${names(one[1])} rotate${one[1].length === 1 ? 's' : ''} ${one[0]} dimensions of each head, not the ${stated.value} the file states.`;
    const message = named && named.length <= 120 ? named : `Readers rotate other parts of each head than the ${stated.value} dimensions the file states.`;
    const detail = `Consumers rotate different parts of each head: ${clauses.join('; ')}${agree}. A reader that rotates other channels than the checkpoint was trained with (the file states ${stated.value}) runs it with positions encoded on the wrong channels, without an error.${advice}`;
    const out: Finding[] = [finding(ROTARY_DIMS_DIFFER, 'warning', message, rangeFor(ctx.doc, stated), [], detail)];
    return out;
  },
};
