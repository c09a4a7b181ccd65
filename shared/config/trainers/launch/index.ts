/**
 * Trainer command lines → training configs: which trainer an invocation starts (launchers.ts),
 * then that trainer's own grammar (one module each). The YAML a command names is not read here:
 * it is judged when opened, and the command's overrides are judged on their own.
 */
import type { Invocation } from '../../../launch/types';
import type { LineIndex } from '../../../document/positions';
import { recognise, TrainerProgram, Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { readLlamaFactoryLaunch } from './llamaFactory';
import { readSwiftLaunch } from './swift';
import { readAxolotlLaunch } from './axolotl';
import { readTorchtuneLaunch } from './torchtune';
import { readLitGptLaunch } from './litgpt';
import { readVerlLaunch } from './verl';
import { readGenericLaunch } from './generic';

type Reader = (l: Launched, inv: Invocation, lines: LineIndex) => TrainerLaunch | undefined;

const READERS: Record<TrainerProgram, Reader> = {
  llamafactory: readLlamaFactoryLaunch,
  swift: readSwiftLaunch,
  axolotl: readAxolotlLaunch,
  torchtune: readTorchtuneLaunch,
  litgpt: readLitGptLaunch,
  verl: readVerlLaunch,
  'generic-trainer': readGenericLaunch,
};

/** The training run an invocation starts, read in its trainer's grammar; undefined for anything else. */
export function readTrainerLaunch(inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  // In `image` mode argv is what the image's entrypoint receives. Trainer images (ms-swift, axolotl,
  // LLaMA-Factory) run their CMD as the whole command, so a trainer program there is still one.
  const l = recognise(inv.argv);
  if (!l) return undefined;
  const launch = READERS[l.program](l, inv, lines);
  if (launch && l.via.length) launch.request.notes.push(`Launched through ${l.via.join(' → ')}.`);
  return launch;
}

export type { TrainerLaunch, OptionWriter } from './types';
export type { TrainerProgram } from './launchers';
