/**
 * Which transformers line a trainer runs in this workspace: a transformers pin (requirements,
 * pyproject, lock, `--consumer`) decides; without one, what a fresh install of the trainer's
 * current release gets. Facts, with their sources:
 * - axolotl pins transformers==5.14.1 (pyproject.toml @ 067b021; on 5.x since fc4e379, 2026-01-27);
 * - LLaMA-Factory requires transformers>=4.55.0,<=5.8.0,!=4.57.0,!=5.6.0 (pyproject.toml @ ff6d4d1),
 *   so a fresh install resolves to 5.8.0.
 */
import type { ConsumerPin } from '../serving/pins';
import type { TrainingTool } from '../config/training';
import type { TransformersLine } from '../config/trainers/axolotlOverrides';

export interface TrainerLine {
  line: TransformersLine;
  /** The workspace's transformers pin, when it has one (then a failure on that line is certain). */
  pin?: ConsumerPin;
  /** Why this line: the pin, or the trainer's own requirement. */
  why: string;
}

const FRESH: Partial<Record<TrainingTool, string>> = {
  axolotl: 'axolotl pins transformers==5.14.1',
  'llama-factory': 'LLaMA-Factory allows transformers up to 5.8.0, which a fresh install gets',
};

/** The line `tool` runs on: the workspace's transformers pin, else the trainer's current requirement. */
export function trainerTransformersLine(tool: TrainingTool, pins: readonly ConsumerPin[] | undefined): TrainerLine {
  const pin = pins?.find((p) => p.pkg === 'transformers');
  if (pin) {
    const major = pin.version === null ? 5 : Number.parseInt(pin.version, 10);
    const line: TransformersLine = major >= 5 ? 5 : 4;
    return { line, pin, why: `the workspace uses transformers${pin.version ? ` ${pin.version}` : ''} (${pin.source})` };
  }
  return { line: 5, why: FRESH[tool] ?? 'transformers 5.x is what a fresh install gets' };
}
